#!/usr/bin/env python3
"""Built-in entities beyond English: NLUKit (`nlu entities extract --language`) beside Microsoft
Recognizers-Text's Python port (PyPI recognizers-text-suite) on the same cases: the number, ordinal,
percentage, currency, temperature, age, dimension and date-time specs of French, Spanish, German, Portuguese, Italian, Dutch, Chinese and
Japanese, and their phone-number and URL specs where the language has one (phone numbers: all eight, most cases Chinese
and Portuguese; URLs: Chinese and Japanese), as
scripts/fixtures/builtins_recognizers_text.py converts them (Tests/Fixtures/builtins/recognizers-text/<code>/).

Prints per language and kind the share of cases each passes, a case passing when the entities found are
exactly the expected ones (kind, offsets, text ignoring case, resolved value, and for currency and
temperature the unit and ISO code too, for date-time the set of resolved values with their timex, type, value,
start, end and Mod, each case against its own reference time), as Tests/NLUBuiltinsTests score it; where a spec marks
cases "NotSupported" by its reference implementation (.NET; French numbers: 144 of 273), a "(supported)" row gives the
share of the others; then the CPU seconds each took over all cases and the ratio. The port has no German number models
(its German culture returns nothing), so it scores 0 there; nor date-time models for German, Italian and Dutch; its
phone-number and URL models of a culture it has none for are English's (its default fallback). Pass rates do not depend on the build; speed
figures are only meaningful with a release `nlu` (--nlu .build/release/nlu) and `--repeat 200` or so. As in
benchmarks/builtins.py for English, NLUKit's figure leaves its process start out, as the port's leaves out its import
and the building of its models: NLUKit reads the cases once, then again N more times (N = --repeat, or more so that
those passes hold at least MIN_LINES lines and a spec of one case is still measured), and the difference of the two
runs' CPU time, divided by N, is what one pass over the cases costs it.

    pip install recognizers-text-suite==1.0.2a2 emoji==1.7.0    # emoji 2 removed what the port imports
    python3 -P benchmarks/builtins_languages.py --nlu .build/x86_64-unknown-linux-gnu/debug/nlu
"""
import argparse
import datetime
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, "Tests", "Fixtures", "builtins", "recognizers-text")
LANGUAGES = {"en": "en-us", "fr": "fr-fr", "es": "es-es", "de": "de-de", "pt": "pt-br", "it": "it-it", "nl": "nl-nl", "zh": "zh-cn",
             "ja": "ja-jp"}
# The port writes a Chinese or Japanese result's text with fullwidth digits made ASCII ("4,565" for "４，５６５"); its
# offsets are right, so its text is taken from the input there, as the fixtures take theirs.
TEXT_FROM_OFFSETS = {"zh", "ja"}
KINDS = ["number", "ordinal", "percentage", "currency", "temperature", "age", "dimension", "datetime", "phonenumber", "url"]
SEQUENCE_KINDS = {"phonenumber", "url"}
UNIT_KINDS = {"currency", "temperature", "age", "dimension"}
# What `--types datetime` stands for: LUIS's datetimeV2 kinds.
DATETIME_TYPES = "date,time,datetime,daterange,timerange,datetimerange,duration,set"
DATETIME_KEYS = ("timex", "type", "value", "start", "end", "Mod")
# English's other kinds are measured by benchmarks/builtins.py and the English corpus tests; here only its ages and
# dimensions, whose specs sit beside the other English ones (recognizers-text/<kind>.json).
ENGLISH_KINDS = {"age", "dimension"}
# The languages whose date-times NLUKit reads (the others print n/a).
DATETIME_LANGUAGES = {"fr", "es", "de", "pt", "it", "nl", "zh", "ja"}


def datetime_values(resolution):
    """A date-time resolution's readings in one order, each as a tuple of the keys the specs keep."""
    values = resolution.get("values") or []
    return tuple(sorted(tuple(str(v.get(k) or v.get(k.lower()) or "") for k in DATETIME_KEYS) for v in values))


def normalized(entities):
    return sorted((e["entity"], e["start"], e["end"], e["text"].lower(), e["resolution"].get("value"),
                   e["resolution"].get("unit"), e["resolution"].get("isoCurrency"), datetime_values(e["resolution"]))
                  for e in entities)


def cpu():
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, children.ru_utime + children.ru_stime


REPEAT = 1  # --repeat: the extra passes over the cases whose CPU time, divided by their number, is NLUKit's figure
MIN_LINES = 20_000  # the extra passes over a spec hold at least this many lines


def extra_passes(cases):
    return max(REPEAT, -(-MIN_LINES // max(1, len(cases))))


def run_nlu(nlu, language, kind, texts, extra, reference=None):
    """The entities NLUKit finds in each text, and the CPU seconds one pass over the texts costs it, its process start
    left out: the difference between a run over the texts and a run over them 1 + `extra` times, divided by `extra`."""
    # One case a line: the few cases holding a line break are read with it as a space.
    lines = "\n".join(t.replace("\n", " ") for t in texts) + "\n"
    command = [nlu, "entities", "extract", "--json", "--language", language, "--types", DATETIME_TYPES if kind == "datetime" else kind]
    if reference is not None:
        command += ["--reference-time", reference]
    spent = []
    for passes in (1, 1 + extra):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False, encoding="utf-8") as f:
            f.write(lines * passes)
            path = f.name
        try:
            before = cpu()[1]
            result = subprocess.run(command + ["--file", path], capture_output=True, text=True, check=True)
            spent.append(cpu()[1] - before)
        finally:
            os.unlink(path)
        if passes == 1:
            found = [json.loads(line)["entities"] for line in result.stdout.splitlines()]
    return found, max(spent[1] - spent[0], 0.0) / extra


def run_nlu_datetime(nlu, language, cases):
    """Date-time cases grouped by reference time (the CLI takes one a run), answers back in the cases' order."""
    by_reference = {}
    for index, case in enumerate(cases):
        by_reference.setdefault(case["reference"], []).append(index)
    found, seconds = [None] * len(cases), 0.0
    for reference, indices in by_reference.items():
        entities, spent = run_nlu(nlu, language, "datetime", [cases[i]["text"] for i in indices], extra_passes(cases), reference)
        seconds += spent
        for i, e in zip(indices, entities):
            found[i] = e
    return found, seconds


def python_model(culture, kind):
    if kind in SEQUENCE_KINDS:
        # The port has its own phone-number models for English, Chinese (which Japanese uses too) and Portuguese, and
        # URL models for English and Chinese; the other cultures fall back to English's, as its API does by default.
        from recognizers_sequence import SequenceRecognizer
        sequences = SequenceRecognizer(culture)
        return {"phonenumber": sequences.get_phone_number_model, "url": sequences.get_url_model}[kind](culture)
    if kind == "datetime":
        from recognizers_date_time import DateTimeRecognizer
        return DateTimeRecognizer(culture).get_datetime_model()
    if kind in UNIT_KINDS:
        from recognizers_number_with_unit import NumberWithUnitRecognizer
        units = NumberWithUnitRecognizer(culture)
        return {"currency": units.get_currency_model, "temperature": units.get_temperature_model, "age": units.get_age_model,
                "dimension": units.get_dimension_model}[kind](culture)
    from recognizers_number import NumberRecognizer
    recognizer = NumberRecognizer(culture)
    return {"number": recognizer.get_number_model, "ordinal": recognizer.get_ordinal_model,
            "percentage": recognizer.get_percentage_model}[kind](culture)


def python_entities(model, kind, text, reference=None, text_from_offsets=False):
    if kind == "datetime":
        return [{"entity": r.type_name.split(".", 1)[-1], "start": r.start, "end": r.end + 1,
                 "text": text[r.start:r.end + 1] if text_from_offsets else r.text,
                 "resolution": {"values": [{k: v for k, v in value.items() if k in DATETIME_KEYS}
                                           for value in (r.resolution or {}).get("values", [])]}}
                for r in model.parse(text, datetime.datetime.fromisoformat(reference))]
    entities = []
    for r in model.parse(text):
        value = (r.resolution or {}).get("value")
        if kind == "percentage" and value and value.endswith("%"):
            value = value[:-1]
        resolution = {"value": value}
        if kind in UNIT_KINDS:
            # The port's currency, temperature, age and dimension results carry the unit (and ISO code) as the specs do.
            resolution.update({k: v for k, v in (r.resolution or {}).items() if k in ("unit", "isoCurrency") and v is not None})
        entities.append({"entity": kind if not r.type_name.startswith("ordinal") else "ordinal", "start": r.start,
                         "end": r.end + 1, "text": text[r.start:r.end + 1] if text_from_offsets else r.text,
                         "resolution": resolution})
    return entities


def python_entities_safely(model, kind, text, reference=None, text_from_offsets=False):
    """The port's entities, none when it raises (its German and Dutch unit models fail on a few inputs)."""
    try:
        return python_entities(model, kind, text, reference, text_from_offsets)
    except Exception:  # noqa: BLE001 - a crash of the reference counts as a miss, not as the benchmark's failure
        return []


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build", "release", "nlu"))
    parser.add_argument("--kinds", default=",".join(KINDS), help="comma-separated kinds (default: all)")
    parser.add_argument("--languages", default=",".join(LANGUAGES), help="comma-separated codes (default: all)")
    parser.add_argument("--port-only", action="store_true", help="score the Python port alone (no nlu needed)")
    parser.add_argument("--repeat", type=int, default=1,
                        help=f"NLUKit's CPU figure: the cost of this many more passes over the cases (more if they hold under {MIN_LINES:,} lines), divided by their number")
    args = parser.parse_args()
    global REPEAT
    REPEAT = max(1, args.repeat)
    total_ours = total_port = 0.0
    by_kind = {}  # kind -> [NLUKit seconds, port seconds] over the languages NLUKit read
    print(f"{'language':<10} {'kind':<11} {'cases':>5}  {'NLUKit':>7}  {'Python port':>11}  (CPU seconds a pass, NLUKit's process start left out)")
    for code, culture in LANGUAGES.items():
        if code not in args.languages.split(","):
            continue
        for kind in KINDS:
            if kind not in args.kinds.split(","):
                continue
            if code == "en" and kind not in ENGLISH_KINDS:
                continue
            path = os.path.join(FIXTURES, kind + ".json") if code == "en" else os.path.join(FIXTURES, code, kind + ".json")
            if not os.path.exists(path):
                continue
            with open(path, encoding="utf-8") as f:
                cases = json.load(f)
            texts = [c["text"] for c in cases]
            if args.port_only or (kind == "datetime" and code not in DATETIME_LANGUAGES):
                ours, seconds = None, 0.0
            elif kind == "datetime":
                ours, seconds = run_nlu_datetime(args.nlu, code, cases)
            else:
                ours, seconds = run_nlu(args.nlu, code, kind, texts, extra_passes(cases))
            total_ours += seconds
            model = python_model(culture, kind)
            start = cpu()[0]
            port = [python_entities_safely(model, kind, c["text"], c.get("reference"), code in TEXT_FROM_OFFSETS) for c in cases]
            port_seconds = cpu()[0] - start
            total_port += port_seconds
            if ours is not None:
                spent = by_kind.setdefault(kind, [0.0, 0.0])
                spent[0] += seconds
                spent[1] += port_seconds
            def passed(found):
                return sum(1 for c, f in zip(cases, found) if normalized(f) == normalized(c["entities"]))
            n = len(cases)
            mine = "    n/a" if ours is None else f"{100 * passed(ours) / n:>6.1f}%"
            print(f"{code:<10} {kind:<11} {n:>5}  {mine}  {100 * passed(port) / n:>10.1f}%  (CPU s: {seconds:.5f} vs {port_seconds:.3f}, "
                  f"{port_seconds / max(seconds, 1e-9):.0f}x)")
            # The cases the spec's reference implementation (.NET) supports, when it marks others "NotSupported".
            supported = [i for i, c in enumerate(cases) if "dotnet" not in c.get("notSupported", "")]
            if len(supported) < n:
                def passed_supported(found):
                    return sum(1 for i in supported if normalized(found[i]) == normalized(cases[i]["entities"]))
                mine = "    n/a" if ours is None else f"{100 * passed_supported(ours) / len(supported):>6.1f}%"
                print(f"{'':<10} {'(supported)':<11} {len(supported):>5}  {mine}  {100 * passed_supported(port) / len(supported):>10.1f}%")
    for kind, (ours_kind, port_kind) in by_kind.items():
        print(f"{kind:<11} all languages: NLUKit {ours_kind:.4f}, Python port {port_kind:.3f}; ratio {port_kind / max(ours_kind, 1e-9):.1f}x")
    print(f"\nCPU seconds over all cases: NLUKit {total_ours:.3f} (process start left out), "
          f"Python port {total_port:.3f}; ratio {total_port / max(total_ours, 1e-9):.1f}x")


if __name__ == "__main__":
    sys.exit(main())
