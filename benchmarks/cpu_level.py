"""One CPU level for a whole benchmark run: `--level avx512|avx2|portable` forces NLUKit's kernels
(NLUKIT_CPU_LEVEL) and, where a peer has a switch, the peer's instruction set too, so that an
AVX-512 machine can stand in for an AVX2-only one (issue #13). Read from sys.argv before any
library loads (they read these variables when they load).

    import cpu_level
    level = cpu_level.from_arguments()   # "avx2" for --level avx2; exits 2 if the CPU can't run it
    print(cpu_level.describe(level))

Peers' switches: OpenBLAS OPENBLAS_CORETYPE (NumPy; PyTorch's BLAS where it has no MKL), MKL
MKL_ENABLE_INSTRUCTIONS and oneDNN ONEDNN_MAX_CPU_ISA (PyTorch; OpenVINO's CPU plugin is built on
oneDNN, whether it honours the variable is not verified). ONNX Runtime's MLAS has no switch: it
always runs the CPU's best kernels, so a forced lower level is measured against an ONNX Runtime
that kept AVX-512 (stated in the output).
"""
import os
import sys
import tempfile

import blas_env

LEVELS = ("avx512", "avx2", "portable")
_REQUIRED_FLAGS = {"avx512": ("avx512f", "avx512dq", "avx512bw", "avx512vl"), "avx2": ("avx2", "fma"), "portable": ()}
# OpenBLAS's core for a level comes from scripts/blas-env.sh given only that level's flags (the one
# place that picks it: for the portable level it picks none and OpenBLAS detects the CPU itself).
_PEER_LIMITS = {
    "avx2": {"MKL_ENABLE_INSTRUCTIONS": "AVX2", "ONEDNN_MAX_CPU_ISA": "AVX2"},
    "portable": {"MKL_ENABLE_INSTRUCTIONS": "SSE4_2", "ONEDNN_MAX_CPU_ISA": "SSE41"},
}
CPUINFO = os.environ.get("NLUKIT_CPUINFO", "/proc/cpuinfo")  # another CPU's flags, for tests (as blas-env.sh)


def cpu_flags():
    try:
        with open(CPUINFO) as cpuinfo:
            for line in cpuinfo:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def best_level(flags=None):
    flags = cpu_flags() if flags is None else flags
    return next(level for level in LEVELS if all(flag in flags for flag in _REQUIRED_FLAGS[level]))


def from_arguments(argv=None):
    """The --level value (default: the CPU's best), with its environment set for every side.
    Exits with status 2 for an unknown level or one this CPU cannot run."""
    argv = sys.argv if argv is None else argv
    level = None
    for index, argument in enumerate(argv):
        if argument == "--level" and index + 1 < len(argv):
            level = argv[index + 1]
        elif argument.startswith("--level="):
            level = argument.split("=", 1)[1]
    best = best_level()
    if level is None:
        level = best
    elif level not in LEVELS:
        print(f"--level: expected one of {', '.join(LEVELS)}, got '{level}'", file=sys.stderr)
        sys.exit(2)
    elif LEVELS.index(level) < LEVELS.index(best):
        print(f"--level {level}: this CPU ({blas_env.cpu_name()}) runs at most {best}", file=sys.stderr)
        sys.exit(2)
    os.environ["NLUKIT_CPU_LEVEL"] = level
    if level != best and os.environ.get("NLUKIT_LEVEL_LIMITS_SET") != level:  # once: a re-exec keeps them
        os.environ.update(_PEER_LIMITS[level], NLUKIT_LEVEL_LIMITS_SET=level)
        with tempfile.NamedTemporaryFile("w", suffix=".cpuinfo") as flags:
            flags.write("flags\t\t: " + " ".join(("sse", "sse2") + _REQUIRED_FLAGS[level]) + "\n")
            flags.flush()
            os.environ.pop("OPENBLAS_CORETYPE", None)
            core = blas_env.core_type(flags.name)
        if core:
            os.environ["OPENBLAS_CORETYPE"] = core
    return level


def describe(level, onnx_runtime=False):
    """One line: the machine, the level and what each side runs at it (`onnx_runtime`: the run has
    ONNX Runtime, which cannot be limited)."""
    best = best_level()
    line = f"machine: {blas_env.cpu_name()}, {os.cpu_count()} CPUs (best level {best}); NLUKit level {level}"
    if level != best:
        line += (f"; peers limited where they can be: OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')}, "
                 f"MKL_ENABLE_INSTRUCTIONS={os.environ.get('MKL_ENABLE_INSTRUCTIONS')}, "
                 f"ONEDNN_MAX_CPU_ISA={os.environ.get('ONEDNN_MAX_CPU_ISA')}")
        if onnx_runtime:
            line += f"; ONNX Runtime has no switch and runs {best}"
    return line


def add_argument(parser):
    parser.add_argument("--level", choices=LEVELS, default=None,
                        help="CPU level for NLUKit (NLUKIT_CPU_LEVEL) and, where they can, the peers (default: the CPU's best)")
