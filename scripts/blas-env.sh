# Sourced by the scripts: picks OpenBLAS kernels that match this CPU when the user has not.
# Debian 12's OpenBLAS 0.3.21 misdetects recent CPUs and runs 5-7x slower (DESIGN.md, "Known trap").
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -r /proc/cpuinfo ]; then
  flags=$(grep -m1 '^flags' /proc/cpuinfo || true)
  case "$flags" in
    *avx512f*avx512dq*avx512bw*avx512vl*|*avx512f*avx512dq*avx512cd*avx512bw*avx512vl*) export OPENBLAS_CORETYPE=SkylakeX ;;
    *avx2*) export OPENBLAS_CORETYPE=Haswell ;;
  esac
fi
