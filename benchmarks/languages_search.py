#!/usr/bin/env python3
"""Keyword search recall in Chinese and Japanese (and English beside them), before and after a change
to the keyword analysis: known-item queries over xSID's utterances.

Documents: the utterances of xSID's dev and test sets of each language (github mainlp/xsid, CC BY-SA 4.0,
read in place; Chinese 800, Japanese 400, English 800), written as users write them (the Chinese and
Japanese `# text` lines are tokenized with spaces: the spaces are removed, except between two ASCII letters
or digits). Queries, one per utterance that has at least three words of two or more characters: three of
them (xSID's own word segmentation; for Chinese, whose lines are not segmented, two-character pieces of
the utterance), in shuffled order (seeded), joined as the language writes them. A query counts as found
when its utterance is in the first 5 results of `nlu index search --mode keyword`.

    python3 benchmarks/languages_search.py --nlu .build/debug/nlu --nlu-before /tmp/nlu-before

Each binary makes its own index (`nlu index create --model hashing`, `nlu index add`), then answers all
queries in one process (`--json`, queries on standard input).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from languages_intents import UNSPACED, read_conll  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def join(words, language):
    text = ""
    for word in words:
        if text and (language not in UNSPACED or (text[-1].isascii() and text[-1].isalnum() and word[0].isascii() and word[0].isalnum())):
            text += " "
        text += word
    return text


def utterances(conll, language):
    """The words of each `# text` line (xSID's segmentation)."""
    return [line[len("# text = "):].split() for line in conll.split("\n") if line.startswith("# text = ")]


def queries(documents, language, rng):
    result = []
    for number, words in enumerate(documents):
        if language == "zh":
            text = join(words, language)
            # Chinese lines are not segmented: non-overlapping two-character pieces of Han text stand for words.
            pieces = [text[i:i + 2] for i in range(0, len(text) - 1, 2) if all("\u4e00" <= c <= "\u9fff" for c in text[i:i + 2])]
        else:
            pieces = [w for w in words if len(w) >= 2 and any(c.isalnum() for c in w)]
        if len(pieces) < 3:
            continue
        chosen = rng.sample(pieces, 3)
        result.append((number, join(chosen, language)))
    return result


def run(command, stdin=None):
    process = subprocess.run(command, input=stdin, capture_output=True, text=True)
    if process.returncode != 0:
        sys.exit(f"{' '.join(command[:3])} failed:\n{process.stderr[-3000:]}")
    return process.stdout


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--xsid", default="/work/.mirror/mainlp+xsid/repo")
    parser.add_argument("--version", default="xSID-0.7")
    parser.add_argument("--languages", default="en,zh,ja")
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build/debug/nlu"))
    parser.add_argument("--nlu-before")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    binaries = ([("before", args.nlu_before)] if args.nlu_before else []) + [("after" if args.nlu_before else "NLUKit", args.nlu)]
    work = tempfile.mkdtemp(prefix="nlukit-xsid-search-")
    print(f"xSID {args.version} utterances as documents, 3 shuffled words of each as its query; recall@5, keyword mode")
    for language in args.languages.split(","):
        documents = []
        for split in ("valid", "test"):
            documents += utterances(read_conll(args.xsid, args.version, f"{language}.{split}.conll"), language)
        asked = queries(documents, language, random.Random(args.seed))
        jsonl = os.path.join(work, f"{language}.jsonl")
        with open(jsonl, "w", encoding="utf-8") as f:
            for number, words in enumerate(documents):
                f.write(json.dumps({"id": str(number), "text": join(words, language)}, ensure_ascii=False) + "\n")
        for name, nlu in binaries:
            index = os.path.join(work, f"{language}-{name}.sqlite")
            run([nlu, "index", "create", index, "--model", "hashing"])
            run([nlu, "index", "add", index, jsonl])
            started = time.time()
            output = run([nlu, "index", "search", index, "--mode", "keyword", "-k", "5", "--json"],
                         stdin="\n".join(q for _, q in asked) + "\n")
            seconds = time.time() - started
            answers = [json.loads(line) for line in output.splitlines() if line.strip()]
            found = sum(1 for (number, _), answer in zip(asked, answers)
                        if str(number) in [r["document"] for r in answer["results"]])
            print(f"{language:>4} {name:>7}: {len(documents)} documents, {len(asked)} queries, recall@5 {found / len(asked):.3f} "
                  f"({seconds:.1f} s for all queries); e.g. {asked[0][1]!r}")
            sys.stdout.flush()


if __name__ == "__main__":
    main()
