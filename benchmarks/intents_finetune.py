#!/usr/bin/env python3
"""Intent accuracy of a fine-tuned encoder beside today's bag of words and frozen sentence features.

Issue #39's accuracy check on HWU64 (64 intents, ../shared/data/hwu64, CC BY 4.0, read in place), CLINC150
(`--dataset clinc150 --data DIR`: github clinc/oos-eval, CC BY 3.0, data/data_full.json: its 150 in-scope intents,
15,000 training and 4,500 test utterances; the out-of-scope ones are left out, in-scope accuracy as the paper's;
`--clinc-oos` adds them, its 100 training ones as the out-of-scope label `oos` (the "none" class) and its 1,000 test
ones, and prints out-of-scope recall and AUROC beside the in-scope accuracy: the paper's "oos-train" setting)
or BANKING77 (`--dataset banking77 --data DIR`: github PolyAI-LDN/task-specific-datasets, CC BY 4.0,
banking_data/{train,test}.csv: 77 intents, 10,003 and 3,080 utterances). DIR is a checkout or a bare git
directory (read with `git show`, as the `fetch` tool leaves it); the utterances go to temporary CSV files, nothing
of them into the project. For each training set (the full training split, and N examples per intent drawn with a
fixed seed), it trains

  - the bag of words (`nlu intents train`),
  - the bag of words with frozen sentence embeddings (`--embeddings MODEL`),
  - the fine-tuned encoder with a softmax head (`--fine-tune MODEL --no-few-shot`),
  - few-shot training in SetFit's way (`--fine-tune MODEL --few-shot`: the encoder on contrastive pairs,
    then a logistic-regression head),

and scores each on the test split with `nlu intents evaluate --model M TEST --json`, printing accuracy,
macro-F1 and training time per run. The model is all-MiniLM-L6-v2 by default (scripts/install-minilm.sh puts
it in the Hugging Face cache). It runs the release `nlu` (`--nlu PATH`, default .build/release/nlu).

    python3 benchmarks/intents_finetune.py --shots 10 [--full] [--epochs 3] [--learning-rate R] [--head-learning-rate R] [--batch-size N] [--label-smoothing F]
        [--only fine-tune,few-shot] [--dataset clinc150 --data /work/.mirror/clinc+oos-eval/repo]

--epochs sets the fine-tuning epochs of both modes (few-shot: the contrastive stage's); --setfit-iterations
the few-shot pairs per utterance; --calibration-split F calibrates both fine-tuned modes on that held-out share,
--calibrate-on-val on CLINC150's validation split instead (`--calibration-file`: its 3,000 in-scope utterances, and
with --clinc-oos its 100 out-of-scope ones, as the paper chooses its threshold), the training set whole.
"""
import argparse
import csv
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))
import repository_files  # noqa: E402

DATA = os.path.join(ROOT, "..", "shared", "data", "hwu64")
# `nlu intents train --few-shot` refuses more utterances (its pairs grow as the square).
FEW_SHOT_LIMIT = 4096
# CLINC150's out-of-scope utterances, trained and scored as `--out-of-scope-label` (the "none" class).
OUT_OF_SCOPE = "oos"


def read_split(split):
    """(intent, text) pairs of one HWU64 split ("train", "test"): intent is scenario_intent, text the annotated
    utterance unmarked."""
    folder = os.path.join(DATA, split)
    rows = []
    for name in sorted(os.listdir(folder)):
        if not name.endswith(".csv"):
            continue
        with open(os.path.join(folder, name), newline="", encoding="utf-8") as handle:
            for row in csv.DictReader(handle, delimiter=";"):
                text = (row.get("answer_from_anno") or "").strip()
                if text:
                    rows.append((f"{row['scenario']}_{row['intent']}", text))
    return rows


def read_dataset(name, data, out_of_scope=False):
    """(train, test, validation) lists of (intent, text) pairs, validation None where the set has no such split;
    with `out_of_scope`, CLINC150's out-of-scope utterances as intent OUT_OF_SCOPE."""
    if name == "hwu64":
        return read_split("train"), read_split("test"), None
    if not data:
        sys.exit(f"--dataset {name} needs --data DIR (a checkout or git directory of "
                 f"{'clinc/oos-eval' if name == 'clinc150' else 'PolyAI-LDN/task-specific-datasets'})")
    if name == "clinc150":
        splits = json.loads(repository_files.read(data, "data/data_full.json"))
        def rows(split):
            extra = splits[f"oos_{split}"] if out_of_scope else []
            return [(intent, text) for text, intent in splits[split]] + [(OUT_OF_SCOPE, text) for text, _ in extra]
        return rows("train"), rows("test"), rows("val")
    def rows(split):
        return [(row["category"], row["text"].strip())
                for row in csv.DictReader(repository_files.read(data, f"banking_data/{split}.csv").splitlines())]
    return rows("train"), rows("test"), None


def write_csv(rows, path):
    with open(path, "w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["intent", "text"])
        writer.writerows(rows)


def few_shot(rows, shots, seed):
    by_intent = {}
    for intent, text in rows:
        by_intent.setdefault(intent, []).append(text)
    generator = random.Random(seed)
    chosen = []
    for intent in sorted(by_intent):
        texts = sorted(set(by_intent[intent]))
        generator.shuffle(texts)
        chosen += [(intent, text) for text in texts[:shots]]
    return chosen


def run(command):
    started = time.monotonic()
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"failed ({result.returncode}): {' '.join(command)}\n{result.stderr[-2000:]}")
    return result, time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build", "release", "nlu"))
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--shots", type=int, default=10, help="examples per intent of the few-shot set (0: none)")
    parser.add_argument("--full", action="store_true", help="also train on the whole training split")
    parser.add_argument("--epochs", type=int, default=None, help="fine-tuning epochs (default: nlu's)")
    parser.add_argument("--setfit-iterations", type=int, default=None, help="few-shot pairs per utterance (default: nlu's, 20 up to 6,400 pairs, fewer beyond)")
    parser.add_argument("--calibration-split", type=float, default=None, help="held-out share for calibration (default: none)")
    parser.add_argument("--calibrate-on-val", action="store_true", help="calibrate on CLINC150's validation split (--calibration-file)")
    parser.add_argument("--learning-rate", default=None, help="fine-tuning peak rate, both modes (default: nlu's)")
    parser.add_argument("--head-learning-rate", default=None, help="the softmax head's peak rate, fine-tune mode (default: nlu's)")
    parser.add_argument("--batch-size", type=int, default=None, help="fine-tuning batch size, both modes (default: nlu's)")
    parser.add_argument("--label-smoothing", default=None, help="the softmax head's label smoothing, fine-tune mode (default: nlu's, none)")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--intents", type=int, default=0, help="only the first N intents (by name) of both splits: a quick check")
    parser.add_argument("--only", default="bow,embeddings,fine-tune,few-shot")
    parser.add_argument("--dataset", choices=["hwu64", "clinc150", "banking77"], default="hwu64")
    parser.add_argument("--data", default=None, help="CLINC150's or BANKING77's repository: a checkout or a git directory")
    parser.add_argument("--clinc-oos", action="store_true", help="CLINC150 with its out-of-scope utterances (oos-train)")
    args = parser.parse_args()
    if not os.path.isfile(args.nlu):
        sys.exit(f"{args.nlu}: no release nlu (swift build -c release --product nlu, or --nlu PATH)")
    if args.clinc_oos and args.dataset != "clinc150":
        parser.error("--clinc-oos is CLINC150's")
    train, test, validation = read_dataset(args.dataset, args.data, args.clinc_oos)
    if args.calibrate_on_val and (validation is None or args.calibration_split):
        parser.error("--calibrate-on-val needs CLINC150 (the set with a validation split) and no --calibration-split")
    if args.intents > 0:
        kept = set(sorted({intent for intent, _ in train if intent != OUT_OF_SCOPE})[:args.intents]) | {OUT_OF_SCOPE}
        train, test = [r for r in train if r[0] in kept], [r for r in test if r[0] in kept]
        validation = validation and [r for r in validation if r[0] in kept]
    sets = []
    if args.shots > 0:
        sets.append((f"{args.shots}-shot", few_shot(train, args.shots, args.seed)))
    if args.full:
        sets.append(("full", train))
    kinds = args.only.split(",")
    if unknown := [k for k in kinds if k not in ("bow", "embeddings", "fine-tune", "few-shot")]:
        sys.exit(f"--only: unknown {', '.join(unknown)} (choose among bow, embeddings, fine-tune, few-shot)")
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; nlu {args.nlu}")
    print(f"{args.dataset}: {len(train)} training and {len(test)} test utterances, {len({i for i, _ in train})} intents")
    with tempfile.TemporaryDirectory(prefix=f"{args.dataset}-") as work:
        test_path = os.path.join(work, "test.csv")
        write_csv(test, test_path)
        validation_path = os.path.join(work, "validation.csv")
        if args.calibrate_on_val:
            write_csv(validation, validation_path)
        oos_columns = f" {'in-scope':>9} {'oos recall':>10} {'AUROC':>6}" if args.clinc_oos else ""
        print(f"{'set':>8} {'model':>11} {'utterances':>10} {'accuracy':>9} {'macro-F1':>9} {'train s':>8}{oos_columns}")
        out_of_scope = ["--out-of-scope-label", OUT_OF_SCOPE] if args.clinc_oos else []
        for name, rows in sets:
            train_path = os.path.join(work, f"{name}.csv")
            write_csv(rows, train_path)
            for kind in kinds:
                if kind == "few-shot" and len(rows) > FEW_SHOT_LIMIT:
                    print(f"{name:>8} {kind:>11} {len(rows):>10}   (over few-shot training's {FEW_SHOT_LIMIT} utterances: not run)")
                    continue
                model = os.path.join(work, f"{name}-{kind}.nlumodel")
                command = [args.nlu, "intents", "train", train_path, "-o", model] + out_of_scope
                if kind == "embeddings":
                    command += ["--embeddings", args.model]
                elif kind in ("fine-tune", "few-shot"):
                    command += ["--fine-tune", args.model, "--few-shot" if kind == "few-shot" else "--no-few-shot"]
                    if args.epochs:
                        command += ["--epochs", str(args.epochs)]
                    if args.learning_rate:
                        command += ["--learning-rate", args.learning_rate]
                    if args.batch_size:
                        command += ["--batch-size", str(args.batch_size)]
                    if kind == "fine-tune" and args.head_learning_rate:
                        command += ["--head-learning-rate", args.head_learning_rate]
                    if kind == "fine-tune" and args.label_smoothing:
                        command += ["--label-smoothing", args.label_smoothing]
                    if kind == "few-shot" and args.setfit_iterations:
                        command += ["--setfit-iterations", str(args.setfit_iterations)]
                    if args.calibration_split:
                        command += ["--calibration-split", str(args.calibration_split)]
                    if args.calibrate_on_val:
                        command += ["--calibration-file", validation_path]
                _, seconds = run(command)
                result, _ = run([args.nlu, "intents", "evaluate", "--model", model, test_path, "--json"] + out_of_scope)
                report = json.loads(result.stdout)
                oos = ""
                if args.clinc_oos:
                    oos = (f" {report['inScopeAccuracy'] * 100:>8.2f}% {report['outOfScopeRecall'] * 100:>9.2f}% "
                           f"{report.get('outOfScopeAUROC') or float('nan'):>6.3f}")
                print(f"{name:>8} {kind:>11} {len(rows):>10} {report['accuracy'] * 100:>8.2f}% "
                      f"{report['macroF1'] * 100:>8.2f}% {seconds:>8.1f}{oos}", flush=True)


if __name__ == "__main__":
    main()
