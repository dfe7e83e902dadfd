#!/usr/bin/env bash
# The playground page in a real browser (not in the default suite): headless Chromium (Debian package
# `chromium`) loads GET /?text=... from a running `nlu serve`, the page's script submits the sentence to
# /model/parse and renders the answer; the test reads the rendered DOM (intent and highlighted entity)
# and saves a screenshot. The server also serves IBM's car-dashboard dialogue: the page's conversation panel
# sends a message (?say=...) through /conversations, and the bot's texts it renders must be the ones the
# server answers to the same messages, and the state panel must show the context variable the turn set.
#
# Usage: bash scripts/playground-browser-test.sh [SCREENSHOT.png]   (default: bench-output/playground.png)
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot=${1:-bench-output/playground.png}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium is missing: apt-get install chromium" >&2; exit 1; }

bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build --product nlu >&2
nlu=".build/debug/nlu"
work=$(mktemp -d)
server_pid=""
cleanup() { [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null; wait 2>/dev/null || true; rm -rf "$work"; }
trap cleanup EXIT

# The intents of the dialogue's own workspace, so the dialogue sees the intents and entities it was written for.
dialogue=Tests/Fixtures/dialogue/watson-car-dashboard/car_workspace.json
"$nlu" intents train "$dialogue" -o "$work/car.nlumodel" >/dev/null 2>&1
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
"$nlu" serve --intents "$work/car.nlumodel" --dialogue "$dialogue" --port "$port" 2>"$work/server.log" &
server_pid=$!
for _ in $(seq 1 100); do curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break; sleep 0.1; done

sentence="turn on the wipers"
expected=$(curl -s "http://127.0.0.1:$port/model/parse" -d "{\"text\": \"$sentence\"}" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["intent"]["name"])')
said="turn on the lights"
quote() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
url="http://127.0.0.1:$port/?text=$(quote "$sentence")&say=$(quote "$said")"
# What the bot answers to the opening turn and the message, in a conversation of the test's own.
for text in "" "$said"; do
  curl -s "http://127.0.0.1:$port/conversations/browser-check/messages" -d "{\"text\": \"$text\"}"; echo
done > "$work/expected.jsonl"
bot_expected=$(python3 -c '
import json, sys
texts = [r["text"] for line in open(sys.argv[1]) if line.strip() for r in json.loads(line)["responses"] if r["type"] == "text"]
print(json.dumps(texts))' "$work/expected.jsonl")
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/profile" --virtual-time-budget=10000)
"$browser" "${flags[@]}" --dump-dom "$url" 2>/dev/null > "$work/dom.html"
mkdir -p "$(dirname "$screenshot")"
"$browser" "${flags[@]}" --window-size=1000,1900 --screenshot="$screenshot" "$url" 2>/dev/null >/dev/null

rendered=$(python3 - "$work/dom.html" <<'PY'
import re, sys
dom = open(sys.argv[1]).read()
intent = re.search(r'id="parse-intent">([^<]*)<', dom)
marks = re.findall(r'<mark>([^<]*)<small>([^<]*)</small></mark>', dom)
print((intent.group(1) if intent else "(none rendered)") + "|" + ",".join(f"{t}={l}" for t, l in marks))
PY
)
chat=$(python3 - "$work/dom.html" <<'PY'
import html, json, re, sys
dom = open(sys.argv[1]).read()
# Text responses are bubbles with only text in them (images are "[image] ...", payloads and pauses have children).
bot = [html.unescape(t) for t in re.findall(r'<div class="bubble bot">([^<]*)</div>', dom) if t and not t.startswith("[image] ")]
context = re.search(r'<table class="chat-context" id="chat-context">(.*?)</table>', dom, re.S)
rows = dict(re.findall(r'<tr><td>([^<]*)</td><td>([^<]*)</td></tr>', context.group(1))) if context else {}
print(json.dumps(bot) + "|" + html.unescape(rows.get("lightonoff", "(not shown)")))
PY
)
bot_rendered=${chat%%|*}; lights=${chat#*|}
intent=${rendered%%|*}; entities=${rendered#*|}
echo "server says: $expected; the page rendered intent: $intent, entities: ${entities:-none}; screenshot: $screenshot"
echo "bot says: $bot_expected; the page's conversation rendered: $bot_rendered; state lightonoff=$lights"
if [ "$intent" = "$expected" ] && [ -s "$screenshot" ] && [ "$bot_rendered" = "$bot_expected" ] && [ "$lights" = '"on"' ]; then
  echo "playground: PASS"
else
  echo "playground: FAIL" >&2
  exit 1
fi
