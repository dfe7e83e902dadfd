#!/usr/bin/env python3
"""Question-answering encoder benchmark: NLUKit vs PyTorch vs ONNX Runtime, same input, same run.

Builds a BERT-base-sized BertForQuestionAnswering with random weights (12 layers, hidden 768,
12 heads, intermediate 3072, vocab 30522) in a temporary directory (never committed), then times
one forward pass at sequence length 384 and 128, batch 1, 2 threads:
  - NLUKit: `nlu-bench qa` (release build), which also reports its peak resident memory
    after answering a question over a multi-window document with the same checkpoint;
  - PyTorch: torch.set_num_threads(2), inference_mode;
  - ONNX Runtime: the model exported to ONNX, intra_op_num_threads=2;
  - OpenVINO (when `openvino` is installed, pinned in scripts/reference-requirements.txt): the same
    ONNX file, CPU, F32, 2 threads, latency hint.
The ratio column is NLUKit's time over the faster of ONNX Runtime and OpenVINO (target <= 0.9).

    python3 benchmarks/qa.py [--level avx512|avx2|portable] [--iterations 10] [--rounds 3] [--threads 2]

One command per CPU level: --level forces NLUKit's kernels (NLUKIT_CPU_LEVEL) and limits the peers
where they have a switch (benchmarks/cpu_level.py says which); the default is the CPU's best.

OPENBLAS_CORETYPE from scripts/blas-env.sh (SkylakeX with AVX-512, Haswell with AVX2) is set for every side
before any library loads.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import warnings

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level
import scorecard

warnings.filterwarnings("ignore")  # the legacy ONNX exporter and tracer warnings are expected

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
# 2 threads per side is the benchmark; --threads N reruns it with another count (e.g. 1 on a busy machine).
THREADS = int(sys.argv[sys.argv.index("--threads") + 1]) if "--threads" in sys.argv else 2


def ensure_environment():
    """OpenBLAS reads these when it loads: re-run this script once with them set."""
    cpu_level.from_arguments()  # NLUKIT_CPU_LEVEL and the peers' limits, before blas_env reads OPENBLAS_CORETYPE
    wanted = {"OPENBLAS_NUM_THREADS": str(THREADS), "OMP_NUM_THREADS": str(THREADS), "NLUKIT_THREADS": str(THREADS)}
    core = blas_env.core_type()  # scripts/blas-env.sh: from the CPU's flags, or the user's own value
    if core:
        wanted["OPENBLAS_CORETYPE"] = core
    if any(os.environ.get(k) != v for k, v in wanted.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **wanted})


def synthetic_vocab():
    """30522 tokens in the bert-base-uncased layout: [PAD] 0, [UNK] 100, [CLS] 101, [SEP] 102, [MASK] 103."""
    tokens = ["[PAD]"] + [f"[unused{i}]" for i in range(99)] + ["[UNK]", "[CLS]", "[SEP]", "[MASK]"]
    characters = [chr(c) for c in range(33, 127)]
    tokens += characters + ["##" + c for c in characters if c.isalnum()]
    syllables = ["ka", "lo", "mi", "ne", "ru", "sa", "ti", "vo", "ze", "pa", "do", "fi", "gu", "he", "ja", "be"]
    words = ["the", "of", "and", "in", "to", "was", "who", "what", "when", "where", "fox", "dog", "river", "city"]
    for a in syllables:                      # 16 + 256 + 4096 + 65536 distinct words, enough to fill
        words.append(a)
        for b in syllables:
            words.append(a + b)
            for c in syllables:
                words.append(a + b + c)
                words += [a + b + c + d for d in syllables]
    seen = set(tokens)
    unique = [w for w in dict.fromkeys(words) if w not in seen]
    tokens += unique[: 30522 - len(tokens)]
    while len(tokens) < 30522:
        tokens.append(f"##x{len(tokens)}")
    return tokens


def build_model(directory):
    import torch
    from transformers import BertConfig, BertForQuestionAnswering
    torch.manual_seed(0)
    model = BertForQuestionAnswering(BertConfig()).eval()
    model.save_pretrained(directory, safe_serialization=True)
    with open(os.path.join(directory, "vocab.txt"), "w") as f:
        f.write("\n".join(synthetic_vocab()) + "\n")
    with open(os.path.join(directory, "tokenizer_config.json"), "w") as f:
        json.dump({"do_lower_case": True, "model_max_length": 512, "tokenizer_class": "BertTokenizer"}, f)
    return model


def input_ids(length):
    """Deterministic ids: [CLS] 14 question tokens [SEP] context ... [SEP]; types 0 then 1."""
    ids = [101] + [2000 + (i * 37) % 20000 for i in range(14)] + [102]
    ids += [1000 + (i * 7919) % 29000 for i in range(length - len(ids) - 1)] + [102]
    types = [0] * 16 + [1] * (length - 16)
    return ids, types


def export_onnx(model, path, length):
    """The QA model as ONNX (opset 17, dynamic batch and sequence), traced on one input of `length` tokens."""
    import torch
    ids, types = input_ids(length)
    sample = (torch.tensor([ids]), torch.ones(1, length, dtype=torch.long), torch.tensor([types]))
    with torch.no_grad():
        torch.onnx.export(model, sample, path, input_names=["input_ids", "attention_mask", "token_type_ids"],
                          output_names=["start_logits", "end_logits"], opset_version=17, dynamo=False,
                          dynamic_axes={k: {0: "batch", 1: "sequence"} for k in
                                        ["input_ids", "attention_mask", "token_type_ids"]})


def forward_flops(length, layers=12, hidden=768, intermediate=3072):
    """Multiply-add FLOPs (2 per multiply-add) of one BERT-base encoder pass over `length` tokens: per layer
    Q, K, V and the attention output (4 · 2·L·h²), the feed-forward (2 · 2·L·h·i) and attention's two
    products (2 · 2·L²·h). Layer norms, softmax, GELU and the QA head are left out: they are what the
    share of the peak has to absorb."""
    per_layer = 4 * 2 * length * hidden ** 2 + 2 * 2 * length * hidden * intermediate + 2 * 2 * length ** 2 * hidden
    return layers * per_layer


def fma_peak(level):
    """The FMA peak (GFLOP/s, all threads) of NLUKit's kernels at `level` ("best": the CPU's), from `nlu-bench
    kernels` (independent multiply-add chains on every thread): the yardstick of issue #44's share-of-peak targets."""
    command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "kernels", "--repeats", "3"]
    report = json.loads(subprocess.run(command + ([] if level == "best" else ["--levels", level]),
                                       check=True, capture_output=True, text=True).stdout)
    return report["peaks"][0]["gflops"]  # the highest level first: the one asked for, or the CPU's best


# Issue #44: the share of the measured FMA peak a whole QA pass must reach at each level.
PEAK_SHARE_TARGETS = {"avx512": 92.0, "avx2": 90.0, "portable": 85.0}


def time_it(function, iterations):
    function()  # warm-up
    function()
    samples = []
    for _ in range(iterations):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    samples.sort()
    return samples[len(samples) // 2], samples[0]


def main():
    ensure_environment()
    parser = argparse.ArgumentParser()
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--lengths", default="384,128")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    cpu_level.add_argument(parser)
    args = parser.parse_args()
    level = cpu_level.from_arguments()
    lengths = [int(x) for x in args.lengths.split(",")]

    import torch
    torch.set_num_threads(THREADS)
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory(prefix="nlukit-qa-bench-") as directory:
        model = build_model(directory)
        weight_mb = os.path.getsize(os.path.join(directory, "model.safetensors")) / 2**20

        def run_ours(answer):
            command = [os.path.join(ROOT, ".build", "release", "nlu-bench"), "qa", "--model", directory,
                       "--lengths", args.lengths, "--iterations", str(args.iterations)]
            return json.loads(subprocess.run(command + ([] if answer else ["--skip-answer"]),
                                             check=True, capture_output=True, text=True).stdout)

        ids, types = input_ids(lengths[-1])
        with torch.inference_mode():
            reference = model(input_ids=torch.tensor([ids]), token_type_ids=torch.tensor([types])).start_logits[0]

        import numpy as np
        import onnxruntime
        onnx_path = os.path.join(directory, "model.onnx")
        export_onnx(model, onnx_path, lengths[0])
        options = onnxruntime.SessionOptions()
        options.intra_op_num_threads = THREADS
        options.inter_op_num_threads = 1
        session = onnxruntime.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])

        try:
            import openvino
            core = openvino.Core()
            compiled = core.compile_model(core.read_model(onnx_path), "CPU", {
                "PERFORMANCE_HINT": "LATENCY", "INFERENCE_NUM_THREADS": THREADS, "INFERENCE_PRECISION_HINT": "f32"})
            openvino_version = openvino.__version__.split("-")[0]
        except ImportError:
            compiled, openvino_version = None, None
        if compiled is not None:
            # Limited to SSE4.1 (the portable level) OpenVINO's CPU plugin refuses some layers ("MVN node ...
            # bad combination"): it is then left out of the comparison, which says so.
            ids, types = input_ids(lengths[-1])
            trial = {"input_ids": [ids], "attention_mask": [[1] * lengths[-1]], "token_type_ids": [types]}
            try:
                compiled.create_infer_request().infer({k: np.array(v, dtype=np.int64) for k, v in trial.items()})
            except RuntimeError as error:
                print(f"OpenVINO {openvino_version} cannot run this model at this level, left out: "
                      f"{str(error).strip().splitlines()[-1]}")
                compiled, openvino_version = None, f"{openvino_version} (failed at this level)"

        def run_openvino(length):
            ids, types = input_ids(length)
            feed = {"input_ids": [ids], "attention_mask": [[1] * length], "token_type_ids": [types]}
            feed = {k: np.array(v, dtype=np.int64) for k, v in feed.items()}
            request = compiled.create_infer_request()
            return time_it(lambda: request.infer(feed), args.iterations)

        def run_torch(length):
            ids, types = input_ids(length)
            inputs = {"input_ids": torch.tensor([ids]), "token_type_ids": torch.tensor([types]),
                      "attention_mask": torch.ones(1, length, dtype=torch.long)}

            def run():
                with torch.inference_mode():
                    model(**inputs)
            return time_it(run, args.iterations)

        def run_onnx(length):
            ids, types = input_ids(length)
            feed = {"input_ids": [ids], "attention_mask": [[1] * length], "token_type_ids": [types]}
            feed = {k: np.array(v, dtype=np.int64) for k, v in feed.items()}
            return time_it(lambda: session.run(None, feed), args.iterations)

        # Interleaved rounds (ours, PyTorch, ONNX Runtime, per length): on a shared machine the load
        # changes from minute to minute, so each side keeps its best round.
        mine_rounds, torch_rounds, onnx_rounds, openvino_rounds = [], [], [], []
        peaks = []
        for round_index in range(args.rounds):
            # The peers' thread pools spin for a while after their last call (OpenMP, TBB): a second's pause
            # keeps them off the cores that our run and the peak probe then time.
            time.sleep(1)
            peaks.append(fma_peak(level or "best"))  # beside each round: the VM's speed drifts
            ours = run_ours(answer=round_index == args.rounds - 1)
            mine_rounds.append({length: ours["latencies"][str(length)] for length in lengths})
            torch_rounds.append({length: run_torch(length) for length in lengths})
            onnx_rounds.append({length: run_onnx(length) for length in lengths})
            if compiled is not None:
                openvino_rounds.append({length: run_openvino(length) for length in lengths})
        logit_difference = max(abs(a - b) for a, b in zip(ours["startLogits"], reference.tolist()))

    def best(rounds, length):
        return min(r[length][0] for r in rounds), min(r[length][1] for r in rounds)

    mine_times = {length: best(mine_rounds, length) for length in lengths}
    torch_times = {length: best(torch_rounds, length) for length in lengths}
    onnx_times = {length: best(onnx_rounds, length) for length in lengths}
    openvino_times = {length: best(openvino_rounds, length) for length in lengths} if openvino_rounds else None
    print(cpu_level.describe(level, onnx_runtime=True) + f"; NLUKit ran {ours.get('level', '?')}")
    print(f"BERT-base QA forward, batch 1, {THREADS} threads, {args.rounds} interleaved rounds of {args.iterations} "
          f"runs after 2 warm-ups, best round's median and best run "
          f"(OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')}; ours: {ours['blas']}; "
          f"OpenVINO {openvino_version or 'not installed (pip install openvino)'}; "
          f"load average {os.getloadavg()[0]:.1f})")
    print(f"{'sequence':>8} {'':>6} {'NLUKit':>10} {'PyTorch':>10} {'ONNX RT':>10} {'OpenVINO':>10} {'vs PyTorch':>11} "
          f"{'vs ONNX RT':>11} {'vs faster of ORT/OV':>20}")
    fastest_peer = {}  # per length, the faster of ONNX Runtime and OpenVINO (median)
    for length in lengths:
        for index, label in enumerate(["median", "best"]):
            mine = mine_times[length][index]
            theirs, onnx = torch_times[length][index], onnx_times[length][index]
            openvino_time = openvino_times[length][index] if openvino_times else None
            fastest = min(onnx, openvino_time) if openvino_time else onnx
            openvino_text = f"{openvino_time * 1000:>8.1f}ms" if openvino_time else f"{'-':>10}"
            print(f"{length:>8} {label:>6} {mine * 1000:>8.1f}ms {theirs * 1000:>8.1f}ms {onnx * 1000:>8.1f}ms {openvino_text} "
                  f"{mine / theirs:>11.2f} {mine / onnx:>11.2f} {mine / fastest:>19.2f}x")
            if label == "median":
                fastest_peer[length] = fastest
            # At the portable level the peers keep AVX-512 or AVX2 (ONNX Runtime has no switch, OpenVINO refuses
            # SSE4.1): the ratio is printed but is no measure of either issue's target there.
            if label == "median" and level != "portable":
                scorecard.record("qa", f"forward {length} tokens, time vs faster of ONNX Runtime/OpenVINO", mine / fastest,
                                 "<=", 0.9, level=ours.get("level"))
                scorecard.record("qa", f"forward {length} tokens vs faster of ONNX Runtime/OpenVINO", mine / fastest,
                                 "<=", 1.0, level=ours.get("level"), issue=44)
    print("target: <= 0.90x the faster of ONNX Runtime and OpenVINO at both lengths (issue #13); "
          "never behind it, <= 1.0x (issue #44)")
    # The highest peak of the rounds: a slow round's peak would flatter the share.
    peak = max(peaks)
    target = PEAK_SHARE_TARGETS.get(ours.get("level"), 90.0)
    print(f"FMA peak at {ours.get('level')}: {peak:.1f} GFLOP/s (highest of {len(peaks)} probes beside the rounds: "
          f"{', '.join(f'{p:.1f}' for p in peaks)})")
    for length in lengths:
        flops = forward_flops(length)
        floor = flops / (peak * 1e9)
        share = 100 * floor / mine_times[length][0]
        print(f"  {length} tokens: {flops / 1e9:.1f} GFLOP, floor at the peak {floor * 1000:.1f} ms; NLUKit (median) "
              f"{share:.1f} % of the peak, the faster peer {100 * floor / fastest_peer[length]:.1f} % "
              f"(target >= {target:g} %)")
        scorecard.record("qa", f"forward {length} tokens, % of the level's FMA peak", share, ">=", target,
                         level=ours.get("level"), unit="%", issue=44)
    print(f"start logits at sequence {lengths[-1]}: max |NLUKit - PyTorch| = {logit_difference:.2e}")
    resident = ours["peakResidentMB"]
    print(f"peak resident memory answering a {ours['answerWindows']}-window document: {resident:.0f} MB "
          f"(F32 weights {weight_mb:.0f} MB + 300 MB = {weight_mb + 300:.0f} MB budget) "
          f"{'OK' if resident <= weight_mb + 300 else 'OVER'}")
    print(f"100-page text (2,000 paragraphs) with BM25 passage search, 3 paragraphs read: "
          f"{ours['passageSearchSeconds']:.2f} s")


if __name__ == "__main__":
    main()
