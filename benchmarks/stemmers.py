#!/usr/bin/env python3
"""Every Snowball stemmer of `nlu stem` against Snowball's own test vocabularies and `snowballstemmer` 3.1.1, word for
word, with speed (not CI: it needs the vocabularies and Python; the committed fixtures are a subset of these words).

    python3 -P benchmarks/stemmers.py --data PATH/TO/snowball-data [--nlu .build/release/nlu]

For each language with a vocabulary (`<language>/voc.txt` and `output.txt` of a snowball-data clone; commit ba91f32b
was used, Arabic and Tamil are absent from it as too large), it prints the words, the mismatches of `nlu stem` against
Snowball's expected output and against the pure-Python stemmers of `snowballstemmer` 3.1.1 (its generated modules,
not the PyStemmer C code `snowballstemmer.stemmer()` prefers when installed), and against PyStemmer when installed;
then the stemming speed in words per second of each (stemming alone: `nlu stem --timing` times the loop without
input and output; Python times `stemWord` over the list) and the ratio nlu / snowballstemmer.

A mismatch against `output.txt` that snowballstemmer shares is a vocabulary older than the algorithm (snowball-data's
files trail the algorithm changes of Snowball 3.1), not a stemmer defect; the script says so.
"""
import argparse
import importlib
import os
import re
import subprocess
import sys
import time

LANGUAGES = """arabic armenian basque catalan czech danish dutch dutch_porter english esperanto estonian finnish
french german greek hindi hungarian indonesian irish italian lithuanian nepali norwegian persian polish porter
portuguese romanian russian serbian sesotho spanish swedish tamil turkish yiddish""".split()
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def python_stemmer(language):
    module = importlib.import_module(f"snowballstemmer.{language}_stemmer")
    return getattr(module, "".join(part.capitalize() for part in language.split("_")) + "Stemmer")()


def timed(stem, words):
    start = time.perf_counter()
    stems = [stem(word) for word in words]
    return stems, len(words) / (time.perf_counter() - start)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", required=True, help="a clone of snowballstem/snowball-data")
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build", "release", "nlu"))
    parser.add_argument("--languages", nargs="*", default=LANGUAGES)
    args = parser.parse_args()
    try:
        import Stemmer as pystemmer
    except ImportError:
        pystemmer = None
    print(f"{'language':<13} {'words':>7} {'≠ output':>9} {'≠ snowball':>10} {'≠ PyStemmer':>11} "
          f"{'nlu w/s':>10} {'python w/s':>10} {'ratio':>6} {'C w/s':>10}")
    totals = [0, 0]
    for language in args.languages:
        vocabulary = os.path.join(args.data, language, "voc.txt")
        if not os.path.exists(vocabulary):
            print(f"{language:<13} (no vocabulary in {args.data})")
            continue
        with open(vocabulary, encoding="utf-8") as handle:
            words = handle.read().split("\n")
        if words and words[-1] == "":
            words.pop()
        with open(os.path.join(args.data, language, "output.txt"), encoding="utf-8") as handle:
            expected = handle.read().split("\n")[:len(words)]
        run = subprocess.run([args.nlu, "stem", "--language", language, "--file", vocabulary, "--timing"],
                             capture_output=True, text=True, check=True)
        ours = run.stdout.split("\n")[:len(words)]
        nlu_rate = float(re.search(r"(\d+) words/s", run.stderr).group(1))
        reference, python_rate = timed(python_stemmer(language).stemWord, words)
        c_rate, c_mismatches = None, None
        if pystemmer is not None and language in pystemmer.algorithms():
            c_stems, c_rate = timed(pystemmer.Stemmer(language).stemWord, words)
            c_mismatches = sum(a != b for a, b in zip(ours, c_stems))
        against_output = sum(a != b for a, b in zip(ours, expected))
        against_python = sum(a != b for a, b in zip(ours, reference))
        stale = sum(a != b for a, b in zip(reference, expected))
        totals[0] += len(words)
        totals[1] += against_python
        note = f"  ({stale} of them snowballstemmer's too: vocabulary older than the algorithm)" if stale else ""
        print(f"{language:<13} {len(words):>7} {against_output:>9} {against_python:>10} "
              f"{'-' if c_mismatches is None else c_mismatches:>11} {nlu_rate:>10.0f} {python_rate:>10.0f} "
              f"{nlu_rate / python_rate:>6.1f} {'-' if c_rate is None else f'{c_rate:.0f}':>10}{note}")
    print(f"total: {totals[0]} words, {totals[1]} mismatches against snowballstemmer 3.1.1")
    sys.exit(1 if totals[1] else 0)


if __name__ == "__main__":
    main()
