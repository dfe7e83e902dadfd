#!/usr/bin/env python3
"""Intent classification benchmark: NLUKit vs scikit-learn on the Snips benchmark, in one run.

Trains on ../shared/data/snips/train_*_full.json and tests on validate_*.json with
  - NLUKit (`nlu-bench intents`, release build),
  - scikit-learn TF-IDF + LogisticRegression,
  - scikit-learn TF-IDF + MLPClassifier with the same hidden sizes as NLUKit,
and prints accuracy, macro-F1, training seconds, single-utterance prediction latency p50/p99 and
model load time, with the ratios against scikit-learn.

    python3 benchmarks/intents.py [--hidden 256] [--skip-build]

Both sides run with the OPENBLAS_CORETYPE of scripts/blas-env.sh (SkylakeX with AVX-512, Haswell with AVX2) and 2 BLAS threads.
"""
import argparse
import glob
import json
import os
import pickle
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
THREADS = "2"
import blas_env  # noqa: E402  (benchmarks/, the script's own folder, is on the path)

if "NLUKIT_BENCH_CORETYPE" in os.environ:
    os.environ["OPENBLAS_CORETYPE"] = os.environ["NLUKIT_BENCH_CORETYPE"]
blas_env.configure(threads=THREADS)  # OPENBLAS_CORETYPE from scripts/blas-env.sh (the CPU's flags)

import numpy as np  # noqa: E402  (after the BLAS environment is set)
from sklearn.feature_extraction.text import TfidfVectorizer  # noqa: E402
from sklearn.linear_model import LogisticRegression  # noqa: E402
from sklearn.metrics import accuracy_score, f1_score  # noqa: E402
from sklearn.neural_network import MLPClassifier  # noqa: E402


def read_snips(paths):
    """(texts, labels) from Snips benchmark files (Latin-1 when not UTF-8, as NLUKit reads them)."""
    texts, labels = [], []
    for path in paths:
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
        for intent, examples in json.loads(text).items():
            for example in examples:
                texts.append("".join(part["text"] for part in example["data"]))
                labels.append(intent)
    return texts, labels


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def sklearn_run(name, make_model, train, test, passes=3):
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), sublinear_tf=True)
    start = time.perf_counter()
    x_train = vectorizer.fit_transform(train[0])
    model = make_model()
    model.fit(x_train, train[1])
    train_seconds = time.perf_counter() - start
    predicted = model.predict(vectorizer.transform(test[0]))
    latencies = []
    for _ in range(passes):
        for text in test[0]:
            begin = time.perf_counter()
            model.predict(vectorizer.transform([text]))
            latencies.append(time.perf_counter() - begin)
    with tempfile.NamedTemporaryFile(suffix=".pkl", delete=False) as handle:
        pickle.dump((vectorizer, model), handle)
        path = handle.name
    loads = []
    for _ in range(5):
        begin = time.perf_counter()
        with open(path, "rb") as handle:
            loaded_vectorizer, loaded_model = pickle.load(handle)
        loaded_model.predict(loaded_vectorizer.transform(["warm up"]))
        loads.append(time.perf_counter() - begin)
    os.unlink(path)
    return {
        "name": name,
        "accuracy": accuracy_score(test[1], predicted),
        "macroF1": f1_score(test[1], predicted, average="macro"),
        "trainSeconds": train_seconds,
        "latencyP50Microseconds": percentile(latencies, 0.5) * 1e6,
        "latencyP99Microseconds": percentile(latencies, 0.99) * 1e6,
        "loadMilliseconds": percentile(loads, 0.5) * 1e3,
    }


def snips_arguments(description):
    """A parser with --data (the Snips folder, ../shared/data/snips by default) and --skip-build."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    default_data = os.path.join(os.path.dirname(ROOT), "shared", "data", "snips")
    if not os.path.isdir(default_data):  # a git worktree one level deeper
        default_data = os.path.join(os.path.dirname(os.path.dirname(ROOT)), "shared", "data", "snips")
    parser.add_argument("--data", default=default_data, help="folder of the Snips benchmark files")
    parser.add_argument("--skip-build", action="store_true", help="use the existing release build")
    return parser


def snips_files(folder):
    """The training and test files of the Snips benchmark under `folder` (exits when there are none)."""
    train_files = sorted(glob.glob(os.path.join(folder, "train_*_full.json")))
    test_files = sorted(glob.glob(os.path.join(folder, "validate_*.json")))
    if not train_files or not test_files:
        sys.exit(f"no Snips files under {folder}")
    return train_files, test_files


def main():
    parser = snips_arguments(__doc__)
    parser.add_argument("--hidden", default="256", help="hidden sizes for NLUKit and MLPClassifier, e.g. 256 or 256,128")
    args = parser.parse_args()
    train_files, test_files = snips_files(args.data)

    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True)
    command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "intents", "--hidden", args.hidden,
               "--train", *train_files, "--test", *test_files]
    nlukit = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
    nlukit["name"] = "NLUKit"

    train, test = read_snips(train_files), read_snips(test_files)
    hidden = tuple(int(size) for size in args.hidden.split(","))
    results = [
        nlukit,
        sklearn_run("sklearn TF-IDF + LogisticRegression",
                    lambda: LogisticRegression(max_iter=1000), train, test),
        sklearn_run(f"sklearn TF-IDF + MLPClassifier{hidden}",
                    lambda: MLPClassifier(hidden_layer_sizes=hidden, early_stopping=True, random_state=0), train, test),
    ]
    print(f"Snips: {len(train[0])} training utterances, {len(test[0])} test utterances, 7 intents; "
          f"OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']}, {THREADS} threads, "
          f"load average {', '.join(f'{value:.1f}' for value in os.getloadavg())} on {os.cpu_count()} CPUs")
    header = f"{'':42} {'accuracy':>9} {'macro-F1':>9} {'train s':>8} {'p50 µs':>8} {'p99 µs':>8} {'load ms':>8}"
    print(header)
    for r in results:
        print(f"{r['name']:42} {r['accuracy']:9.4f} {r['macroF1']:9.4f} {r['trainSeconds']:8.2f} "
              f"{r['latencyP50Microseconds']:8.1f} {r['latencyP99Microseconds']:8.1f} {r['loadMilliseconds']:8.2f}")
    best = max(results[1:], key=lambda r: r["accuracy"])
    mlp = results[2]
    print()
    print(f"accuracy: NLUKit {nlukit['accuracy']:.4f} vs best sklearn {best['accuracy']:.4f} ({best['name']}): "
          f"{'OK' if nlukit['accuracy'] >= best['accuracy'] else 'BELOW'}")
    print(f"training: NLUKit {nlukit['trainSeconds']:.2f} s vs MLPClassifier {mlp['trainSeconds']:.2f} s "
          f"({mlp['trainSeconds'] / nlukit['trainSeconds']:.1f}× faster): {'OK' if nlukit['trainSeconds'] <= mlp['trainSeconds'] else 'SLOWER'}")
    print(f"latency p50: {nlukit['latencyP50Microseconds']:.1f} µs (target ≤ 100; sklearn LR "
          f"{results[1]['latencyP50Microseconds']:.1f} µs, {results[1]['latencyP50Microseconds'] / nlukit['latencyP50Microseconds']:.1f}×)")
    print(f"load: {nlukit['loadMilliseconds']:.2f} ms (target ≤ 50)")


if __name__ == "__main__":
    main()
