#!/usr/bin/env bash
# Runs the whole test suite: installs what is missing, then `swift test` (arguments go to it:
# `--filter NAME`). It builds in the quickstart's configuration (scripts/lib/build-config.sh), so
# after the quickstart only the test targets are compiled.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/blas-env.sh
source scripts/lib/build-config.sh
swift build "${nlukit_build_flags[@]}" --build-tests
# The C kernels against scalar references at every CPU level this machine runs, and the AVX-VNNI
# INT8 block through its exact AVX2 stand-in (the arm64 half: bash scripts/test-arm64-kernels.sh).
bash scripts/test-arm64-kernels.sh --native
# The PostgreSQL backend's tests need a server with pgvector: a throwaway one on loopback (unless
# NLUKIT_TEST_POSTGRES_URL names one). If it cannot start, the script says why and those tests skip.
if [ -z "${NLUKIT_TEST_POSTGRES_URL:-}" ]; then
  nlukit_pg_dir=$(mktemp -d)
  trap 'bash scripts/postgres-test-server.sh stop "$nlukit_pg_dir" || true; rm -rf "$nlukit_pg_dir"' EXIT
  if NLUKIT_TEST_POSTGRES_URL=$(bash scripts/postgres-test-server.sh start "$nlukit_pg_dir"); then
    export NLUKIT_TEST_POSTGRES_URL
    echo "PostgreSQL test server: $NLUKIT_TEST_POSTGRES_URL"
  else
    unset NLUKIT_TEST_POSTGRES_URL
    echo "PostgreSQL tests will be skipped: the test server did not start (reason above)" >&2
  fi
fi
swift test "${nlukit_build_flags[@]}" --skip-build "$@"
