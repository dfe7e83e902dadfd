#!/usr/bin/env python3
"""The packed GEMM alone, without a Swift build: compiles benchmarks/packed_gemm_harness.c with
Sources/CKernels as SwiftPM's release configuration compiles C targets (-O2, the same per-level target
attributes), then prints GFLOP/s and % of the level's FMA peak on BERT-base's four dense layers (with
their bias, GELU and residual epilogues), per thread count and row count. Each product is first
checked against a double-precision reference.

--candidate DIR times a second CKernels folder (a copy with a changed kernel, or a git worktree's
Sources/CKernels) in the same process, its rounds alternating with the committed kernel's: the way to
tell whether a kernel change is faster on a busy machine. Times are CPU time of the slowest thread,
so other processes' load costs rounds, not accuracy; the best round is the kernel's speed, the median
shows how busy the machine was.

    python3 benchmarks/packed_gemm_harness.py [--level avx2] [--threads 1,2] [--rows 128,384]
        [--rounds 9] [--milliseconds 40] [--copies 8] [--candidate DIR] [--cc clang]

Exit status 0; 1 if a product is wrong or the build fails; 2 for a bad argument or a level the CPU
cannot run.
"""
import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level

HERE = pathlib.Path(__file__).resolve().parent
KERNELS = HERE.parent / "Sources" / "CKernels"
LEVEL_NUMBERS = {"portable": 0, "avx2": 1, "avx512": 2}
# The committed kernel's sources the harness links: the packed GEMM, the FMA peak probe and the
# level detection (kernels.c).
SOURCES = ("packed_gemm.c", "fma_peak.c", "kernels.c")
RENAMED = ("nlukit_packed_gemm", "nlukit_pack", "nlukit_pack_rows", "nlukit_packed_size")


def number_list(text):
    try:
        values = [int(part) for part in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated whole numbers, got '{text}'")
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive numbers, got '{text}'")
    return values


def parse_arguments():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    cpu_level.add_argument(parser)
    parser.add_argument("--threads", type=number_list, default=[1, 2], help="thread counts (default 1,2)")
    parser.add_argument("--rows", type=number_list, default=[128, 384], help="rows M of every product (default 128,384)")
    parser.add_argument("--rounds", type=int, default=9, choices=range(1, 100), metavar="1..99",
                        help="timed rounds per kernel and shape (default 9)")
    parser.add_argument("--milliseconds", type=int, default=40, help="length of one round (default 40)")
    parser.add_argument("--copies", type=int, default=8, choices=range(1, 65), metavar="1..64",
                        help="packed copies of each weight used in turn, so that B comes from memory as in a "
                             "forward pass (default 8; 1: the same weights stay in cache)")
    parser.add_argument("--candidate", type=pathlib.Path, help="another CKernels folder to time beside the committed one")
    parser.add_argument("--cc", default=shutil.which("clang") or "cc", help="C compiler (default: clang on PATH)")
    arguments = parser.parse_args()
    if not 1 <= arguments.milliseconds <= 60000:
        parser.error(f"--milliseconds: expected 1..60000, got {arguments.milliseconds}")
    if arguments.candidate and not (arguments.candidate / "packed_gemm.c").is_file():
        parser.error(f"--candidate {arguments.candidate}: no packed_gemm.c there")
    return arguments


def compile_object(compiler, source, include, output, definitions=()):
    command = [compiler, "-O2", "-std=gnu11", "-I", str(include), *definitions, "-c", str(source), "-o", str(output)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"packed_gemm_harness: compiling {source} failed:\n{result.stderr}")
    return output


def build(arguments, folder):
    """The harness binary: the committed kernels, and the candidate's packed GEMM renamed candidate_*."""
    objects = [compile_object(arguments.cc, KERNELS / name, KERNELS / "include", folder / (name + ".o")) for name in SOURCES]
    objects.append(compile_object(arguments.cc, HERE / "packed_gemm_harness.c", KERNELS / "include", folder / "harness.o"))
    if arguments.candidate:
        renames = [f"-D{name}=candidate_{name[len('nlukit_'):]}" for name in RENAMED]
        objects.append(compile_object(arguments.cc, arguments.candidate / "packed_gemm.c", arguments.candidate / "include",
                                      folder / "candidate.o", renames))
    binary = folder / "packed_gemm_harness"
    result = subprocess.run([arguments.cc, "-o", str(binary), *map(str, objects), "-lm", "-lpthread"],
                            capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"packed_gemm_harness: linking failed:\n{result.stderr}")
    return binary


def main():
    level = cpu_level.from_arguments()
    arguments = parse_arguments()
    print(f"{cpu_level.describe(level)}; {blas_env.cpu_identity()}; compiler {arguments.cc} -O2")
    failed = False
    with tempfile.TemporaryDirectory(prefix="packed-gemm-harness-") as folder:
        binary = build(arguments, pathlib.Path(folder))
        for threads in arguments.threads:
            for rows in arguments.rows:
                print(f"load average {os.getloadavg()[0]:.2f}")
                sys.stdout.flush()
                result = subprocess.run([str(binary), str(LEVEL_NUMBERS[level]), str(threads), str(rows),
                                         str(arguments.rounds), str(arguments.milliseconds), str(arguments.copies)])
                if result.returncode == 2:
                    return 2
                failed = failed or result.returncode != 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
