#!/usr/bin/env python3
"""The joint intent + slot model (JointIntentSlotFineTuner) beside today's intents model (bag-of-words intents +
CRF slot tagger) on one Snips split, in one run of `nlu-bench joint-tagger --baseline`: both train on the same
utterances (the first N of each intent of ../shared/data/snips/train_*_full.json, read in place) and parse the
same test utterances (validate_*.json); this script scores both with benchmarks/entities.py's code (slot F1 on
exact (type, start, end) spans, micro; gold annotations trimmed to the word tokens they cover) and intent accuracy.

    python3 benchmarks/joint_tagger.py --bench PATH/nlu-bench --model ~/.cache/.../all-MiniLM-L6-v2/snapshots/<rev> \
        [--per-intent 200] [--epochs 3] [--crf] [--batch-size 32] [--learning-rate 5e-5]
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
    args = parser.parse_args()
    train = sorted(glob.glob(os.path.join(SNIPS, "train_*_full.json")))
    test = sorted(glob.glob(os.path.join(SNIPS, "validate_*.json")))
    command = [args.bench, "joint-tagger", "--model", args.model, "--train", *train, "--test", *test, "--epochs", str(args.epochs),
               "--batch-size", str(args.batch_size), "--learning-rate", args.learning_rate, "--per-intent", str(args.per_intent),
               "--baseline"] + (["--crf"] if args.crf else [])
    began = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("nlu-bench joint-tagger failed:\n" + run.stderr[-3000:])
    result = json.loads(run.stdout)
    gold = read_snips(test)
    gold_spans = [trimmed(text, spans) for _, text, spans in gold]
    print(f"Snips, first {args.per_intent or 'all'} training utterances per intent ({result['trainingUtterances']}), "
          f"{len(gold)} test utterances; {args.epochs} epochs, batch {args.batch_size}, lr {args.learning_rate}, "
          f"CRF layer {'on' if args.crf else 'off'}; whole run {time.perf_counter() - began:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for name, key, seconds in [("joint model (fine-tuned encoder)", "predictions", result["trainingSeconds"]),
                               ("bag of words + CRF tagger", "baselinePredictions", result["baselineTrainingSeconds"])]:
        by_text = {p["text"]: p for p in result[key]}
        predicted = [{(e["entity"], e["start"], e["end"]) for e in by_text[text]["entities"]} for _, text, _ in gold]
        intents = sum(by_text[text]["intent"] == intent for intent, text, _ in gold) / len(gold)
        precision, recall, f1, exact = score(gold_spans, predicted)
        print(f"{name:34s} slot F1 {f1:.4f} (P {precision:.4f} R {recall:.4f})  intent accuracy {intents:.4f}  "
              f"all slots right {exact:.4f}  training {seconds:.1f} s")
    print(f"joint model parse latency p50 {result['parseLatencyP50Milliseconds']:.2f} ms ({result['optimizerSteps']} optimizer steps)")


if __name__ == "__main__":
    main()
