"""The benchmarks' BLAS environment: OpenBLAS's core type comes only from scripts/blas-env.sh (the
CPU's real flags; SkylakeX only with AVX-512, so no SIGILL on AVX2-only CPUs), and the thread
counts of every library are set to the same value. Call before NumPy or PyTorch load OpenBLAS.

    import blas_env
    blas_env.configure(threads=2)   # sets OPENBLAS_CORETYPE (unless already set) and the thread counts
"""
import os
import pathlib
import platform
import subprocess

BLAS_ENV = pathlib.Path(__file__).resolve().parents[1] / "scripts" / "blas-env.sh"


def core_type(cpuinfo=None):
    """OPENBLAS_CORETYPE as scripts/blas-env.sh sets it in this environment ("" when it sets none);
    with `cpuinfo` (a file in /proc/cpuinfo's format), the one it picks for those flags."""
    environment = dict(os.environ, NLUKIT_CPUINFO=str(cpuinfo)) if cpuinfo else None
    result = subprocess.run(["bash", "-c", 'source "$1"; printf %s "${OPENBLAS_CORETYPE:-}"', "blas-env", str(BLAS_ENV)],
                            check=True, capture_output=True, text=True, env=environment)
    return result.stdout


def cpu_name():
    """The CPU's model name, for the machine line every benchmark prints (from NLUKIT_CPUINFO, a
    file in /proc/cpuinfo's format, when tests set it, as blas-env.sh reads it)."""
    try:
        with open(os.environ.get("NLUKIT_CPUINFO", "/proc/cpuinfo")) as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def cpu_identity():
    """'family F model M' from /proc/cpuinfo (or NLUKIT_CPUINFO), for the machine line: what tells
    one CPU generation from another when the model name is only 'AMD EPYC'."""
    fields = {}
    try:
        with open(os.environ.get("NLUKIT_CPUINFO", "/proc/cpuinfo")) as cpuinfo:
            for line in cpuinfo:
                key, _, value = line.partition(":")
                fields.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return f"family {fields.get('cpu family', '?')} model {fields.get('model', '?')}"


def configure(threads=None):
    """Sets OPENBLAS_CORETYPE from blas-env.sh (a user's own value is kept) and, when `threads` is
    given, every library's thread count; returns the core type in effect."""
    core = core_type()
    if core:
        os.environ["OPENBLAS_CORETYPE"] = core
    if threads is not None:
        for variable in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS", "NLUKIT_THREADS"):
            os.environ[variable] = str(threads)
    return core


if __name__ == "__main__":
    print(core_type())
