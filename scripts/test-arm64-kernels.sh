#!/usr/bin/env bash
# Builds NLUKit's C kernels (Sources/CKernels, every file) with scripts/tests/kernels-reference-test.c
# for this machine and for arm64 (clang --target=aarch64-linux-gnu, static), and runs both: natively
# at every CPU level the CPU has, and under qemu-aarch64, where the portable level is the NEON
# GEMM block plus the compiler's NEON code for the vector-extension kernels. Each checks the
# kernels against scalar double-precision references (tolerances in the test file).
#
# Proves: the C kernels compile for arm64 with clang, and give results within tolerance there, with
# and without the dot-product extension (the SDOT INT8 block).
# Does not prove: anything about speed (qemu emulates), the Swift package's build for macOS or
# iOS (no Apple SDK here), or Accelerate (BLAS.swift's `#if canImport(Accelerate)` path).
#
# On x86-64 it also runs the checks with NLUKIT_EMULATE_AVX_VNNI: the AVX-VNNI INT8 block (Intel
# client cores since Alder Lake, Zen 5) with its instruction replaced by an exact AVX2 sum, so its
# accumulation, offset correction and dispatch are checked on CPUs without AVX-VNNI; and with
# NLUKIT_TEST_WIDE_BLOCKS: the baseline level with the AVX-512 level's F32 row blocks (8, 4, 2, 1).
# Natively it also replays the thread pool's race between back-to-back jobs step by step
# (scripts/tests/thread-pool-race-test.c, with the pool's NLUKIT_TEST_POOL_HOOKS compiled in).
#
#     bash scripts/test-arm64-kernels.sh           # ~20 s; installs qemu-user and the arm64 cross files if missing
#     bash scripts/test-arm64-kernels.sh --native  # this machine only (what scripts/test.sh runs): ~5 s
set -euo pipefail
cd "$(dirname "$0")/.."
native_only=0
[ "${1:-}" = "--native" ] && native_only=1
sources=(Sources/CKernels/*.c scripts/tests/kernels-reference-test.c)
flags=(-O2 -Wall -I Sources/CKernels/include)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT

echo "== native ($(uname -m))"
clang "${flags[@]}" -o "$out/native" "${sources[@]}" -lm -lpthread
"$out/native"
echo "== native, the thread pool's race between jobs replayed"
clang "${flags[@]}" -DNLUKIT_TEST_POOL_HOOKS -o "$out/pool-race" Sources/CKernels/thread_pool.c scripts/tests/thread-pool-race-test.c -lpthread
"$out/pool-race"
if [ "$(uname -m)" = "x86_64" ]; then
  echo "== native, AVX-VNNI block emulated"
  clang "${flags[@]}" -DNLUKIT_EMULATE_AVX_VNNI -o "$out/avx-vnni" "${sources[@]}" -lm -lpthread
  "$out/avx-vnni"
  echo "== native, the AVX-512 level's row blocks at the baseline level"
  clang "${flags[@]}" -DNLUKIT_TEST_WIDE_BLOCKS -o "$out/wide" "${sources[@]}" -lm -lpthread
  "$out/wide"
fi
[ "$native_only" = 1 ] && exit 0

missing=()
command -v qemu-aarch64 >/dev/null || missing+=(qemu-user)
[ -d /usr/lib/gcc-cross/aarch64-linux-gnu ] || missing+=(gcc-aarch64-linux-gnu)
[ -f /usr/aarch64-linux-gnu/include/stdio.h ] || missing+=(libc6-dev-arm64-cross)
if [ ${#missing[@]} -gt 0 ]; then
  sudo_cmd=""
  [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
  echo "Installing ${missing[*]} with apt-get..." >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq
  $sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
fi

echo "== arm64 under qemu-aarch64"
clang --target=aarch64-linux-gnu --gcc-toolchain=/usr -static "${flags[@]}" -o "$out/arm64" "${sources[@]}" -lm -lpthread
# The NEON GEMM block must be what ran: its lane FMAs are in the binary.
lanes=$(llvm-objdump -d "$out/arm64" 2>/dev/null | grep -c 'fmla.*\.s\[' || aarch64-linux-gnu-objdump -d "$out/arm64" | grep -c 'fmla.*\.s\[')
[ "$lanes" -ge 64 ] || { echo "the arm64 build has $lanes lane FMAs: the NEON block was not compiled" >&2; exit 1; }
# The SDOT INT8 block too; then the checks again on a core without the dot-product extension
# (Cortex-A57), where the INT8 GEMM must take the plain loops.
dots=$(llvm-objdump -d --mattr=+dotprod "$out/arm64" 2>/dev/null | grep -cP '\tsdot\t' || aarch64-linux-gnu-objdump -d "$out/arm64" | grep -cP '\tsdot\t')
[ "$dots" -ge 8 ] || { echo "the arm64 build has $dots SDOT instructions: the dot-product block was not compiled" >&2; exit 1; }
qemu-aarch64 -cpu max "$out/arm64"
echo "== arm64 under qemu-aarch64, Cortex-A57 (no dot product)"
qemu-aarch64 -cpu cortex-a57 "$out/arm64"
