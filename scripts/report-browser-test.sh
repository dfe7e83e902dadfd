#!/usr/bin/env bash
# The report pages in a real browser (not in the default suite): `nlu intents evaluate --folds 2 --report`,
# `nlu intents train --report` and `nlu lm train --report` write their pages; headless Chromium (Debian
# package `chromium`) loads each from disk with the network off; the test reads the rendered DOM (the
# confusion matrix has every intent of the dataset, the charts are drawn), fails on any console error or
# failed request, and saves screenshots.
#
# Usage: bash scripts/report-browser-test.sh [SCREENSHOT.png]   (default: bench-output/report.png; the
#        training pages go beside it as report-train.png and report-lm.png)
set -euo pipefail
cd "$(dirname "$0")/.."
screenshot=${1:-bench-output/report.png}
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "chromium is missing: apt-get install chromium" >&2; exit 1; }

bash scripts/install-deps.sh
source scripts/blas-env.sh
swift build --product nlu >&2
nlu=".build/debug/nlu"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

dataset=Samples/intents/car-dashboard.json
"$nlu" intents evaluate "$dataset" --folds 2 --report "$work/evaluate.html" >/dev/null 2>"$work/evaluate.log"
"$nlu" intents train "$dataset" -o "$work/car.nlumodel" --report "$work/train.html" >/dev/null 2>"$work/train.log"
"$nlu" lm train Samples/lm/garden.txt -o "$work/garden.nlumodel" --layers 1 --hidden 32 --embedding 16 --epochs 4 \
  --report "$work/lm.html" >/dev/null 2>"$work/lm.log"
python3 -c 'import json, sys; print("\n".join(i["intent"] for i in json.load(open(sys.argv[1]))["intents"]))' "$dataset" \
  > "$work/intents.txt"

# Any request leaving the page is refused by a proxy that does not exist, and would show as a failed load in the log.
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --user-data-dir="$work/profile"
       --proxy-server=127.0.0.1:9 --proxy-bypass-list='<-loopback>' --virtual-time-budget=5000
       --enable-logging=stderr --v=0)
screenshots_dir=$(dirname "$screenshot")
mkdir -p "$screenshots_dir"
status=0
for page in evaluate train lm; do
  case $page in
    evaluate) shot=$screenshot; height=2600 ;;
    train) shot="$screenshots_dir/report-train.png"; height=1500 ;;
    lm) shot="$screenshots_dir/report-lm.png"; height=1000 ;;
  esac
  "$browser" "${flags[@]}" --dump-dom "file://$work/$page.html" 2>"$work/$page.console" >"$work/$page.dom"
  "$browser" "${flags[@]}" --window-size=1200,$height --screenshot="$shot" "file://$work/$page.html" \
    2>>"$work/$page.console" >/dev/null
  # Chromium's own noise (D-Bus, GPU, sandbox) is not the page's: only console messages and failed loads count.
  errors=$(grep -E 'CONSOLE|Uncaught|ERR_|Failed to load|net::' "$work/$page.console" || true)
  verdict=$(python3 - "$page" "$work/$page.dom" "$work/intents.txt" <<'PY'
import re, sys
page, dom = sys.argv[1], open(sys.argv[2]).read()
intents = [line for line in open(sys.argv[3]).read().splitlines() if line]
problems = []
if page == "evaluate":
    columns = set(re.findall(r'<th class="column">([^<]*)</th>', dom))
    rows = set(re.findall(r'<th class="row">([^<]*)</th>', dom))
    missing = [i for i in intents if i not in columns or i not in rows]
    if missing: problems.append("intents missing from the matrix: " + ", ".join(missing))
    for section in ("confusion", "intents", "confidence", "errors", "entities", "entity-confusion", "entity-errors"):
        if f'id="{section}"' not in dom: problems.append(f"no {section} section")
    if dom.count("<rect") < 10: problems.append("the histogram has no bars")
else:
    if dom.count("<polyline") < 1: problems.append("no curve drawn")
if re.search(r'https?:', dom): problems.append("a network URL in the page")
print("; ".join(problems) if problems else "ok")
PY
)
  if [ "$verdict" = "ok" ] && [ -z "$errors" ] && [ -s "$shot" ]; then
    echo "$page page: rendered, no console error; screenshot: $shot"
  else
    echo "$page page: FAIL: ${verdict}${errors:+; console: $errors}" >&2
    status=1
  fi
done
if [ $status -eq 0 ]; then echo "report pages: PASS"; else echo "report pages: FAIL" >&2; exit 1; fi
