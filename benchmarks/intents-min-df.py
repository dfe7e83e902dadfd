#!/usr/bin/env python3
"""How the minimum document frequency (vocabulary pruning) changes intent accuracy with dataset size.

Measures what FeatureOptions.automaticMinimumDocumentFrequency is based on, with the release build:
  - Snips subsets: K utterances per intent (7 intents, seeded samples of ../shared/data/snips/train_*_full.json),
    tested on the 700 validate_*.json utterances, for --min-df 1, 2, 3 and the automatic default;
  - all of Snips (13,784 utterances) for --min-df 1, 2, 3 and the default;
  - the bundled sample (Samples/intents/car-dashboard.json, 399 utterances): 5-fold cross-validation.
Prints mean accuracy (and vocabulary size) per setting. About two minutes on two busy cores.

    python3 benchmarks/intents-min-df.py [--data ../shared/data/snips] [--skip-build]
"""
import json
import os
import random
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from intents import read_snips, snips_arguments, snips_files  # noqa: E402  (sets the same BLAS environment as the main benchmark)

SIZES = (3, 5, 10, 20, 50, 100, 200, 500)
SUBSET_SEEDS = (1, 2, 3)
CV_SEEDS = (42, 1, 2, 3, 4, 5, 6, 7)
SETTINGS = ("1", "2", "3", "auto")


def run_json(command):
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def bench(train_files, test_files, min_df):
    command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "intents", "--latency-passes", "1",
               "--train", *train_files, "--test", *test_files]
    return run_json(command + ([] if min_df == "auto" else ["--min-df", min_df]))


def mean(values):
    return sum(values) / len(values)


def main():
    args = snips_arguments(__doc__).parse_args()
    train_files, test_files = snips_files(args.data)
    if not args.skip_build:
        for product in ("nlu-bench", "nlu"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)

    texts, labels = read_snips(train_files)
    by_intent = {}
    for text, label in zip(texts, labels):
        by_intent.setdefault(label, []).append(text.strip())
    print(f"{'dataset':40} " + " ".join(f"{'min-df ' + s:>16}" for s in SETTINGS))
    with tempfile.TemporaryDirectory() as directory:
        for size in SIZES:
            results = {s: [] for s in SETTINGS}
            for seed in SUBSET_SEEDS:
                rng = random.Random(seed * 1000 + size)
                intents = [{"name": name, "utterances": [{"text": t} for t in rng.sample(examples, size)]}
                           for name, examples in sorted(by_intent.items())]
                path = os.path.join(directory, f"snips-{size}-{seed}.json")
                with open(path, "w") as handle:
                    json.dump({"format": "nlukit-intents", "version": 1, "intents": intents}, handle)
                for setting in SETTINGS:
                    results[setting].append(bench([path], test_files, setting))
            row = " ".join(f"{mean([r['accuracy'] for r in results[s]]):9.4f} {mean([r['features'] for r in results[s]]):6.0f}"
                           for s in SETTINGS)
            print(f"{f'Snips {size}/intent ({size * 7} utt., 3 samples)':40} {row}", flush=True)
        full = {s: bench(train_files, test_files, s) for s in SETTINGS}
        print(f"{f'Snips all ({len(texts)} utt.)':40} " + " ".join(f"{full[s]['accuracy']:9.4f} {full[s]['features']:6d}" for s in SETTINGS))

    sample = os.path.join(ROOT, "Samples", "intents", "car-dashboard.json")
    nlu = os.path.join(ROOT, ".build", "release", "nlu")
    cv = {s: [] for s in SETTINGS}
    for seed in CV_SEEDS:
        for setting in SETTINGS:
            command = [nlu, "intents", "evaluate", sample, "--folds", "5", "--seed", str(seed), "--json"]
            cv[setting].append(run_json(command + ([] if setting == "auto" else ["--min-df", setting]))["accuracy"])
    print((f"{'car-dashboard 5-fold (8 seeds)':40} " + " ".join(f"{mean(cv[s]):9.4f} {'':6}" for s in SETTINGS)).rstrip())
    print(f"{'  lowest-highest seed':40} " + " ".join(f"{min(cv[s]):.3f}-{max(cv[s]):.3f}".rjust(16) for s in SETTINGS))
    print("\naccuracy (mean over the samples or seeds), mean vocabulary size")


if __name__ == "__main__":
    main()
