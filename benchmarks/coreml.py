#!/usr/bin/env python3
"""Core ML benchmark: a small BERT QA model as an .mlmodel run by NLUKit vs the same weights in PyTorch.

Writes, with coremltools' NeuralNetworkBuilder (the layer layout of scripts/fixtures/coreml.py, which the PyTorch
→ neural-network converter also emits: batchedMatMul, layerNormalization, gelu, softmaxND, transposes, reshapes),
a BERT QA encoder of 4 layers, hidden 256, 4 heads, intermediate 1024, vocabulary 1000, sequence 128, with random
weights, into a temporary directory (never committed). Then, with 2 threads per side:
  - NLUKit: `nlu-bench coreml` (release build): CoreMLModel loads the file and predicts;
  - PyTorch: the same computation on the same weights (torch.set_num_threads(2), inference_mode).
Both outputs are compared (largest difference printed) and the median times with their ratio.

    python3 benchmarks/coreml.py [--repeats 30] [--layers 4] [--hidden 256] [--length 128]

Pinned: coremltools==9.0 numpy==2.4.6 torch==2.15.0 (scripts/reference-requirements.txt).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import blas_env  # benchmarks/, the script's own folder, is on the path

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
THREADS = 2


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--layers", type=int, default=4)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--length", type=int, default=128)
    args = parser.parse_args()
    blas_env.configure(threads=THREADS)  # before NumPy and PyTorch load OpenBLAS

    import numpy as np
    import torch
    sys.path.insert(0, os.path.join(ROOT, "scripts", "fixtures"))
    import coreml as fixtures  # the fixture generator's BERT builder

    L, D, layers = args.length, args.hidden, args.layers
    heads, F, V = D // 64, 4 * D, 1000
    spec, P, _ = fixtures.bert_model(L=L, D=D, heads=heads, F=F, V=V, layers=layers)
    rng = np.random.default_rng(7)
    ids = rng.integers(0, V, size=(1, L))
    types = (np.arange(L) >= L // 2).astype(np.int64)[None, :]

    subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as directory:
        model_path = os.path.join(directory, "bert_qa.mlmodel")
        with open(model_path, "wb") as handle:
            handle.write(spec.SerializeToString())
        input_path = os.path.join(directory, "input.json")
        with open(input_path, "w") as handle:
            json.dump({"wordIDs": ids.tolist(), "wordTypes": types.tolist()}, handle)
        command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "coreml", "--model", model_path,
                   "--input", input_path, "--repeats", str(args.repeats)]
        swift = json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)

    # PyTorch: the same ND computation on the same float32 weights.
    torch.set_num_threads(THREADS)
    W = {k: torch.from_numpy(v.astype(np.float32)) for k, v in P.items()}
    dh = D // heads
    scale = float(np.float32(1 / np.sqrt(dh)))
    ln = torch.nn.functional.layer_norm

    def forward(ids_t, types_t):
        h = W["word"][ids_t[0]] + W["type"][types_t[0]] + W["pos"][0]
        h = ln(h, (D,), W["emb_g"] + 1, W["emb_b"], 1e-12)
        for i in range(layers):
            p = f"l{i}_"
            q, k, v = (torch.addmm(W[p + s + "_b"], h, W[p + s + "_w"]).view(L, heads, dh).transpose(0, 1) for s in "qkv")
            probs = torch.softmax(q @ k.transpose(1, 2) * scale, dim=-1)
            context = (probs @ v).transpose(0, 1).reshape(L, D)
            a = ln(torch.addmm(W[p + "o_b"], context, W[p + "o_w"]) + h, (D,), W[p + "g1"] + 1, W[p + "b1"], 1e-12)
            f = torch.addmm(W[p + "ff2_b"], torch.nn.functional.gelu(torch.addmm(W[p + "ff1_b"], a, W[p + "ff1_w"])), W[p + "ff2_w"])
            h = ln(f + a, (D,), W[p + "g2"] + 1, W[p + "b2"], 1e-12)
        logits = torch.addmm(W["qa_b"], h, W["qa_w"])
        return logits[:, 0], logits[:, 1]

    ids_t, types_t = torch.from_numpy(ids), torch.from_numpy(types)
    with torch.inference_mode():
        start, end = forward(ids_t, types_t)
        times = []
        for _ in range(args.repeats):
            t0 = time.perf_counter()
            forward(ids_t, types_t)
            times.append((time.perf_counter() - t0) * 1e3)
    times.sort()
    torch_median = times[len(times) // 2]

    ours = swift["result"]["outputs"]
    difference = max(np.abs(np.array(ours["startLogits"][0]) - start.numpy()).max(),
                     np.abs(np.array(ours["endLogits"][0]) - end.numpy()).max())
    print(f"machine: {blas_env.cpu_name()}, {THREADS} threads, OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '')}")
    print(f"model: BERT QA .mlmodel, {layers} layers, hidden {D}, {heads} heads, intermediate {F}, sequence {L}")
    print(f"largest |NLUKit - PyTorch| logit difference: {difference:.2e}")
    print(f"NLUKit CoreMLModel: load {swift['load_seconds'] * 1e3:.1f} ms, predict median {swift['median_ms']:.2f} ms "
          f"(min {swift['min_ms']:.2f})")
    print(f"PyTorch {torch.__version__}: predict median {torch_median:.2f} ms (min {times[0]:.2f})")
    print(f"ratio NLUKit / PyTorch: {swift['median_ms'] / torch_median:.2f}")


if __name__ == "__main__":
    main()
