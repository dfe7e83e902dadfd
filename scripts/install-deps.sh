#!/usr/bin/env bash
# Installs the system libraries NLUKit builds against, only when missing: OpenBLAS + pkg-config
# (kernels) and SQLite's headers (GRDB, for NLUSearch's index files; FTS5 is in Debian's build).
# Idempotent: a second run changes nothing.
set -euo pipefail

if [ "$(uname -s)" = "Darwin" ]; then
  exit 0  # Apple platforms use Accelerate and the system SQLite.
fi

missing=()
pkg-config --exists openblas 2>/dev/null || missing+=(libopenblas-dev pkg-config)
[ -f /usr/include/sqlite3.h ] || missing+=(libsqlite3-dev)
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd="sudo"
fi
echo "Installing ${missing[*]} with apt-get..." >&2
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq "${missing[@]}" >/dev/null
pkg-config --exists openblas
[ -f /usr/include/sqlite3.h ]
