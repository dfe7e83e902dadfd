#!/usr/bin/env bash
# A longer run of the fuzz harness (docs/reliability.md, "The fuzz harness"): every reader's fuzz test
# with more cases, and every number option of every subcommand with every extreme value.
#   bash scripts/fuzz.sh [CASES_PER_INPUT [SEED]]   (default 20000; the unit suite runs 12-400)
# SEED (a positive integer) draws other cases than the unit suite's and earlier runs' (NLUKIT_FUZZ_SEED);
# a finding names its case number, and the same CASES and SEED repeat it.
# A crash, a hang, an error that does not name its input or raw Foundation text fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/blas-env.sh
swift build --build-tests
suites="ImportFuzzTests|ManifestFuzzTests|SafeTensorsFuzzTests|CheckpointFuzzTests|ModelFileFuzzTests|IndexFileFuzzTests"
suites+="|RequestBodyFuzzTests|CommandLineFuzzTests"
NLUKIT_FUZZ_CASES="${1:-20000}" NLUKIT_FUZZ_SEED="${2:-0}" swift test --skip-build --filter "$suites"
