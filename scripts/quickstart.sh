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
echo "== nlu tokenize"
"$nlu" tokenize --vocab Tests/Fixtures/tokenizer/vocab-uncased.txt "Héllo, wörld! It's 3.5 km."
echo '{"question": "Who went to Paris?", "context": "Alice went to Paris on Monday with her friend Bob."}' \
    | "$nlu" tokenize --vocab Tests/Fixtures/tokenizer/vocab-uncased.txt --pair --max-length 16 --stride 2 --json

# -- question answering (issue 4) --

# -- intents (issue 5) --

# -- language model (issue 6) --

echo "quickstart: done"
