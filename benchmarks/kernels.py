#!/usr/bin/env python3
"""Kernel benchmark: NLUKit (release `nlu-bench kernels`) against NumPy (GEMM, the same OpenBLAS
family) and PyTorch (element-wise kernels) on the same BERT-base shapes, in the same run.

Both sides run with the OPENBLAS_CORETYPE of scripts/blas-env.sh (override with --core-type, "" to leave it alone)
and the same thread count (default 2). Targets: GEMM >= 0.95x NumPy, element-wise >= 1.0x PyTorch;
our packed GEMM >= 1.1x OpenBLAS and >= 85 % of the FMA peak at every CPU level (issue #13), >= 95 % (issue #44),
printed per level.

On a busy machine elapsed times are noise; --clock cpu measures the CPU time of the calling
thread on both sides instead, with one thread (what each call costs, whatever else runs).

    python3 benchmarks/kernels.py [--threads 2] [--repeats 7] [--clock wall|cpu] [--json]
"""
import argparse
import json
import os
import pathlib
import statistics
import subprocess
import sys
import time

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level
import scorecard

ROOT = pathlib.Path(__file__).resolve().parents[1]


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--seconds", type=float, default=0.2, help="duration of one timed loop")
    parser.add_argument("--core-type", default=None,
                        help='OPENBLAS_CORETYPE for both sides ("" = unset; default: scripts/blas-env.sh\'s choice)')
    parser.add_argument("--clock", choices=["wall", "cpu"], default="wall",
                        help="wall: elapsed time; cpu: calling thread's CPU time (forces --threads 1)")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--json", action="store_true", help="print all figures as JSON instead of a table")
    args = parser.parse_args()
    if args.clock == "cpu":
        args.threads = 1
    return args


def configure_environment(args):
    # Must happen before numpy/torch load OpenBLAS, which reads these at load time.
    threads = str(args.threads)
    os.environ.update({"OPENBLAS_NUM_THREADS": threads, "NLUKIT_THREADS": threads, "OMP_NUM_THREADS": threads,
                       "MKL_NUM_THREADS": threads})
    if args.core_type is None:
        blas_env.configure()
    elif args.core_type:
        os.environ["OPENBLAS_CORETYPE"] = args.core_type
    else:
        os.environ.pop("OPENBLAS_CORETYPE", None)


def run_swift(args):
    if not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                       stdout=sys.stderr)
    output = subprocess.run([str(ROOT / ".build/release/nlu-bench"), "kernels", "--repeats", str(args.repeats),
                             "--seconds", str(args.seconds), "--clock", args.clock], cwd=ROOT, check=True, capture_output=True, text=True)
    return json.loads(output.stdout)


def measure(body, args):
    """Median seconds per call over `repeats` loops of about `seconds` each (as nlu-bench does)."""
    now = time.thread_time if args.clock == "cpu" else time.perf_counter
    for _ in range(3):
        body()
    start = now()
    body()
    probe = max(now() - start, 1e-7)
    iterations = max(1, int(args.seconds / probe))
    times = []
    for _ in range(args.repeats):
        start = now()
        for _ in range(iterations):
            body()
        times.append((now() - start) / iterations)
    return statistics.median(times)


def run_python(args):
    import numpy as np
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    gemm = []
    for m, k, n in [(384, 768, 768), (384, 768, 3072), (384, 3072, 768)]:
        a = rng.uniform(-1, 1, (m, k)).astype(np.float32)
        b = rng.uniform(-1, 1, (k, n)).astype(np.float32)
        numpy_time = measure(lambda: a @ b, args)
        ta, tb = torch.from_numpy(a), torch.from_numpy(b)
        torch_time = measure(lambda: ta @ tb, args)
        flops = 2 * m * n * k
        gemm.append({"m": m, "k": k, "n": n, "numpyGflops": flops / numpy_time / 1e9,
                     "torchGflops": flops / torch_time / 1e9})

    hidden = torch.from_numpy(rng.uniform(-1, 1, (384, 768)).astype(np.float32))
    scores = torch.from_numpy(rng.uniform(-1, 1, (12, 384, 384)).astype(np.float32))
    gamma = torch.from_numpy(rng.uniform(-1, 1, (768,)).astype(np.float32))
    beta = torch.from_numpy(rng.uniform(-1, 1, (768,)).astype(np.float32))
    cases = [
        ("softmax", hidden, lambda x: torch.softmax(x, dim=-1)),
        ("softmax", scores, lambda x: torch.softmax(x, dim=-1)),
        ("layerNorm", hidden, lambda x: F.layer_norm(x, (768,), gamma, beta, 1e-12)),
        ("gelu", hidden, lambda x: F.gelu(x)),
        ("geluTanh", hidden, lambda x: F.gelu(x, approximate="tanh")),
    ]
    elementwise = []
    with torch.inference_mode():
        for name, x, fn in cases:
            seconds = measure(lambda: fn(x), args)
            elementwise.append({"kernel": name, "shape": list(x.shape), "microseconds": seconds * 1e6,
                                "gigaElementsPerSecond": x.numel() / seconds / 1e9})
    config = np.show_config(mode="dicts") if hasattr(np, "show_config") else {}
    blas = config.get("Build Dependencies", {}).get("blas", {}) if isinstance(config, dict) else {}
    return {"numpy": np.__version__, "numpyBlas": f'{blas.get("name", "?")} {blas.get("version", "")}'.strip(),
            "torch": torch.__version__, "threads": torch.get_num_threads(), "gemm": gemm, "elementwise": elementwise}


def print_packed(swift):
    """Our packed GEMM at each CPU level beside that level's FMA peak and OpenBLAS (sgemm only, same run)."""
    peaks = {peak["level"]: peak["gflops"] for peak in swift.get("peaks", [])}
    print("FMA peak (independent multiply-add chains, all threads): "
          + ", ".join(f"{level} {gflops:.1f} GFLOP/s" for level, gflops in peaks.items()))
    print(f"{'packed GEMM (GFLOP/s)':<28}{'level':>9}{'NLUKit':>10}{'% peak':>8}{'OpenBLAS':>10}{'ratio':>8}")
    blas = {(g["m"], g["k"], g["n"]): g["blasGflops"] for g in swift["gemm"]}
    best_level = cpu_level.best_level()  # OpenBLAS runs the CPU's best kernels: a peer only at that level
    for row in swift.get("packed", []):
        shape = f"{row['m']}x{row['k']} . {row['k']}x{row['n']}"
        print(f"{shape:<28}{row['level']:>9}{row['gflops']:>10.1f}{row['percentOfPeak']:>7.0f}%"
              f"{blas[(row['m'], row['k'], row['n'])]:>10.1f}{row['ratioToOpenBLAS']:>7.2f}x")
        if row["level"] == best_level:
            scorecard.record("kernels", f"packed GEMM {shape} vs OpenBLAS", row["ratioToOpenBLAS"], ">=", 1.1,
                             level=row["level"])
        scorecard.record("kernels", f"packed GEMM {shape}, % of FMA peak", row["percentOfPeak"], ">=", 85,
                         level=row["level"], unit="%")
        scorecard.record("kernels", f"packed GEMM {shape}, % of FMA peak", row["percentOfPeak"], ">=", 95,
                         level=row["level"], unit="%", issue=44)
    print("(packed: PackedMatrix.multiply, B packed once as a model's weights are; OpenBLAS: sgemm only above)")
    for row in swift.get("int8", []):
        shape = f"{row['m']}x{row['k']} . {row['k']}x{row['n']}"
        print(f"{'INT8 ' + shape:<28}{row['level']:>9}{row['gops']:>10.1f} GOP/s, {row['ratioToF32']:.2f}x the F32 packed GEMM"
              + (" (7-bit weights)" if row.get("weightLimit") == 63 else ""))


def main():
    args = parse_arguments()
    configure_environment(args)
    swift = run_swift(args)
    python = run_python(args)
    if args.json:
        print(json.dumps({"nlukit": swift, "reference": python}, indent=1))
        return
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', '(unset)')}, {args.threads} threads on both sides, "
          f"{args.clock} clock, load average {load:.1f} on {os.cpu_count()} cores")
    print(f"NLUKit: {swift['blas']}, element-wise kernels {swift['kernels']}, {swift['threads']} threads; "
          f"CPU: {blas_env.cpu_name()}")
    print(f"NumPy {python['numpy']} ({python['numpyBlas']}), PyTorch {python['torch']} ({python['threads']} threads)")
    print()
    print(f"{'GEMM (GFLOP/s)':<28}{'NLUKit':>10}{'NumPy':>10}{'ratio':>8}{'PyTorch':>10}{'sgemm only':>12}")
    for ours, theirs in zip(swift["gemm"], python["gemm"]):
        shape = f"{ours['m']}x{ours['k']} . {ours['k']}x{ours['n']}"
        print(f"{shape:<28}{ours['gflops']:>10.1f}{theirs['numpyGflops']:>10.1f}"
              f"{ours['gflops'] / theirs['numpyGflops']:>7.2f}x{theirs['torchGflops']:>10.1f}{ours['blasGflops']:>12.1f}")
    print("(sgemm only: our OpenBLAS called directly into a preallocated buffer, without Kernels.matmul)")
    # 2·m·n·k FLOP per product on both sides: a figure above the machine's measured FMA peak means a
    # timing error or figures from another machine (docs/benchmarks.md once had 447-475 GFLOP/s that way).
    peak = max((p["gflops"] for p in swift.get("peaks", [])), default=0)
    fastest = max([g["gflops"] for g in swift["gemm"]] + [t["numpyGflops"] for t in python["gemm"]])
    if peak and fastest > 1.02 * peak:
        print(f"WARNING: {fastest:.1f} GFLOP/s is above this machine's measured FMA peak ({peak:.1f}): do not publish")
    print()
    print_packed(swift)
    print()
    print(f"{'element-wise (µs/call)':<28}{'NLUKit':>10}{'PyTorch':>10}{'ratio':>8}   (ratio = PyTorch time / NLUKit time)")
    for ours, theirs in zip(swift["elementwise"], python["elementwise"]):
        label = f"{ours['kernel']} {'x'.join(map(str, ours['shape']))}"
        print(f"{label:<28}{ours['microseconds']:>10.1f}{theirs['microseconds']:>10.1f}"
              f"{theirs['microseconds'] / ours['microseconds']:>7.2f}x")


if __name__ == "__main__":
    main()
