#!/usr/bin/env python3
"""The joint intent + slot model (`nlu intents train --fine-tune MODEL --tagger transformer`) beside today's
intents model (bag-of-words intents + CRF slot tagger) on one Snips split, in one run of `nlu-bench joint-tagger
--baseline`: both train on the same utterances (the first N of each intent of ../shared/data/snips/train_*_full.json,
read in place; 0: all) and predict the same test utterances (validate_*.json), the joint model from its saved
package loaded at F32 and at INT8, as `nlu intents predict` loads it. This script scores them with
benchmarks/entities.py's code (slot F1 on exact (type, start, end) spans, micro; gold annotations trimmed to the
word tokens they cover) and intent accuracy, and prints the median prediction latency of each.

    python3 benchmarks/joint_tagger.py --bench .build/release/nlu-bench --model sentence-transformers/all-MiniLM-L6-v2 \
        [--per-intent 0] [--epochs 10] [--crf | --no-crf] [--word-shapes | --no-word-shapes] [--slot-loss-weight 1] [--batch-size 32] [--learning-rate 5e-5] [--head-learning-rate 1e-3] [--test-limit N] [--seed 42] [--curve] [--dataset atis]

--dataset atis trains and tests on ATIS instead (the joint papers' split: train + dev 4,978 utterances, test 893,
obtained and converted by benchmarks/atis.py), scoring slots as conlleval does (the papers' slot F1) and intents
by exact label; --dataset hwu64 on ../shared/data/hwu64 (its train and test splits, 64 intents, the `[type : words]`
annotations as entity spans), scored as Snips. --curve also prints the joint model's figures on the test set after
each epoch (NLUKit's own scoring of the words the slot head reads: close to, not the same as, the final lines'),
to read how much they move from epoch to epoch; the final lines are still the last epoch's.

--dev N (ATIS, HWU64) holds N training utterances out (a seeded sample, --dev-seed) as a development set: the model
trains on the rest, scores the development set after each epoch and keeps its best epoch by --keep-best (default
frame-accuracy, JointBERT's semantic frame accuracy), as the joint papers choose a model on their development split.
ATIS's package merges the papers' train (4,478) and dev (500) in another order, so --dev 500 gives their sizes, not
their split.
"""
import argparse
import csv
import glob
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import types

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
# entities.py imports python-crfsuite for its own baseline; the scoring functions used here do not need it.
sys.modules.setdefault("pycrfsuite", types.ModuleType("pycrfsuite"))
from entities import read_snips, score, trimmed  # noqa: E402
import atis  # noqa: E402

SNIPS = os.path.join(ROOT, "..", "shared", "data", "snips")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bench", required=True)
    parser.add_argument("--model", required=True)
    parser.add_argument("--per-intent", type=int, default=200)
    parser.add_argument("--epochs", type=int, default=10, help="(the joint model's default, JointBERT's)")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--learning-rate", default="5e-5")
    parser.add_argument("--head-learning-rate", help="the heads' and CRF's peak rate (default: the joint model's)")
    parser.add_argument("--crf", action=argparse.BooleanOptionalAction, help="the CRF layer (default: the joint model's)")
    parser.add_argument("--word-shapes", action=argparse.BooleanOptionalAction, help="the words' case in the slot head (default: the joint model's)")
    parser.add_argument("--slot-loss-weight", help="the slot loss's weight beside the intent loss, JointBERT's slot_loss_coef (default: the joint model's)")
    parser.add_argument("--seed", type=int, default=42, help="the heads' initial weights, batch order and dropout")
    parser.add_argument("--curve", action="store_true",
                        help="also score the test set after each epoch (a learning curve to read the epoch-to-epoch spread; "
                             "the last epoch is still the one reported, nothing is chosen on the test set)")
    parser.add_argument("--test-limit", type=int, default=0, help="the first N test utterances (0: all)")
    parser.add_argument("--dataset", choices=["snips", "atis", "hwu64"], default="snips")
    parser.add_argument("--dev", type=int, default=0, help="hold out N training utterances to choose the epoch on (ATIS, HWU64)")
    parser.add_argument("--dev-seed", type=int, default=0, help="the seed of the held-out sample")
    parser.add_argument("--keep-best", default="frame-accuracy", help="the development score whose best epoch is kept (with --dev)")
    args = parser.parse_args()
    if args.dev and args.dataset == "snips":
        parser.error("--dev holds out ATIS or HWU64 utterances; Snips has its own validate_* files, used as the test set")
    if args.dev and args.curve:
        parser.error("--curve scores the test set after each epoch, --dev a development set: give one")
    if args.dataset != "snips":
        with tempfile.TemporaryDirectory() as folder:
            (run_atis if args.dataset == "atis" else run_hwu64)(args, folder)
        return
    train = sorted(glob.glob(os.path.join(SNIPS, "train_*_full.json")))
    test = sorted(glob.glob(os.path.join(SNIPS, "validate_*.json")))
    began = time.perf_counter()
    result = bench(args, train, test)
    predicted_texts = {p["text"] for p in result["predictions"]}
    gold = [example for example in read_snips(test) if example[1] in predicted_texts]
    gold_spans = [trimmed(text, spans) for _, text, spans in gold]
    report(f"Snips, first {args.per_intent or 'all'} training utterances per intent ({result['trainingUtterances']}), "
           f"{len(gold)} test utterances", args, began, result, [(intent, text) for intent, text, _ in gold],
           lambda by_text: score(gold_spans, [{(e["entity"], e["start"], e["end"]) for e in by_text[text]["entities"]} for _, text, _ in gold]))


def report(title, args, began, result, gold, slots):
    """Prints the run and a line for each model (the joint model at F32 and INT8, the bag of words + CRF): slot
    precision, recall and F1 (and the share of utterances with every slot right, when given) from
    `slots(predictions by text)`, intent accuracy over `gold` [(intent, text)], training time, median latency."""
    print(f"{title}; {args.epochs} epochs, batch {args.batch_size}, lr {args.learning_rate}, head lr {result['headLearningRate']:g}, "
          f"CRF layer {'on' if result['crf'] else 'off'}, word shapes {'on' if result.get('wordShapes') else 'off'}, "
          f"slot loss weight {result.get('slotLossWeight', 1):g}; "
          f"seed {args.seed}; "
          f"whole run {time.perf_counter() - began:.0f} s; load average {os.getloadavg()[0]:.1f}")
    for name, key, seconds, latency in [
            ("joint model, F32", "predictions", result["trainingSeconds"], result["latencyP50Milliseconds"]),
            ("joint model, INT8", "predictionsInt8", result["trainingSeconds"], result["latencyP50MillisecondsInt8"]),
            ("bag of words + CRF tagger", "baselinePredictions", result["baselineTrainingSeconds"], result["baselineLatencyP50Milliseconds"])]:
        by_text = {p["text"]: p for p in result[key]}
        precision, recall, f1, *exact = slots(by_text)
        intents = sum(by_text[text]["intent"] == intent for intent, text in gold) / len(gold)
        print(f"{name:26s} slot F1 {f1:.4f} (P {precision:.4f} R {recall:.4f})  intent accuracy {intents:.4f}  "
              + (f"all slots right {exact[0]:.4f}  " if exact else "") + f"training {seconds:.1f} s  prediction p50 {latency:.2f} ms")
    print(f"joint model: {result['optimizerSteps']} optimizer steps")
    if "keptEpoch" in result:
        print(f"kept epoch {result['keptEpoch']} of {len(result['validationCurve'])} by {args.keep_best} on the {args.dev} development utterances "
              f"(seed {args.dev_seed}):")
        for point in result["validationCurve"]:
            print(f"  dev after epoch {point['epoch']:2d}: intent accuracy {point['intentAccuracy']:.4f}  slot F1 {point['slotF1']:.4f}  "
                  f"frame accuracy {point['frameAccuracy']:.4f}" + ("  *" if point["isBest"] else ""))
    for point in result.get("curve", []):
        # NLUKit's own scoring (FineTuningValidation): mentions over the words the slot head reads, every test utterance.
        print(f"  after epoch {point['epoch']:2d}: intent accuracy {point['intentAccuracy']:.4f}  slot F1 {point['slotF1']:.4f}  "
              f"all slots right {point['exactUtterances']:.4f}" + (f"  loss {point['loss']:.4f}" if "loss" in point else ""))


def bench(args, train, test, dev=None):
    """`nlu-bench joint-tagger --baseline`'s JSON for these training and test files."""
    command = [args.bench, "joint-tagger", "--model", args.model, "--train", *train, "--test", *test, "--epochs", str(args.epochs),
               "--batch-size", str(args.batch_size), "--learning-rate", args.learning_rate, "--per-intent", str(args.per_intent),
               "--test-limit", str(args.test_limit), "--seed", str(args.seed), "--baseline"] + ({True: ["--crf"], False: ["--no-crf"]}.get(args.crf, [])) \
        + ({True: ["--word-shapes"], False: ["--no-word-shapes"]}.get(getattr(args, "word_shapes", None), [])) \
        + (["--head-learning-rate", args.head_learning_rate] if args.head_learning_rate else []) \
        + (["--slot-loss-weight", args.slot_loss_weight] if args.slot_loss_weight else []) \
        + (["--curve"] if getattr(args, "curve", False) else []) \
        + (["--validation", dev, "--keep-best", args.keep_best] if dev else [])
    run = subprocess.run(command, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("nlu-bench joint-tagger failed:\n" + run.stderr[-3000:])
    return json.loads(run.stdout)


HWU64 = os.path.join(ROOT, "..", "shared", "data", "hwu64")
ANNOTATION = re.compile(r"\[\s*([^\]:]+?)\s*:\s*([^\]]*?)\s*\]")


def read_hwu64(split):
    """[(intent, text, [(entity, start, end)])] of one HWU64 split: intent scenario_intent, text the annotation with
    each `[type : words]` replaced by its words, spans in Unicode scalars; rows without an annotation skipped."""
    examples = []
    for name in sorted(os.listdir(os.path.join(HWU64, split))):
        if not name.endswith(".csv"):
            continue
        with open(os.path.join(HWU64, split, name), newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter=";"):
                annotated = (row.get("answer_annotation") or "").strip()
                if not annotated:
                    continue
                text, spans, position = "", [], 0
                for match in ANNOTATION.finditer(annotated):
                    text += annotated[position:match.start()]
                    start = len(text)
                    text += match.group(2)
                    if match.group(2):
                        spans.append((match.group(1).strip(), start, len(text)))
                    position = match.end()
                text += annotated[position:]
                examples.append((f"{row['scenario']}_{row['intent']}", text, spans))
    return examples


def hold_out(examples, count, seed):
    """(training, development): `count` of `examples` drawn with `seed` held out, both in their original order."""
    if count <= 0:
        return examples, []
    if count >= len(examples):
        sys.exit(f"--dev {count}: only {len(examples)} training utterances")
    chosen = set(random.Random(seed).sample(range(len(examples)), count))
    return [e for i, e in enumerate(examples) if i not in chosen], [e for i, e in enumerate(examples) if i in chosen]


def write_examples(examples, path):
    """NLUKit's dataset JSON of (intent, text, spans) examples."""
    intents = {}
    for intent, text, spans in examples:
        utterance = {"text": text}
        if spans:
            utterance["entities"] = [{"entity": entity, "start": start, "end": end, "value": text[start:end]} for entity, start, end in spans]
        intents.setdefault(intent, []).append(utterance)
    with open(path, "w", encoding="utf-8") as handle:
        json.dump({"format": "nlukit-intents", "version": 1, "language": "en",
                   "intents": [{"name": name, "utterances": utterances} for name, utterances in intents.items()]}, handle)


def run_hwu64(args, folder):
    """HWU64 (../shared/data/hwu64, its 54 entity types): slot F1 on exact spans (trimmed to words), intent accuracy."""
    train, test = os.path.join(folder, "hwu64-train.json"), os.path.join(folder, "hwu64-test.json")
    training, development = hold_out(read_hwu64("train"), args.dev, args.dev_seed)
    write_examples(training, train)
    dev = None
    if development:
        dev = os.path.join(folder, "hwu64-dev.json")
        write_examples(development, dev)
    examples = read_hwu64("test")
    write_examples(examples, test)
    began = time.perf_counter()
    result = bench(args, [train], [test], dev)
    predicted_texts = {p["text"] for p in result["predictions"]}
    gold = [example for example in examples if example[1] in predicted_texts]
    gold_spans = [trimmed(text, spans) for _, text, spans in gold]
    report(f"HWU64 (train {result['trainingUtterances']}, test {len(gold)})", args, began, result,
           [(intent, text) for intent, text, _ in gold],
           lambda by_text: score(gold_spans, [{(e["entity"], e["start"], e["end"]) for e in by_text[text]["entities"]} for _, text, _ in gold]))


def run_atis(args, folder):
    """ATIS: both models on the papers' split, slot F1 by conlleval over words, intent accuracy by exact label."""
    train_file, test_file = atis.fetch()
    train, test = os.path.join(folder, "atis-train.json"), os.path.join(folder, "atis-test.json")
    training, development = hold_out(atis.read(train_file), args.dev, args.dev_seed)
    atis.write_dataset(training, train)
    dev = None
    if development:
        dev = os.path.join(folder, "atis-dev.json")
        atis.write_dataset(development, dev)
    examples = atis.read(test_file)
    atis.write_dataset(examples, test)
    began = time.perf_counter()
    result = bench(args, [train], [test], dev)
    predicted_texts = {p["text"] for p in result["predictions"]}
    gold = [(intent, words, tags) for intent, words, tags in examples if " ".join(words) in predicted_texts]
    def slots(by_text):
        predicted = [atis.predicted_word_tags(words, {(e["entity"], e["start"], e["end"]) for e in by_text[" ".join(words)]["entities"]})
                     for _, words, _ in gold]
        return atis.conlleval([tags for _, _, tags in gold], predicted)
    report(f"ATIS ({'train' if args.dev else 'train + dev'} {result['trainingUtterances']}, test {len(gold)})", args, began, result,
           [(intent, " ".join(words)) for intent, words, _ in gold], slots)


if __name__ == "__main__":
    main()
