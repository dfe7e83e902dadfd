#!/usr/bin/env bash
# Load benchmark of `nlu serve` on loopback with wrk (Debian package `wrk`):
#   POST /model/parse with the car-dashboard sample model, 64 connections, 2 wrk threads;
#   prints requests/s, latency percentiles, errors, and the ratio to the targets (>= 5,000 req/s,
#   p99 < 20 ms, zero errors); then a memory soak (RSS sampled while load runs).
# Rasa's own server is compared in the same run with --rasa: rasa==3.6.21 (the last 3.6; it needs
# Python 3.8-3.10) is installed into $RASA_VENV (default .venv-rasa) with $RASA_PYTHON (default: python3.10), trained on the
# same car-dashboard intents (DIET, Rasa's default classifier, 50 epochs) and loaded with wrk the same way.
#
# Usage: bash benchmarks/server.sh [--duration S] [--soak S] [--connections N] [--rasa]
# Needs: wrk (apt-get install wrk). Release build of nlu (built here).
set -euo pipefail
cd "$(dirname "$0")/.."

duration=20; soak=300; connections=64; rasa=0
while [ $# -gt 0 ]; do
  case "$1" in
    --rasa) rasa=1; shift ;;
    --duration) duration="$2"; shift 2 ;;
    --soak) soak="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    *) echo "usage: $0 [--duration S] [--soak S] [--connections N] [--rasa]" >&2; exit 2 ;;
  esac
done
command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build -c release --product nlu >&2
nlu=".build/release/nlu"
work=$(mktemp -d)
server_pid=""; rasa_pid=""
cleanup() {
  [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null
  [ -n "$rasa_pid" ] && kill "$rasa_pid" 2>/dev/null
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

"$nlu" intents import Samples/intents/car-dashboard.json -o "$work/car.json" >/dev/null
"$nlu" intents train "$work/car.json" -o "$work/car.nlumodel" >/dev/null 2>&1

# A free loopback port.
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$nlu" serve --intents "$work/car.nlumodel" --port "$port" --log-level warning 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do
  curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
  sleep 0.1
done
curl -sf "http://127.0.0.1:$port/health" >/dev/null || { cat "$work/server.log" >&2; exit 1; }

cat > "$work/parse.lua" <<'LUA'
-- POST /model/parse with a rotating set of car-dashboard utterances.
local texts = {"turn the radio on", "will it snow tonight", "turn on the wipers", "what is the weather like",
               "switch off the lights", "play some music", "tell me a joke", "how far is the next gas station"}
local i = 0
request = function()
  i = i % #texts + 1
  return wrk.format("POST", "/model/parse", {["Content-Type"] = "application/json"}, '{"text": "' .. texts[i] .. '"}')
end
LUA

cpu=$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')
echo "machine: $cpu, $(nproc) cores; nlu serve --workers default ($(nproc)); wrk -t2 -c$connections"
echo "parse sample: $(curl -s -X POST "http://127.0.0.1:$port/model/parse" -d '{"text": "turn the radio on"}' | cut -c1-120)..."

# Warm-up, then the measured run.
wrk -t2 -c"$connections" -d3s -s "$work/parse.lua" "http://127.0.0.1:$port" >/dev/null
wrk -t2 -c"$connections" -d"${duration}s" --latency -s "$work/parse.lua" "http://127.0.0.1:$port" | tee "$work/wrk.txt"

summarize() {  # summarize NAME WRK_OUTPUT -> one line; prints req/s to $work/NAME.rps
python3 - "$1" "$2" "$work/$1.rps" <<'PY'
import re, sys
name, text = sys.argv[1], open(sys.argv[2]).read()
rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))
def ms(label):
    m = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % label, text, re.M)
    value, unit = float(m.group(1)), m.group(2)
    return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value
errors = 0
m = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
if m: errors += sum(int(x) for x in m.groups())
m = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
if m: errors += int(m.group(1))
p50, p99 = ms("50"), ms("99")
print(f"{name} /model/parse: {rps:,.0f} req/s (target 5,000: {rps/5000:.2f}x), p50 {p50:.2f} ms, "
      f"p99 {p99:.2f} ms (target < 20 ms), errors {errors}")
open(sys.argv[3], "w").write(str(rps))
PY
}
summarize nlukit "$work/wrk.txt"

if [ "$rasa" = 1 ]; then
  rasa_python=${RASA_PYTHON:-python3.10}; venv=${RASA_VENV:-$PWD/.venv-rasa}
  if [ ! -x "$venv/bin/rasa" ]; then
    "$rasa_python" -m venv "$venv" && "$venv/bin/pip" install -q "rasa==3.6.21" >&2 \
      || { echo "rasa: skipped — rasa==3.6.21 did not install with $rasa_python"; rasa=0; }
  fi
fi
if [ "$rasa" = 1 ]; then
  # The same intents in Rasa's YAML; DIET on word and character n-grams (Rasa's default recipe).
  python3 - "$work/car.json" "$work/rasa-nlu.yml" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))
with open(sys.argv[2], "w") as out:
    out.write('version: "3.1"\nnlu:\n')
    for intent in data["intents"]:
        out.write(f"- intent: {intent['name']}\n  examples: |\n")
        for u in intent["utterances"]:
            out.write("    - " + u["text"].replace("\n", " ") + "\n")
PY
  cat > "$work/rasa-config.yml" <<'YML'
recipe: default.v1
language: en
assistant_id: nlukit-benchmark
pipeline:
  - name: WhitespaceTokenizer
  - name: CountVectorsFeaturizer
  - name: CountVectorsFeaturizer
    analyzer: char_wb
    min_ngram: 1
    max_ngram: 4
  - name: DIETClassifier
    epochs: 50
    entity_recognition: false
policies: []
YML
  echo "rasa: training DIET on the same intents..." >&2
  (cd "$work" && "$venv/bin/rasa" train nlu --config rasa-config.yml --nlu rasa-nlu.yml --out rasa-models >/dev/null 2>&1)
  rasa_port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  "$venv/bin/rasa" run --enable-api -m "$work/rasa-models" --port "$rasa_port" -i 127.0.0.1 >"$work/rasa.log" 2>&1 &
  rasa_pid=$!
  for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$rasa_port/" >/dev/null 2>&1 && break
    sleep 1
  done
  echo "rasa sample: $(curl -s -X POST "http://127.0.0.1:$rasa_port/model/parse" -d '{"text": "turn the radio on"}' | cut -c1-120)..."
  wrk -t2 -c"$connections" -d3s -s "$work/parse.lua" "http://127.0.0.1:$rasa_port" >/dev/null
  wrk -t2 -c"$connections" -d"${duration}s" --timeout 10s --latency -s "$work/parse.lua" "http://127.0.0.1:$rasa_port" > "$work/rasa-wrk.txt"
  summarize "rasa 3.6.21" "$work/rasa-wrk.txt"
  kill "$rasa_pid"; wait "$rasa_pid" 2>/dev/null || true; rasa_pid=""
  python3 -c "import sys; a=float(open(sys.argv[1]).read()); b=float(open(sys.argv[2]).read()); print(f'ratio nlukit / rasa: {a/b:,.0f}x requests per second')" \
    "$work/nlukit.rps" "$work/rasa 3.6.21.rps"
else
  echo "rasa: not compared (run with --rasa; it needs Python 3.8-3.10 for rasa==3.6.21)"
fi

# Memory soak: RSS while the same load runs for $soak seconds.
if [ "$soak" -gt 0 ]; then
  rss() { awk '/VmRSS/ {print $2}' "/proc/$server_pid/status"; }
  echo "soak: ${soak}s of load; RSS (KiB) every 30 s:"
  wrk -t2 -c"$connections" -d"${soak}s" -s "$work/parse.lua" "http://127.0.0.1:$port" > "$work/soak.txt" &
  wrk_pid=$!
  samples=""
  start_rss=$(rss)
  while kill -0 "$wrk_pid" 2>/dev/null; do
    samples="$samples $(rss)"
    sleep 30
  done
  wait "$wrk_pid"
  end_rss=$(rss)
  echo "  start $start_rss, samples:$samples, end $end_rss"
  grep -E "Requests/sec|Non-2xx|Socket errors" "$work/soak.txt" | sed 's/^/  /'
  python3 -c "import sys; a,b=int(sys.argv[1]),int(sys.argv[2]); print(f'  RSS growth over the soak: {(b-a)/1024:+.1f} MiB ({(b-a)/a*100:+.1f}%)')" "$start_rss" "$end_rss"
fi
