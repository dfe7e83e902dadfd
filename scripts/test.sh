#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, then `swift test`.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build --build-tests
swift test --skip-build "$@"
