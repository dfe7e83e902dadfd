#!/usr/bin/env python3
"""Intent accuracy with and without sentence embeddings as features (Rasa's LanguageModelFeaturizer),
on the Snips benchmark, with the real all-MiniLM-L6-v2, in one run.

Trains `nlu intents train` twice on the same utterances (train_*_full.json, or --per-intent N of each
intent after a fixed shuffle) — bag of words alone, then bag of words + `--embeddings MODEL` — and
scores both with `nlu intents evaluate` on validate_*.json (100 utterances per intent). Prints
accuracy, macro-F1 and training time (embedding the training utterances included) for each, and the machine.

    python3 benchmarks/intents-embeddings.py [--per-intent 50] [--model sentence-transformers/all-MiniLM-L6-v2] [--skip-build]

No Python package is needed: both sides are `nlu` (release build). The model comes from the
Hugging Face cache (scripts/install-minilm.sh or `nlu models download`).
"""
import argparse
import glob
import json
import os
import random
import subprocess
import tempfile

import blas_env  # benchmarks/, the script's own folder, is on the path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SNIPS = os.path.join(ROOT, "..", "shared", "data", "snips")


def read_json(path):
    with open(path, "rb") as f:
        raw = f.read()
    try:
        return json.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        return json.loads(raw.decode("latin-1"))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--per-intent", type=int, default=0, help="training utterances per intent (0: all, ~1,900)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    env = dict(os.environ)
    env.setdefault("OPENBLAS_NUM_THREADS", "2")
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    nlu = os.path.join(ROOT, ".build", "release", "nlu")

    with tempfile.TemporaryDirectory() as scratch:
        train_files = []
        total = 0
        for path in sorted(glob.glob(os.path.join(SNIPS, "train_*_full.json"))):
            data = read_json(path)
            for intent, utterances in data.items():
                utterances = list(utterances)
                if args.per_intent:
                    random.Random(args.seed).shuffle(utterances)
                    utterances = utterances[:args.per_intent]
                total += len(utterances)
                out = os.path.join(scratch, os.path.basename(path))
                with open(out, "w", encoding="utf-8") as f:
                    json.dump({intent: utterances}, f)
                train_files.append(out)
        test_files = sorted(glob.glob(os.path.join(SNIPS, "validate_*.json")))
        rows = []
        for label, extra in [("bag of words", []), (f"bag of words + {os.path.basename(args.model)}", ["--embeddings", args.model])]:
            model = os.path.join(scratch, "model-%d.nlumodel" % len(rows))
            trained = subprocess.run([nlu, "intents", "train", *train_files, "-o", model, "--no-entities", "--json", *extra],
                                     check=True, capture_output=True, text=True, env=env)
            summary = json.loads(trained.stdout)
            evaluated = subprocess.run([nlu, "intents", "evaluate", "-m", model, *test_files, "--json"],
                                       check=True, capture_output=True, text=True, env=env)
            report = json.loads(evaluated.stdout)
            rows.append((label, report["accuracy"], report["macroF1"], summary["seconds"], summary["epochs"]))
    print(f"machine: {blas_env.cpu_name()}, {os.cpu_count()} cores; OPENBLAS_NUM_THREADS {env['OPENBLAS_NUM_THREADS']}")
    print(f"Snips: {total} training utterances ({'all' if not args.per_intent else f'{args.per_intent} per intent'}), "
          f"test validate_*.json; entities off")
    for label, accuracy, f1, seconds, epochs in rows:
        print(f"{label:<40} accuracy {accuracy:.4f}  macro-F1 {f1:.4f}  train {seconds:.1f} s ({epochs} epochs)")
    print(f"accuracy change with embeddings: {100 * (rows[1][1] - rows[0][1]):+.2f} points; train time ratio {rows[1][3] / rows[0][3]:.1f}x")


if __name__ == "__main__":
    main()
