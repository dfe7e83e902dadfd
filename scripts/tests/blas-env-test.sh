#!/usr/bin/env bash
# Tests scripts/blas-env.sh, the only place that sets OpenBLAS's core, against the flags of other
# CPUs (NLUKIT_CPUINFO): SkylakeX only with AVX-512 F/DQ/BW/VL (else SIGILL), Haswell with AVX2,
# nothing below; a user's own OPENBLAS_CORETYPE is kept. Then the benchmarks' Python side
# (benchmarks/blas_env.py) gives the same answers, benchmarks/cpu_level.py picks levels and cores from
# the same flags, and no script sets the core itself.
# Run by the Swift suite (CLITests/BenchmarkEnvironmentTests); prints "N passed, N failed".
set -u
cd "$(dirname "$0")/../.."
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

check() {  # check NAME EXPECTED ACTUAL
  if [ "$2" = "$3" ]; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $1: expected '$2', got '$3'"; fi
}

# Flag lines as /proc/cpuinfo prints them (abridged to the relevant and neighbouring flags).
printf 'processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c bmi1 avx2 bmi2 avx512f avx512dq rdseed adx avx512ifma clflushopt avx512cd sha_ni avx512bw avx512vl xsaveopt avx512_bf16 avx512vbmi avx512_vnni\n' > "$work/zen4"
printf 'processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 fma sse4_1 sse4_2 avx f16c bmi1 avx2 bmi2 rdseed adx clflushopt sha_ni xsaveopt vaes vpclmulqdq\n' > "$work/zen3"
printf 'processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 fma avx f16c avx2 avx512f avx512pf avx512er avx512cd\n' > "$work/knl"   # AVX-512 F without DQ/BW/VL
printf 'processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx\n' > "$work/sandy"
printf 'processor\t: 0\nflags\t\t: fpu sse sse2 avx512vl avx512bw avx512dq avx2\n' > "$work/partial"   # names inside other names must not count

core() {  # core CPUINFO [PRESET]: what blas-env.sh exports
  env -u OPENBLAS_CORETYPE ${2:+OPENBLAS_CORETYPE=$2} NLUKIT_CPUINFO="$1" \
    bash -c 'source scripts/blas-env.sh; printf %s "${OPENBLAS_CORETYPE:-}"'
}

check "AVX-512 (Zen 4)" SkylakeX "$(core "$work/zen4")"
check "AVX2 only (Zen 3)" Haswell "$(core "$work/zen3")"
check "AVX-512 F without DQ/BW/VL" Haswell "$(core "$work/knl")"
check "no AVX2 (Sandy Bridge)" "" "$(core "$work/sandy")"
check "AVX-512 VL/BW/DQ without F" Haswell "$(core "$work/partial")"
check "the user's value is kept" Zen "$(core "$work/zen4" Zen)"
check "no cpuinfo" "" "$(core "$work/missing")"

if command -v python3 > /dev/null; then
  for cpu in zen4:SkylakeX zen3:Haswell sandy:; do
    actual=$(env -u OPENBLAS_CORETYPE NLUKIT_CPUINFO="$work/${cpu%%:*}" python3 benchmarks/blas_env.py)
    check "benchmarks/blas_env.py on ${cpu%%:*}" "${cpu#*:}" "$actual"
  done
  # benchmarks/cpu_level.py (--level of qa.py and lm.py): the best level of each flag set; a forced
  # lower level takes OpenBLAS's core from blas-env.sh for that level's flags; a level above the
  # CPU's is refused with exit status 2 before anything runs.
  level_py='import os, sys; sys.path.insert(0, "benchmarks"); import cpu_level'
  for cpu in zen4:avx512 zen3:avx2 knl:avx2 sandy:portable; do
    actual=$(NLUKIT_CPUINFO="$work/${cpu%%:*}" python3 -c "$level_py; print(cpu_level.best_level())")
    check "benchmarks/cpu_level.py best level on ${cpu%%:*}" "${cpu#*:}" "$actual"
  done
  actual=$(env -u OPENBLAS_CORETYPE -u NLUKIT_LEVEL_LIMITS_SET NLUKIT_CPUINFO="$work/zen4" python3 -c \
    "$level_py; sys.argv += ['--level', 'avx2']; cpu_level.from_arguments(); print(os.environ.get('OPENBLAS_CORETYPE'), os.environ['NLUKIT_CPU_LEVEL'])")
  check "--level avx2 on an AVX-512 CPU" "Haswell avx2" "$actual"
  NLUKIT_CPUINFO="$work/zen3" python3 -c "$level_py; sys.argv += ['--level', 'avx512']; cpu_level.from_arguments()" 2>/dev/null
  check "--level avx512 on an AVX2-only CPU exits 2" 2 "$?"
  # benchmarks/portable_speed.py runs qa, int8 and lm once more forced to avx2 on an AVX-512 CPU only, and qa
  # once forced to the portable level on every CPU (issue #44's share of the peak there).
  speed_py="$level_py; import portable_speed; runs = portable_speed.commands(False, portable_speed.levels_to_measure(cpu_level.best_level()))"
  forced='lambda level: [n for n, c in runs if "--level" in c and c[c.index("--level") + 1] == level]'
  for cpu in zen4:3 zen3:0; do
    actual=$(NLUKIT_CPUINFO="$work/${cpu%%:*}" python3 -c "$speed_py; print(len(($forced)('avx2')))")
    check "benchmarks/portable_speed.py runs forced to avx2 on ${cpu%%:*}" "${cpu#*:}" "$actual"
    actual=$(NLUKIT_CPUINFO="$work/${cpu%%:*}" python3 -c "$speed_py; print(($forced)('portable'))")
    check "benchmarks/portable_speed.py runs qa at the portable level on ${cpu%%:*}" "['qa']" "$actual"
  done
  # benchmarks/scorecard.py: records only with NLUKIT_SCORECARD set; "<=" and ">=" decide met or MISSED.
  card="$work/scorecard.jsonl"
  NLUKIT_SCORECARD="$card" python3 -c "$level_py; import scorecard
scorecard.record('qa', 'a', 0.85, '<=', 0.9); scorecard.record('int8', 'b', 1.7, '>=', 1.8); scorecard.record('kernels', 'c', 90, '>=', 85, unit='%')"
  python3 -c "$level_py; import scorecard; scorecard.record('qa', 'not recorded', 1, '<=', 0.9)"
  actual=$(python3 -c "$level_py; import scorecard; print(' '.join(l.split()[-1] for l in scorecard.table(scorecard.read('$card'))[1:]))")
  check "benchmarks/scorecard.py verdicts" "met MISSED met" "$actual"
fi

# No benchmark or script picks a core by itself (a literal SkylakeX is what crashed AVX2 machines).
core_names='SkylakeX|Haswell|Cooperlake|SapphireRapids|Zen|Sandybridge'
offenders=$(grep -rlE "[\"'](${core_names})[\"']|=(${core_names})\b" benchmarks scripts --include='*.py' --include='*.sh' \
  | grep -v -e '^scripts/blas-env.sh$' -e '^scripts/tests/' || true)
check "scripts that set OPENBLAS_CORETYPE themselves" "" "$offenders"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
