#!/usr/bin/env python3
"""`nlu embed train` on real data: anchor/positive pairs from HWU64's training utterances (two
utterances of one intent per pair), then nearest-neighbour intent accuracy on HWU64's test set
before and after fine-tuning (each test utterance takes the intent of its most similar training
utterance, cosine similarity), embedded by `nlu embed`.

The data is read in place from ../shared/data/hwu64 (CC BY 4.0) and nothing of it is written into
the project; the pairs file goes to a temporary folder.

    python3 -P benchmarks/embed_train.py --nlu .build/release/nlu \
        --model ~/.cache/huggingface/hub/models--sentence-transformers--all-MiniLM-L6-v2/snapshots/*/ \
        [--pairs-per-intent 10] [--epochs 1]

Pinned: numpy 2.4.6 (scripts/reference-requirements.txt).
"""
import argparse
import csv
import glob
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import numpy as np

DATA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "shared", "data", "hwu64")


def utterances(split):
    rows = {}
    for path in sorted(glob.glob(os.path.join(DATA, split, "*.csv"))):
        intent = os.path.splitext(os.path.basename(path))[0]
        with open(path, newline="") as f:
            rows[intent] = [r["answer_from_anno"] for r in csv.DictReader(f, delimiter=";") if r["answer_from_anno"].strip()]
    return rows


def embed(nlu, model, texts):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        f.write("\n".join(texts) + "\n")
        name = f.name
    out = name + ".npy"
    subprocess.run([nlu, "embed", "--model", model, "--input", name, "--format", "npy", "-o", out], check=True)
    vectors = np.load(out)
    os.remove(name)
    os.remove(out)
    return vectors


def accuracy(nlu, model, train, test):
    train_texts = [t for intent in train for t in train[intent]]
    train_labels = [intent for intent in train for _ in train[intent]]
    test_texts = [t for intent in test for t in test[intent]]
    test_labels = [intent for intent in test for _ in test[intent]]
    a, b = embed(nlu, model, test_texts), embed(nlu, model, train_texts)
    nearest = (a @ b.T).argmax(axis=1)
    return float(np.mean([train_labels[j] == label for j, label in zip(nearest, test_labels)])), len(test_texts), len(train_texts)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--nlu", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--pairs-per-intent", type=int, default=10)
    parser.add_argument("--epochs", type=int, default=1)
    parser.add_argument("--output", default=os.path.join(tempfile.gettempdir(), "minilm-hwu64"))
    args = parser.parse_args()
    train, test = utterances("train"), utterances("test")
    rng = random.Random(39)
    pairs = []
    for intent, texts in train.items():
        for _ in range(args.pairs_per_intent):
            anchor, positive = rng.sample(texts, 2)
            pairs.append({"anchor": anchor, "positive": positive})
    pairs_file = os.path.join(tempfile.gettempdir(), "hwu64-pairs.jsonl")
    with open(pairs_file, "w") as f:
        f.write("".join(json.dumps(p) + "\n" for p in pairs))
    print(f"{len(pairs)} pairs from {len(train)} intents -> {pairs_file}")
    before = accuracy(args.nlu, args.model, train, test)
    print(f"before: nearest-neighbour intent accuracy {before[0]:.4f} ({before[1]} test utterances against {before[2]} training ones)")
    start = time.time()
    subprocess.run([args.nlu, "embed", "train", args.model, "--pairs", pairs_file, "-o", args.output, "--epochs", str(args.epochs)],
                   check=True)
    print(f"trained in {time.time() - start:.1f} s")
    after = accuracy(args.nlu, args.output, train, test)
    print(f"after:  nearest-neighbour intent accuracy {after[0]:.4f}")


if __name__ == "__main__":
    sys.exit(main())
