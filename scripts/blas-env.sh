# Sourced by the scripts and benchmarks (the one place that picks OpenBLAS's core): kernels that
# match this CPU's real flags when the user has not chosen. Debian 12's OpenBLAS 0.3.21 misdetects
# recent CPUs and runs 5-7x slower (DESIGN.md, "Known trap"); forcing SkylakeX on a CPU without
# AVX-512 dies with SIGILL, so SkylakeX only with all of F, DQ, BW and VL.
# NLUKIT_CPUINFO names another cpuinfo file (tests of this logic with other CPUs' flags).
nlukit_cpuinfo=${NLUKIT_CPUINFO:-/proc/cpuinfo}
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -r "$nlukit_cpuinfo" ]; then
  nlukit_flags=" $(grep -m1 '^flags' "$nlukit_cpuinfo" | cut -d: -f2- | tr '\t' ' ') "
  nlukit_has() { case "$nlukit_flags" in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
  if nlukit_has avx512f && nlukit_has avx512dq && nlukit_has avx512bw && nlukit_has avx512vl; then
    export OPENBLAS_CORETYPE=SkylakeX
  elif nlukit_has avx2; then
    export OPENBLAS_CORETYPE=Haswell
  fi
  unset -f nlukit_has
  unset nlukit_flags
fi
unset nlukit_cpuinfo
