#!/usr/bin/env python3
"""Keyword search recall in Chinese and Japanese, in xSID's Latin-script languages with a Snowball stemmer, and in
English beside them, before and after a change to the keyword analysis: known-item queries over xSID's utterances.

Documents: the utterances of xSID's dev and test sets of each language (github mainlp/xsid, CC BY-SA 4.0,
read in place; Chinese 800, Japanese 400, English 800), written as users write them (the Chinese and
Japanese `# text` lines are tokenized with spaces: the spaces are removed, except between two ASCII letters
or digits). Queries, one per utterance that has at least three words of two or more characters: three of
them (xSID's own word segmentation; for Chinese, whose lines are not segmented, two-character pieces of
the utterance), in shuffled order (seeded), joined as the language writes them. In a language with a Snowball
stop-word list, a second set takes three content words (none in that list) of each utterance that has three: what
a user who types only the words that matter asks. A query counts as found when its utterance is in the first 5
results of `nlu index search --mode keyword`.

    python3 benchmarks/languages_search.py --nlu .build/debug/nlu --nlu-before /tmp/nlu-before

Each binary makes its own index (`nlu index create --model hashing`, `nlu index add`), then answers all
queries in one process (`--json`, queries on standard input). A Latin-script language other than English
(Danish, German, Indonesian, Italian, Lithuanian, Dutch, Norwegian, Serbian, Turkish) is indexed twice by each
binary: analysed as English (an index made without `--language`, what every such index was before languages)
and in its own language (`--language xx`: its Snowball stemmer, stop words and, in Italian, elided articles).

    python3 benchmarks/languages_search.py --languages da,de,id,it,lt,nl,no,sr,tr
"""
import argparse
import json
import os
import random
import re
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
    """The words of each `# text` line (xSID's segmentation); Norwegian's Bokmål lines only (each utterance is also
    transcribed in ten dialects, as benchmarks/languages_intents.py reads it)."""
    result = []
    for block in conll.split("\n\n"):
        if "\n# dialect = " in "\n" + block and "\n# dialect = B" not in "\n" + block:
            continue
        result += [line[len("# text = "):].split() for line in block.split("\n") if line.startswith("# text = ")]
    return [words for words in result if words]


def queries(documents, language, rng, skipped=frozenset()):
    """(utterance number, query) for each utterance with three words to choose from; a word in `skipped`
    (lower-cased) is never chosen."""
    result = []
    for number, words in enumerate(documents):
        if language == "zh":
            text = join(words, language)
            # Chinese lines are not segmented: non-overlapping two-character pieces of Han text stand for words.
            pieces = [text[i:i + 2] for i in range(0, len(text) - 1, 2) if all("\u4e00" <= c <= "\u9fff" for c in text[i:i + 2])]
        else:
            pieces = [w for w in words if len(w) >= 2 and any(c.isalnum() for c in w) and w.lower() not in skipped]
        if len(pieces) < 3:
            continue
        chosen = rng.sample(pieces, 3)
        result.append((number, join(chosen, language)))
    return result


# The Snowball stop-word list of each of those languages that has one (the `content words` queries leave its
# words out): the lists NLUKit leaves out of its keyword terms, read from the generated Swift table.
STOP_WORD_LISTS = {"da": "danish", "de": "german", "id": "indonesian", "it": "italian", "nl": "dutch", "no": "norwegian"}


def stop_words(name):
    source = open(os.path.join(ROOT, "Sources", "NLUText", "StopWords", "SnowballStopWords.swift"), encoding="utf-8").read()
    match = re.search(r"\." + name + r": \[(.*?)\]", source, re.S)
    return frozenset(re.findall(r'"([^"]*)"', match.group(1)))


# xSID's Latin-script languages that NLUKit stems (a Snowball algorithm); de-st, de-ba, de-muc, gsw and nap
# are dialects without one.
LATIN_STEMMED = {"da", "de", "id", "it", "lt", "nl", "no", "sr", "tr"}


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
    print(f"xSID {args.version} utterances as documents, 3 shuffled words of each as its query (any words of 2+ characters;"
          f" in languages with a Snowball stop-word list also 3 content words, none in the list); recall@5, keyword mode")
    for language in args.languages.split(","):
        documents = []
        for split in ("valid", "test"):
            documents += utterances(read_conll(args.xsid, args.version, f"{language}.{split}.conll"), language)
        query_sets = [("any words", queries(documents, language, random.Random(args.seed)))]
        if language in STOP_WORD_LISTS:
            content = queries(documents, language, random.Random(args.seed), skipped=stop_words(STOP_WORD_LISTS[language]))
            query_sets.append(("content words", content))
        jsonl = os.path.join(work, f"{language}.jsonl")
        with open(jsonl, "w", encoding="utf-8") as f:
            for number, words in enumerate(documents):
                f.write(json.dumps({"id": str(number), "text": join(words, language)}, ensure_ascii=False) + "\n")
        analyses = [("as en", []), (f"as {language}", ["--language", language])] if language in LATIN_STEMMED else [("", [])]
        for (binary, nlu), (analysis, flags) in [(b, a) for b in binaries for a in analyses]:
            name = f"{binary} {analysis}".strip()
            index = os.path.join(work, f"{language}-{name.replace(' ', '-')}.sqlite")
            run([nlu, "index", "create", index, "--model", "hashing"] + flags)
            run([nlu, "index", "add", index, jsonl])
            # Every query set in one process: one index load.
            asked_all = [item for _, asked in query_sets for item in asked]
            started = time.time()
            output = run([nlu, "index", "search", index, "--mode", "keyword", "-k", "5", "--json"],
                         stdin="\n".join(q for _, q in asked_all) + "\n")
            seconds = time.time() - started
            answers = [json.loads(line) for line in output.splitlines() if line.strip()]
            offset = 0
            for kind, asked in query_sets:
                found = sum(1 for (number, _), answer in zip(asked, answers[offset:offset + len(asked)])
                            if str(number) in [r["document"] for r in answer["results"]])
                offset += len(asked)
                print(f"{language:>4} {name:>13} {kind:>13}: {len(documents)} documents, {len(asked)} queries, "
                      f"recall@5 {found / len(asked):.3f}; e.g. {asked[0][1]!r}")
            print(f"{language:>4} {name:>13}: {seconds:.1f} s for all {len(asked_all)} queries")
            sys.stdout.flush()

if __name__ == "__main__":
    main()
