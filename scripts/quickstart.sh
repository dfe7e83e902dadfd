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
echo "== nlu intents: import a Watson workspace, train, predict"
"$nlu" intents import Samples/intents/car-dashboard.json -o "$work/car.json"
"$nlu" intents train "$work/car.json" -o "$work/car.nlumodel"
"$nlu" intents predict --model "$work/car.nlumodel" "turn the radio on" "will it snow tonight" "tell me a joke"

# -- language model (issue 6) --

echo "quickstart: done"
