#!/usr/bin/env bash
# Runs the reproductions quoted in issue #11 against a built `nlu` and prints, for each, the exit
# code and the first line of stderr, flagging a signal (exit > 128), a hang (timeout) or raw
# Foundation/Swift error text.   bash scripts/tests/issue11-repro.sh [path/to/nlu]
set -uo pipefail
cd "$(dirname "$0")/../.."
NLU="$(realpath "${1:-.build/debug/nlu}")"
ROOT="$PWD"
W="$(mktemp -d)"; trap 'rm -rf "$W"' EXIT
cd "$W"
CAR="$ROOT/Samples/intents/car-dashboard.json"; CORPUS="$ROOT/Samples/lm/garden.txt"
QA="$ROOT/Tests/Fixtures/qa/bert-tiny"; LM="$ROOT/Tests/Fixtures/lm/lstm-1.nlumodel"
TINY=(--epochs 1 --hidden 8 --embedding 4 --layers 1 --sequence-length 8)
bad=0
# check NAME EXPECTED_EXIT WANTED_TEXT -- command...   (WANTED_TEXT: a substring stderr must hold, or '')
check() {
  local name="$1" want="$2" text="$3"; shift 4
  local err; err="$(timeout 60 "$@" 2>&1 >/dev/null </dev/null)"; local rc=$?
  local verdict=ok
  if [[ $rc -ne $want ]]; then verdict=BAD; fi
  if [[ -n "$text" && "$err" != *"$text"* ]]; then verdict=BAD; fi
  if [[ "$err" =~ NSCocoaErrorDomain|"error 256"|"error 512"|numberIsNotRepresentable|EncodingError|"quotation(message"|"Fatal error" ]]; then verdict=BAD; fi
  [[ $verdict == BAD ]] && bad=$((bad + 1))
  printf '%-4s %-48s exit %-3s %s\n' "$verdict" "$name" "$rc" "$(printf '%s' "$err" | grep -v '^Usage\|^  See\|^$' | head -1 | cut -c1-150)"
}
mkdir v; echo x > v/notes.txt
check "intents train -o folder" 1 "not a model package" -- "$NLU" intents train "$CAR" -o v --epochs 1
check "lm train -o folder" 1 "not a model package" -- "$NLU" lm train "$CORPUS" -o v "${TINY[@]}"
check "intents train -o ." 1 "current directory" -- "$NLU" intents train "$CAR" -o . --epochs 1
check "intents train -o ''" 2 "empty" -- "$NLU" intents train "$CAR" -o '' --epochs 1
cp "$CAR" ds.json; cp "$CORPUS" c.txt
check "intents train ds.json -o ds.json" 1 "" -- "$NLU" intents train ds.json -o ds.json --epochs 1
check "lm train c.txt -o c.txt" 1 "" -- "$NLU" lm train c.txt -o c.txt "${TINY[@]}"
[[ -f v/notes.txt && -f ds.json && -f c.txt ]] || { echo "BAD  user files were deleted"; bad=$((bad + 1)); }
printf '{"id": 1, "question": "Who?", "context": "The fox."}\n' > q.jsonl
echo old > target.txt; ln -s target.txt link.txt
check "qa ask --output symlink" 0 "" -- "$NLU" qa ask --model "$QA" --input q.jsonl --output link.txt
[[ -L link.txt && "$(cat target.txt)" == *answers* ]] || { echo "BAD  symlink replaced"; bad=$((bad + 1)); }
check "qa ask --output /dev/full" 1 "No space left" -- "$NLU" qa ask --model "$QA" --input q.jsonl --output /dev/full
check "intents train --learning-rate 1e30" 1 "learning rate" -- "$NLU" intents train "$CAR" -o lr.nlumodel --learning-rate 1e30 --epochs 3
[[ ! -e lr.nlumodel ]] || { echo "BAD  diverged model saved"; bad=$((bad + 1)); }
"$NLU" intents train "$CAR" -o car.nlumodel --epochs 2 --hidden 8 >/dev/null 2>&1
check "tokenize > /dev/full" 1 "No space left" -- sh -c "\"$NLU\" tokenize --model \"$QA\" hello > /dev/full"
check "qa ask > /dev/full" 1 "No space left" -- sh -c "\"$NLU\" qa ask --model \"$QA\" --question Who --context 'The fox.' > /dev/full"
check "intents predict > /dev/full" 1 "No space left" -- sh -c "\"$NLU\" intents predict --model car.nlumodel hello > /dev/full"
check "intents import > /dev/full" 1 "No space left" -- sh -c "\"$NLU\" intents import \"$CAR\" --json -o imported.json > /dev/full"
check "lm generate > /dev/full" 1 "No space left" -- sh -c "\"$NLU\" lm generate --model \"$LM\" --max-tokens 3 > /dev/full"
check "tokenize | head -0 (closed pipe)" 0 "" -- sh -c "yes hello | head -2000 | \"$NLU\" tokenize --model \"$QA\" | head -0"
H=9223372036854775807
for f in --top-k --max-answer-length; do
  check "qa ask $f 2^63-1" 2 "$f" -- "$NLU" qa ask --model "$QA" --question Who --context 'The fox.' $f $H
  check "qa evaluate $f 2^63-1" 2 "$f" -- "$NLU" qa evaluate --model "$QA" --squad "$ROOT/Tests/Fixtures/qa/squad-v2.json" $f $H
done
check "intents train --batch-size 2^63-1" 2 "--batch-size" -- "$NLU" intents train "$CAR" -o x.nlumodel --batch-size $H
check "intents evaluate --folds 2^63-1" 2 "--folds" -- "$NLU" intents evaluate "$CAR" --folds $H
check "intents evaluate --folds 1000" 1 "" -- "$NLU" intents evaluate "$CAR" --folds 1000
for f in --hidden --embedding --sequence-length --layers; do
  check "lm train $f 2^63-1" 2 "$f" -- "$NLU" lm train "$CORPUS" -o x.nlumodel $f $H
done
check "lm train --hidden 100000" 2 "--hidden" -- "$NLU" lm train "$CORPUS" -o x.nlumodel --hidden 100000
check "NLUKIT_THREADS=2^63-1 selfcheck" 0 "" -- env NLUKIT_THREADS=$H "$NLU" selfcheck --size 32
setfield() { python3 - "$@" <<'PY'
import json, sys
path, keys, value = sys.argv[1], sys.argv[2].split("."), json.loads(sys.argv[3])
m = json.load(open(path)); o = m
for k in keys[:-1]: o = o.setdefault(k, {})
o[keys[-1]] = value; json.dump(m, open(path, "w"))
PY
}
for fv in config.hiddenSize=4611686018427387904 config.layers=10000000 config.embeddingSize=-1 config.hiddenSize=4.5; do
  cp -r "$LM" m.nlumodel; setfield m.nlumodel/manifest.json "${fv%%=*}" "${fv#*=}"
  check "lm manifest ${fv}" 1 "manifest.json: field '${fv%%=*}'" -- "$NLU" lm generate --model m.nlumodel --max-tokens 2
  rm -rf m.nlumodel
done
cp -r "$LM" m.nlumodel; setfield m.nlumodel/manifest.json metadata.epochsCompleted '"-1"'
check "lm train --resume epochsCompleted -1" 1 "epochsCompleted" -- "$NLU" lm train "$CORPUS" -o m.nlumodel --resume --epochs 2
rm -rf m.nlumodel
for fv in config.features.wordNGrams='[1,9223372036854775807]' config.hiddenSizes='[9223372036854775807]' config.hiddenSizes='[-3]'; do
  cp -r car.nlumodel i.nlumodel; setfield i.nlumodel/manifest.json "${fv%%=*}" "${fv#*=}"
  check "intents manifest ${fv}" 1 "${fv%%=*}" -- "$NLU" intents predict --model i.nlumodel hello
  rm -rf i.nlumodel
done
python3 -c "print('nlu: ' + '[' * 10000)" > deep.yml
check "YAML 10000 [" 1 "deep.yml" -- "$NLU" intents import deep.yml -o out.json
check "selfcheck --size max under 30 s" 0 "" -- timeout 30 "$NLU" selfcheck --size "$("$NLU" selfcheck --help | grep -o 'at most [0-9]*' | grep -o '[0-9]*' | head -1 || echo 4096)"
check "intents train --weight-decay inf" 2 "--weight-decay" -- "$NLU" intents train "$CAR" -o wd.nlumodel --weight-decay inf
check "tokenize --max-length 4 --stride 2" 2 "--stride" -- "$NLU" tokenize --model "$QA" --max-length 4 --stride 2 hello
: > empty.txt
check "qa ask empty --context-file" 1 "empty.txt" -- "$NLU" qa ask --model "$QA" --question Who --context-file empty.txt
check "qa ask empty stdin" 1 "standard input" -- "$NLU" qa ask --model "$QA" --question Who
check "import -o missing folder" 1 "" -- "$NLU" intents import "$CAR" -o nowhere/out.json
mkdir ro; chmod 555 ro
[[ $(id -u) != 0 ]] && check "import -o read-only folder" 1 "" -- "$NLU" intents import "$CAR" -o ro/out.json
cp -r "$QA" q4; setfield q4/config.json num_attention_heads 4.5
check "config.json num_attention_heads 4.5" 1 "num_attention_heads" -- "$NLU" qa ask --model q4 --question Who --context 'The fox.'
cp -r "$QA" q5; setfield q5/config.json hidden_size 32.5
check "config.json hidden_size 32.5" 1 "hidden_size" -- "$NLU" qa ask --model q5 --question Who --context 'The fox.'
cat > ent.json <<'J'
{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "hello there", "entities": [{"entity": "x", "start": 1.5, "end": 3}]}, {"text": "hi"}]}, {"name": "b", "utterances": [{"text": "bye"}, {"text": "ciao"}]}]}
J
check "dataset entity start 1.5" 1 "start" -- "$NLU" intents import ent.json -o ent-out.json
python3 -c "import json; d=json.load(open('ent.json')); d['version']=1e30; d['intents'][0]['utterances'][0]['entities']=[]; json.dump(d, open('ver.json','w'))"
check "dataset version 1e30" 1 "version" -- "$NLU" intents import ver.json -o ver-out.json
python3 -c "
import json; d=json.load(open('$ROOT/Tests/Fixtures/qa/squad-v2.json'))
d['data'][0]['paragraphs'][0]['qas'][1]['answers'][0]['text']=5; json.dump(d, open('sq.json','w'))"
check "SQuAD bad answer names the question id" 1 "fox-2" -- "$NLU" qa evaluate --model "$QA" --squad sq.json
check "--doc-stride > default window" 2 "--doc-stride" -- "$NLU" qa ask --model "$QA" --question Who --context 'The fox.' --doc-stride 1000
check "unknown option before other checks" 2 "frob" -- "$NLU" qa ask --model x --frob
check "dataset from -" 0 "" -- sh -c "\"$NLU\" intents import - -o from-dash.json < \"$CAR\""
check "dataset from /dev/stdin" 0 "" -- sh -c "\"$NLU\" intents import /dev/stdin -o from-stdin.json < \"$CAR\""
check "intents train -" 0 "" -- sh -c "\"$NLU\" intents train - -o stdin.nlumodel --epochs 1 --hidden 8 < \"$CAR\""
check "lm train -" 0 "" -- sh -c "\"$NLU\" lm train - -o stdinlm.nlumodel ${TINY[*]} < \"$CORPUS\""
check "lm perplexity -" 0 "" -- sh -c "\"$NLU\" lm perplexity --model \"$LM\" - < \"$CORPUS\""
check "qa ask --context-file -" 0 "" -- sh -c "echo 'The fox.' | \"$NLU\" qa ask --model \"$QA\" --question Who --context-file -"
check "qa ask --input /dev/stdin" 0 "" -- sh -c "\"$NLU\" qa ask --model \"$QA\" --input /dev/stdin < q.jsonl"
check "qa evaluate -" 0 "" -- sh -c "\"$NLU\" qa evaluate --model \"$QA\" --squad - < \"$ROOT/Tests/Fixtures/qa/squad-v2.json\""
check "intents evaluate -" 0 "" -- sh -c "\"$NLU\" intents evaluate - --folds 2 --epochs 1 --hidden 8 < \"$CAR\""
check "tokenize --file -" 0 "" -- sh -c "echo hello | \"$NLU\" tokenize --model \"$QA\" --file -"
printf 'text,intent\nturn on the radio,on\n"unclosed quote,on\nhi,greet\n' > unclosed.csv
check "CSV unclosed quote names the line" 1 "line 3" -- "$NLU" intents import unclosed.csv -o u.json
printf 'text,intent\nturn on the radio,on\n"two\nlines",on\nhi,\nbye,greet\n' > rows.csv
check "CSV row numbers are file lines" 1 "line 5" -- "$NLU" intents import rows.csv -o r.json
for se in '0,99' '5,2'; do
python3 - "$ROOT/Tests/Fixtures/intents/luis-app.json" "$se" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); s, e = map(int, sys.argv[2].split(","))
for u in d["utterances"]:
    if u.get("entities"):
        u["entities"][0]["startPos"], u["entities"][0]["endPos"] = s, e; break
json.dump(d, open("luis.json", "w"))
PY
check "LUIS entity startPos,endPos=$se" 1 "luis.json" -- "$NLU" intents import luis.json -o l.json
done
check "nan for --temperature" 2 "--temperature" -- "$NLU" lm generate --model "$LM" --temperature nan
echo "issue 11 reproductions: $bad misbehave"
exit $((bad > 0))
