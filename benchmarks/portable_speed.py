#!/usr/bin/env python3
"""Every speed target of issues #13 and #44 on this machine, in one command, with a scorecard at the end.

Builds the release `nlu` and `nlu-bench` once, then runs, one after another (never side by side: each
times two threads against its peers):
  - benchmarks/kernels.py    packed GEMM vs OpenBLAS and % of the FMA peak, at every level the CPU runs
  - benchmarks/qa.py         BERT-base QA forward at 384 and 128 tokens vs ONNX Runtime / OpenVINO / PyTorch,
                             and the share of the level's FMA peak over the whole pass (#44)
  - benchmarks/int8.py       INT8 vs F32 per question through `nlu qa ask`, and vs ONNX Runtime's INT8 (#44)
  - benchmarks/lm.py         LSTM single-step latency and character-LSTM training vs PyTorch
  - benchmarks/tokenizer.py  `nlu tokenizer encode` vs the Rust `tokenizers` encode loop, process against process
  - benchmarks/memory.py     resident memory of `nlu serve --qa` and `nlu embed` vs ONNX Runtime's (#44)
  - benchmarks/server_batching.py  64 clients of `/v1/embeddings`, batching on vs off and vs infinity-emb (#44)
On a CPU with AVX-512, qa.py, int8.py and lm.py run a second time forced to `--level avx2` (both issues ask
for both levels); qa.py runs once more at the portable level (#44's share of the peak holds there too).
Each script's own output is shown as it runs; each figure with a target is also recorded
(benchmarks/scorecard.py) and the table of them, by issue, met or MISSED, is printed last, with the
machine it came from. Exit status 0 whether or not targets are met; 1 if a benchmark itself failed.

    python3 benchmarks/portable_speed.py [--quick] [--skip-build] [--only qa,int8,...] [--infinity PATH]

--quick: fewer rounds and iterations everywhere, for a first look (INT8's two rounds are too few to
trust). Needs the reference packages of scripts/reference-requirements.txt (torch, transformers,
onnxruntime, openvino, tokenizers), the real all-MiniLM-L6-v2 for int8.py's embedding half, memory.py and
the batching run (scripts/install-minilm.sh), and wrk (apt-get install wrk) for the batching run;
infinity-emb (in a venv of its own, see benchmarks/server_batching.py) is the batching run's peer when
--infinity names its `infinity_emb` command or one is on the PATH.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level
import scorecard

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BENCHMARKS = ("kernels", "qa", "int8", "lm", "tokenizer", "memory", "batching")


def levels_to_measure(best):
    """The CPU's best level, and AVX2 as well on an AVX-512 CPU (the issue's targets hold at both)."""
    return [best] + (["avx2"] if best == "avx512" else [])


def commands(quick, levels, infinity=None):
    """(name, argument list) for every run, in order."""
    runs = [("kernels", ["kernels.py", "--skip-build"] + (["--repeats", "3"] if quick else []))]
    for level in levels:
        forced = ["--level", level] if level != levels[0] else []
        runs.append(("qa", ["qa.py", "--skip-build"] + forced
                     + (["--iterations", "3", "--rounds", "2"] if quick else ["--iterations", "5", "--rounds", "3"])))
        runs.append(("int8", ["int8.py", "--skip-build"] + forced
                     + (["--rounds", "2", "--count", "400"] if quick else ["--rounds", "3", "--count", "1000"])))
        runs.append(("lm", ["lm.py"] + forced
                     + (["--steps", "10", "--latency-steps", "100", "--rounds", "2", "--train-rounds", "1"] if quick
                        else ["--steps", "30", "--train-rounds", "3"])))
    if "portable" not in levels:
        runs.append(("qa", ["qa.py", "--skip-build", "--level", "portable"]
                     + (["--iterations", "3", "--rounds", "2"] if quick else ["--iterations", "5", "--rounds", "3"])))
    runs.append(("tokenizer", ["tokenizer.py", "--skip-build"] + (["--megabytes", "1"] if quick else [])))
    runs.append(("memory", ["memory.py", "--skip-build"] + (["--questions", "20", "--lines", "20000"] if quick else [])))
    runs.append(("batching", ["server_batching.py", "--nlu", os.path.join(ROOT, ".build", "release", "nlu")]
                 + (["--infinity", infinity] if infinity else [])
                 + (["--duration", "10"] if quick else ["--duration", "20", "--rounds", "2"])))
    return runs


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer rounds and iterations everywhere")
    parser.add_argument("--skip-build", action="store_true", help="reuse .build/release's nlu and nlu-bench")
    parser.add_argument("--only", default=",".join(BENCHMARKS),
                        help=f"comma-separated subset of {', '.join(BENCHMARKS)}")
    parser.add_argument("--infinity", default=shutil.which("infinity_emb"),
                        help="infinity-emb's infinity_emb command, the batching run's peer (default: one on the PATH)")
    args = parser.parse_args()
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in only if name not in BENCHMARKS]
    if unknown:
        parser.error(f"--only: unknown benchmark {', '.join(unknown)}; expected some of {', '.join(BENCHMARKS)}")

    best = cpu_level.best_level()
    levels = levels_to_measure(best)
    flags = cpu_level.cpu_flags()
    extensions = [name for name in ("avx512f", "avx512_vnni", "avx_vnni", "avx2", "fma") if name in flags]
    machine = (f"{blas_env.cpu_name()}, {os.cpu_count()} CPUs, {os.uname().release}, flags {' '.join(extensions)}; "
               f"levels measured: {', '.join(levels)}; OPENBLAS_CORETYPE {blas_env.core_type() or '(OpenBLAS detects)'}")
    print(machine, flush=True)
    if not args.skip_build:
        for product in ("nlu", "nlu-bench"):
            subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True)

    with tempfile.TemporaryDirectory() as scratch:
        records_path = os.path.join(scratch, "scorecard.jsonl")
        environment = dict(os.environ, **{scorecard.VARIABLE: records_path})
        failures = []
        started = time.time()
        for name, command in commands(args.quick, levels, args.infinity):
            if name not in only:
                continue
            print(f"\n=== {name}: python3 benchmarks/{' '.join(command)}", flush=True)
            result = subprocess.run([sys.executable, os.path.join(HERE, command[0])] + command[1:], cwd=ROOT,
                                    env=environment)
            if result.returncode != 0:
                failures.append(f"{command[0]} {' '.join(command[1:])} (exit {result.returncode})")
        records = scorecard.read(records_path)

    print(f"\n=== scorecard of issues #13 and #44 ({time.time() - started:.0f} s{', quick' if args.quick else ''})")
    print(machine)
    for line in scorecard.table(records):
        print(line)
    met = sum(r["met"] for r in records)
    print(f"{met} of {len(records)} targets met")
    if failures:
        print("benchmarks that failed: " + "; ".join(failures))
        sys.exit(1)


if __name__ == "__main__":
    main()
