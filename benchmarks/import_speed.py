#!/usr/bin/env python3
"""Import speed of the platform formats: a 10,000-utterance export of each (Azure CLU JSON, Bot
Framework .lu, Dialogflow CX zip, watsonx actions JSON, Rasa YAML), written here by Python from the
Snips benchmark's real annotated utterances (../shared/data/snips, train files, read in place; the
first 10,000), imported by the release `nlu-bench import` (detection included, best of 5).
Target: each under 1 s. Peer in the same run: Python parsing the same bytes (json.load, PyYAML's C
loader, zipfile + json, and a line split for .lu) — the floor of any importer, not a full import —
printed with the ratio NLUKit / Python (Python's figure is CPU time; NLUKit's wall and CPU time are
both printed, the ratio uses NLUKit's CPU time).

Pinned: PyYAML 6.0.3 (scripts/reference-requirements.txt); standard library otherwise.
Usage: swift build -c release --product nlu-bench && python3 benchmarks/import_speed.py [--count 10000]
"""
import argparse, glob, io, json, os, platform, subprocess, sys, tempfile, time, zipfile

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "nlu-bench")
DATA = os.path.join(os.path.dirname(ROOT), "shared", "data", "snips")


def utterances(count):
    rows = []
    for path in sorted(glob.glob(os.path.join(DATA, "train_*_full.json"))):
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
        for intent, examples in json.loads(text).items():
            for example in examples:
                rows.append((intent, example["data"]))
    rows = rows[::max(1, len(rows) // count)][:count] if len(rows) > count else rows
    return rows


def spans(parts):
    text, result = "", []
    for part in parts:
        if part.get("entity"):
            result.append((part["entity"], len(text), len(part["text"]), part["text"]))
        text += part["text"]
    return text, result


def write_clu(rows, path):
    utts = []
    for intent, parts in rows:
        text, found = spans(parts)
        utts.append({"text": text, "language": "en-us", "intent": intent, "dataset": "Train",
                     "entities": [{"category": e, "offset": len(text[:o].encode("utf-16-le")) // 2,
                                   "length": len(m.encode("utf-16-le")) // 2} for e, o, _, m in found]})
    project = {"projectFileVersion": "2023-04-01", "stringIndexType": "Utf16CodeUnit",
               "metadata": {"projectKind": "Conversation", "projectName": "bench", "language": "en-us"},
               "assets": {"projectKind": "Conversation", "intents": [{"category": i} for i in sorted({r[0] for r in rows})],
                          "entities": [], "utterances": utts}}
    with open(path, "w", encoding="utf-8") as f:
        json.dump(project, f)


def lu_escape(s):
    return s.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}")


def write_lu(rows, path):
    by_intent = {}
    for intent, parts in rows:
        line = "".join("{@%s=%s}" % (p["entity"], lu_escape(p["text"])) if p.get("entity") else lu_escape(p["text"]) for p in parts)
        by_intent.setdefault(intent, []).append(line.replace("\n", " "))
    with open(path, "w", encoding="utf-8") as f:
        for intent, lines in by_intent.items():
            f.write(f"# {intent}\n" + "".join(f"- {l}\n" for l in lines) + "\n")


def write_dfcx(rows, path):
    by_intent = {}
    for intent, parts in rows:
        by_intent.setdefault(intent, []).append(parts)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("agent/agent.json", json.dumps({"displayName": "bench", "defaultLanguageCode": "en"}))
        for intent, phrases in by_intent.items():
            entities = sorted({p["entity"] for parts in phrases for p in parts if p.get("entity")})
            z.writestr(f"agent/intents/{intent}/{intent}.json", json.dumps(
                {"displayName": intent, "parameters": [{"id": e, "entityType": "@" + e} for e in entities]}))
            z.writestr(f"agent/intents/{intent}/trainingPhrases/en.json", json.dumps({"trainingPhrases": [
                {"parts": [{"text": p["text"], "parameterId": p["entity"]} if p.get("entity") else {"text": p["text"]} for p in parts],
                 "languageCode": "en"} for parts in phrases]}))


def write_watsonx(rows, path):
    by_intent = {}
    for intent, parts in rows:
        text, found = spans(parts)
        by_intent.setdefault(intent, []).append({"text": text, "mentions": [
            {"entity": e, "location": [len(text[:o].encode("utf-16-le")) // 2, len(text[:o + n].encode("utf-16-le")) // 2]}
            for e, o, n, _ in found]})
    actions = [{"action": f"action_{i}", "title": intent, "condition": {"intent": f"action_{i}_intent_1"}, "steps": []}
               for i, intent in enumerate(by_intent)]
    intents = [{"intent": f"action_{i}_intent_1", "examples": ex} for i, ex in enumerate(by_intent.values())]
    with open(path, "w", encoding="utf-8") as f:
        json.dump({"type": "action", "language": "en", "workspace": {"actions": actions, "intents": intents, "entities": []}}, f)


def write_rasa(rows, path):
    by_intent = {}
    for intent, parts in rows:
        line = "".join("[%s](%s)" % (p["text"], p["entity"]) if p.get("entity") else p["text"] for p in parts)
        by_intent.setdefault(intent, []).append(line.replace("\n", " "))
    with open(path, "w", encoding="utf-8") as f:
        f.write('version: "3.1"\nnlu:\n')
        for intent, lines in by_intent.items():
            f.write(f"- intent: {intent}\n  examples: |\n" + "".join(f"    - {l}\n" for l in lines))


def python_parse(kind, path):
    start = time.process_time()
    if kind in ("clu", "watsonx"):
        with open(path, encoding="utf-8") as f:
            json.load(f)
    elif kind == "rasa":
        with open(path, encoding="utf-8") as f:
            yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    elif kind == "dialogflow-cx":
        with zipfile.ZipFile(path) as z:
            for name in z.namelist():
                json.loads(z.read(name))
    else:
        with open(path, encoding="utf-8") as f:
            [line.split("=") for line in f.read().splitlines()]
    return time.process_time() - start


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--count", type=int, default=10000)
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        sys.exit(f"{BENCH} missing: swift build -c release --product nlu-bench")
    rows = utterances(args.count)
    with tempfile.TemporaryDirectory() as tmp:
        files = {"clu": os.path.join(tmp, "clu.json"), "lu": os.path.join(tmp, "app.lu"),
                 "dialogflow-cx": os.path.join(tmp, "agent.zip"), "watsonx": os.path.join(tmp, "actions.json"),
                 "rasa": os.path.join(tmp, "nlu.yml")}
        write_clu(rows, files["clu"]); write_lu(rows, files["lu"]); write_dfcx(rows, files["dialogflow-cx"])
        write_watsonx(rows, files["watsonx"]); write_rasa(rows, files["rasa"])
        out = subprocess.run([BENCH, "import", *files.values()], check=True, capture_output=True, text=True).stdout
        results = [json.loads(line) for line in out.splitlines() if line.strip()]
        print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; {len(rows)} utterances per export")
        print(f"load average {os.getloadavg()[0]:.1f}; wall = best wall-clock of 5, CPU = best user+sys CPU of 5 (the wall clock counts other processes on a loaded machine)")
        print(f"{'format':<14} {'bytes':>10} {'utterances':>10} {'annotations':>11} {'NLUKit wall s':>13} {'NLUKit CPU s':>12} {'Python parse s':>15} {'ratio':>6}  target <1 s")
        for (kind, path), result in zip(files.items(), results):
            peer = min(python_parse(kind, path) for _ in range(5))
            ok = "ok" if result["best_seconds"] < 1 else ("ok (CPU)" if result["best_cpu_seconds"] < 1 else "MISSED")
            print(f"{result['format']:<14} {os.path.getsize(path):>10} {result['utterances']:>10} {result['annotations']:>11} "
                  f"{result['best_seconds']:>13.3f} {result['best_cpu_seconds']:>12.3f} {peer:>15.3f} {result['best_cpu_seconds'] / peer:>6.1f}  {ok}")


if __name__ == "__main__":
    main()
