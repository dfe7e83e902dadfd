#!/usr/bin/env python3
"""The joint intent + slot model (`nlu intents train --fine-tune MODEL --tagger transformer`) beside today's
intents model (bag-of-words intents + CRF slot tagger) on one Snips split, in one run of `nlu-bench joint-tagger
--baseline`: both train on the same utterances (the first N of each intent of ../shared/data/snips/train_*_full.json,
read in place; 0: all) and predict the same test utterances (validate_*.json), the joint model from its saved
package loaded at F32 and at INT8, as `nlu intents predict` loads it. This script scores them with
benchmarks/entities.py's code (slot F1 on exact (type, start, end) spans, micro; gold annotations trimmed to the
word tokens they cover) and intent accuracy, and prints the median prediction latency of each.

    python3 benchmarks/joint_tagger.py --bench .build/release/nlu-bench --model sentence-transformers/all-MiniLM-L6-v2 \
        [--per-intent 0] [--epochs 3] [--crf] [--batch-size 32] [--learning-rate 5e-5] [--test-limit N]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
# entities.py imports python-crfsuite for its own baseline; the scoring functions used here do not need it.
sys.modules.setdefault("pycrfsuite", types.ModuleType("pycrfsuite"))
from entities import read_snips, score, trimmed  # noqa: E402

SNIPS = os.path.join(ROOT, "..", "shared", "data", "snips")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--per-intent", type=int, default=200)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", default="5e-5")
    parser.add_argument("--crf", action="store_true")
    parser.add_argument("--test-limit", type=int, default=0, help="the first N test utterances (0: all)")
    args = parser.parse_args()
    train = sorted(glob.glob(os.path.join(SNIPS, "train_*_full.json")))
    test = sorted(glob.glob(os.path.join(SNIPS, "validate_*.json")))
    command = [args.bench, "joint-tagger", "--model", args.model, "--train", *train, "--test", *test, "--epochs", str(args.epochs),
               "--batch-size", str(args.batch_size), "--learning-rate", args.learning_rate, "--per-intent", str(args.per_intent),
               "--test-limit", str(args.test_limit), "--baseline"] + (["--crf"] if args.crf else [])
    began = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("nlu-bench joint-tagger failed:\n" + run.stderr[-3000:])
    result = json.loads(run.stdout)
    predicted_texts = {p["text"] for p in result["predictions"]}
    gold = [example for example in read_snips(test) if example[1] in predicted_texts]
    gold_spans = [trimmed(text, spans) for _, text, spans in gold]
    print(f"Snips, first {args.per_intent or 'all'} training utterances per intent ({result['trainingUtterances']}), "
          f"{len(gold)} test utterances; {args.epochs} epochs, batch {args.batch_size}, lr {args.learning_rate}, "
          f"CRF layer {'on' if args.crf else 'off'}; whole run {time.perf_counter() - began:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for name, key, seconds, latency in [
            ("joint model, F32", "predictions", result["trainingSeconds"], result["latencyP50Milliseconds"]),
            ("joint model, INT8", "predictionsInt8", result["trainingSeconds"], result["latencyP50MillisecondsInt8"]),
            ("bag of words + CRF tagger", "baselinePredictions", result["baselineTrainingSeconds"], result["baselineLatencyP50Milliseconds"])]:
        by_text = {p["text"]: p for p in result[key]}
        predicted = [{(e["entity"], e["start"], e["end"]) for e in by_text[text]["entities"]} for _, text, _ in gold]
        intents = sum(by_text[text]["intent"] == intent for intent, text, _ in gold) / len(gold)
        precision, recall, f1, exact = score(gold_spans, predicted)
        print(f"{name:26s} slot F1 {f1:.4f} (P {precision:.4f} R {recall:.4f})  intent accuracy {intents:.4f}  "
              f"all slots right {exact:.4f}  training {seconds:.1f} s  prediction p50 {latency:.2f} ms")
    print(f"joint model: {result['optimizerSteps']} optimizer steps")


if __name__ == "__main__":
    main()
