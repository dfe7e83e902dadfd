#!/usr/bin/env bash
# A longer run of the importer fuzzing harness (Tests/NLUIntentsTests/ImportFuzzTests.swift):
#   bash scripts/fuzz.sh [CASES_PER_FILE]   (default 20000; the unit suite runs 250)
# Every mutated export must import or fail with an error naming the file; a crash, a hang or raw
# Foundation error text fails the run.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/blas-env.sh
swift build --build-tests
NLUKIT_FUZZ_CASES="${1:-20000}" swift test --skip-build --filter ImportFuzzTests
