#!/usr/bin/env bash
# Installs what is missing, builds the release `nlu`, and runs it on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build -c release --product nlu
nlu=".build/release/nlu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

echo "== nlu selfcheck"
"$nlu" selfcheck

# -- tokenization (issue 3) --

# -- question answering (issue 4) --

# -- intents (issue 5) --

# -- language model (issue 6) --

echo "quickstart: done"
