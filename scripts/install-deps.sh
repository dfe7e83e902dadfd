#!/usr/bin/env bash
# Installs the system libraries NLUKit builds against (OpenBLAS + pkg-config), only when missing.
# Idempotent: a second run changes nothing.
set -euo pipefail

if pkg-config --exists openblas 2>/dev/null; then
  exit 0
fi

if [ "$(uname -s)" = "Darwin" ]; then
  exit 0  # Apple platforms use Accelerate.
fi

sudo_cmd=""
if [ "$(id -u)" -ne 0 ]; then
  sudo_cmd="sudo"
fi
echo "Installing OpenBLAS and pkg-config with apt-get..." >&2
export DEBIAN_FRONTEND=noninteractive
$sudo_cmd apt-get update -qq
$sudo_cmd apt-get install -y -qq libopenblas-dev pkg-config >/dev/null
pkg-config --exists openblas
