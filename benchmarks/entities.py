#!/usr/bin/env python3
"""Slot-filling benchmark: NLUKit's intents model (intent classifier + CRF slot tagger) vs python-crfsuite
trained on the same features, in one run, on the Snips benchmark.

Trains on ../shared/data/snips/train_*_full.json and tests on validate_*.json:
  - NLUKit: `nlu intents train` then `nlu intents predict --json` over the test utterances (release build);
  - python-crfsuite 0.9.12: the same token features (scripts/fixtures/slot_features.py, the Python port of
    SlotFeatureExtractor, with the gazetteer of the training mentions), the same BIO tags, c1/c2 and
    iteration cap.
Both are scored here by the same code: slot precision/recall/F1 on exact (type, start, end) spans, micro
(CoNLL-style), "all slots right" per utterance, and for NLUKit intent accuracy and sentence accuracy
(intent and all slots right). Also training seconds, per-utterance prediction latency and model size;
ratios NLUKit / crfsuite are printed.

    pip install python-crfsuite==0.9.12
    python3 benchmarks/entities.py [--skip-build] [--max-iterations 150] [--c1 0.1] [--c2 0.1] [--gazetteer-folds 5]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "fixtures"))
THREADS = "2"
for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "NLUKIT_THREADS"):
    os.environ[variable] = THREADS

import pycrfsuite  # noqa: E402  python-crfsuite==0.9.12
import slot_features as sf  # noqa: E402


def read_snips(paths):
    """[(intent, text, [(entity, start, end)])] from Snips benchmark files (cp1252 when not UTF-8)."""
    examples = []
    for path in sorted(paths):
        raw = open(path, "rb").read()
        try:
            content = raw.decode("utf-8")
        except UnicodeDecodeError:
            content = raw.decode("cp1252", errors="replace")
        for intent, items in sorted(json.loads(content).items()):
            for item in items:
                text, spans = "", []
                for part in item["data"]:
                    if "entity" in part and part["text"]:
                        spans.append((part["entity"], len(text), len(text) + len(part["text"])))
                    text += part["text"]
                examples.append((intent, text, spans))
    return examples


def trimmed(text, spans):
    """Spans shrunk to the tokens they cover (annotations often include a trailing space)."""
    tokens = sf.tokenize(text)
    result = set()
    for entity, start, end in spans:
        inside = [t for t in tokens if t[0] >= start and t[1] <= end]
        if inside:
            result.add((entity, inside[0][0], inside[-1][1]))
    return result


def score(gold, predicted):
    tp = sum(len(g & p) for g, p in zip(gold, predicted))
    n_pred = sum(len(p) for p in predicted)
    n_gold = sum(len(g) for g in gold)
    precision = tp / n_pred if n_pred else 0.0
    recall = tp / n_gold if n_gold else 0.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    exact = sum(g == p for g, p in zip(gold, predicted)) / len(gold)
    return precision, recall, f1, exact


def gazetteer_of(examples):
    """The dictionary features' phrases: every annotated mention, per entity."""
    phrases = {}
    for _, text, spans in examples:
        for entity, start, end in spans:
            phrases.setdefault(entity, set()).add(text[start:end])
    return sf.Gazetteer({k: sorted(v) for k, v in phrases.items()})


def crfsuite_run(train, test, args):
    # As SlotTagger: 0 folds, no mention dictionaries; 1, every mention; k, utterance i's training features see
    # the mentions of the other folds only (i mod k), the test features every mention.
    folds = args.gazetteer_folds
    gazetteer = gazetteer_of(train) if folds > 0 else None
    started = time.perf_counter()
    training_gazetteers = [gazetteer] if folds <= 1 else [
        gazetteer_of([e for i, e in enumerate(train) if i % folds != f]) for f in range(folds)]
    trainer = pycrfsuite.Trainer(verbose=False)
    for index, (_, text, spans) in enumerate(train):
        tokens = sf.tokenize(text)
        if not tokens:
            continue
        features = sf.token_features(tokens, training_gazetteers[index % len(training_gazetteers)])
        trainer.append(pycrfsuite.ItemSequence([{a: 1.0 for a in f} for f in features]),
                       sf.bio_tags(text, [(s, e, n) for n, s, e in spans], tokens))
    trainer.select("lbfgs")
    trainer.set_params({"c1": args.c1, "c2": args.c2, "max_iterations": args.max_iterations, "delta": args.delta,
                        "feature.possible_transitions": True})
    path = tempfile.mktemp(suffix=".crfsuite")
    trainer.train(path)
    seconds = time.perf_counter() - started
    tagger = pycrfsuite.Tagger()
    tagger.open(path)
    predicted, latencies = [], []
    for _, text, _ in test:
        began = time.perf_counter()
        tokens = sf.tokenize(text)
        tags = tagger.tag(pycrfsuite.ItemSequence([{a: 1.0 for a in f} for f in sf.token_features(tokens, gazetteer)])) if tokens else []
        spans, current = set(), None
        for i, tag in enumerate(tags + ["O"]):
            slot = tag[2:] if tag[:2] in ("B-", "I-") else None
            if current and not (tag.startswith("I-") and slot == current[0]):
                spans.add((current[0], tokens[current[1]][0], tokens[i - 1][1]))
                current = None
            if slot and current is None:
                current = (slot, i)
        latencies.append(time.perf_counter() - began)
        predicted.append(spans)
    size = os.path.getsize(path)
    os.unlink(path)
    return predicted, seconds, sorted(latencies)[len(latencies) // 2] * 1000, size


def nlukit_run(train_paths, test_paths, test, args, nlu, bench):
    work = tempfile.mkdtemp(prefix="nlukit-entities-")
    model = os.path.join(work, "snips.nlumodel")
    command = [nlu, "intents", "train", *train_paths, "-o", model, "--json", "--crf-c1", str(args.c1), "--crf-c2", str(args.c2),
               "--crf-iterations", str(args.max_iterations), "--crf-gazetteer-folds", str(args.gazetteer_folds)]
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit("nlu intents train failed:\n" + run.stderr[-3000:])
    summary = json.loads(run.stdout)
    lines = "\n".join(text.replace("\n", " ") for _, text, _ in test) + "\n"
    began = time.perf_counter()
    run = subprocess.run([nlu, "intents", "predict", "-m", model, "--json", "--top", "1"], input=lines, capture_output=True, text=True)
    elapsed = time.perf_counter() - began
    began = time.perf_counter()
    subprocess.run([nlu, "intents", "predict", "-m", model, "--json", "--top", "1", "warm up"], capture_output=True, text=True)
    load = time.perf_counter() - began
    if run.returncode != 0:
        sys.exit("nlu intents predict failed:\n" + run.stderr[-3000:])
    answers = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    # The predictor skips blank lines; every Snips test utterance has text.
    assert len(answers) == len(test), (len(answers), len(test))
    intents = [a["intent"] for a in answers]
    spans = [{(e["entity"], e["start"], e["end"]) for e in a["entities"]} for a in answers]
    size = sum(os.path.getsize(os.path.join(model, f)) for f in os.listdir(model))
    train_seconds_inside = summary.get("seconds", seconds)
    run = subprocess.run([bench, "entities", "-m", model, "--test", *test_paths], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("nlu-bench entities failed:\n" + run.stderr[-3000:])
    latency = json.loads(run.stdout)
    batch_ms = max(0.0, elapsed - load) / len(test) * 1000
    return intents, spans, seconds, train_seconds_inside, batch_ms, latency, size


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "snips"))
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--c1", type=float, default=0.1)
    parser.add_argument("--c2", type=float, default=0.1)
    parser.add_argument("--max-iterations", type=int, default=150)
    parser.add_argument("--delta", type=float, default=1e-4)
    parser.add_argument("--gazetteer-folds", type=int, default=5)
    args = parser.parse_args()
    train_paths = sorted(glob.glob(os.path.join(args.data, "train_*_full.json")))
    test_paths = sorted(glob.glob(os.path.join(args.data, "validate_*.json")))
    if not train_paths or not test_paths:
        sys.exit(f"no Snips files in {args.data}")
    train, test = read_snips(train_paths), read_snips(test_paths)
    if not args.skip_build:
        subprocess.run(["bash", "-c", "source scripts/blas-env.sh && swift build -c release --product nlu && swift build -c release --product nlu-bench"], cwd=ROOT, check=True)
    nlu = os.path.join(ROOT, ".build", "release", "nlu")
    bench = os.path.join(ROOT, ".build", "release", "nlu-bench")
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "unknown CPU")
    print(f"Snips benchmark: {len(train)} training utterances, {len(test)} test utterances; {cpu}, {THREADS} threads; "
          f"CRF c1={args.c1} c2={args.c2} at most {args.max_iterations} iterations, dictionary features from {args.gazetteer_folds} folds")
    gold = [trimmed(text, spans) for _, text, spans in test]

    ours_intents, ours_spans, ours_seconds, ours_inside, ours_batch, ours_latency, ours_size = nlukit_run(
        train_paths, test_paths, test, args, nlu, bench)
    p1, r1, f1, exact1 = score(gold, ours_spans)
    # NLUKit's figures first (crfsuite takes minutes more), on stderr so that stdout stays the table.
    print(f"NLUKit: slot F1 {f1:.4f}, training {ours_seconds:.1f} s, tag {ours_latency['tagLatencyP50Microseconds']:.0f} us, "
          f"model {ours_size / 1e6:.2f} MB; training python-crfsuite...", file=sys.stderr, flush=True)
    theirs_spans, theirs_seconds, theirs_latency, theirs_size = crfsuite_run(train, test, args)

    p2, r2, f2, exact2 = score(gold, theirs_spans)
    intent_accuracy = sum(a == b[0] for a, b in zip(ours_intents, test)) / len(test)
    sentence = sum(a == b[0] and g == s for a, b, g, s in zip(ours_intents, test, gold, ours_spans)) / len(test)
    print(f"{'':34}{'NLUKit':>12}{'crfsuite':>12}{'ratio':>9}")
    rows = [("slot precision", p1, p2), ("slot recall", r1, r2), ("slot F1 (exact span, micro)", f1, f2),
            ("utterances with all slots right", exact1, exact2)]
    for name, a, b in rows:
        print(f"{name:34}{a:12.4f}{b:12.4f}{a / b if b else float('nan'):9.3f}")
    print(f"{'intent accuracy':34}{intent_accuracy:12.4f}{'-':>12}")
    print(f"{'sentence accuracy (intent+slots)':34}{sentence:12.4f}{'-':>12}")
    print(f"{'training seconds':34}{ours_seconds:12.1f}{theirs_seconds:12.1f}{ours_seconds / theirs_seconds:9.3f}"
          f"   (NLUKit: intents + tagger, process; {ours_inside:.1f} s inside; crfsuite: tagger only, features included)")
    tag_ms = ours_latency["tagLatencyP50Microseconds"] / 1000
    print(f"{'tag ms per utterance (median)':34}{tag_ms:12.3f}{theirs_latency:12.3f}{tag_ms / theirs_latency:9.3f}"
          f"   (NLUKit: nlu-bench entities, tokens + features + Viterbi + marginals; crfsuite: features + tag)")
    print(f"{'predict ms per utterance (median)':34}{ours_latency['predictLatencyP50Microseconds'] / 1000:12.3f}{'-':>12}"
          f"   (NLUKit: intent + all entity extractors; CLI stdin batch minus load: {ours_batch:.3f} ms)")
    print(f"{'model size (MB)':34}{ours_size / 1e6:12.2f}{theirs_size / 1e6:12.2f}   (NLUKit: the whole intents model)")


if __name__ == "__main__":
    main()
