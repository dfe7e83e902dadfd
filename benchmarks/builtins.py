#!/usr/bin/env python3
"""Built-in entities benchmark: NLUKit (`nlu entities extract`, release build) vs Microsoft
Recognizers-Text's Python port (PyPI recognizers-text-suite) on real utterances from the Snips
benchmark (../shared/data/snips), in one run.

Prints, on the same utterances:
  - throughput (utterances per second) of all kinds at once: NLUKit's one pass vs the Python port's eleven
    models (number, ordinal, percentage, currency, temperature, age, dimension, email, URL, phone number, date-time),
    and the ratio;
  - agreement per kind family: the share of utterances where both find the same entities (kind, start,
    end), and NLUKit's precision and recall taking the Python port as the reference;
  - the time NLUKit takes on a single 1 MB line, and per MB with the peak memory on one 10 MB line dense with
    numbers (digit groups, the most entities a line can hold);
  - when a Duckling wrapper is installed (PyPI pyduckling-native-phihos, a compiled Duckling), the same
    for Duckling: its throughput on all the utterances with all its dimensions, and agreement per family
    (spans only: Duckling's kinds differ; it has no percentage, and its `time` and `duration` are our
    date-time family).
Times are CPU seconds (user + system) of the measured work, so that other jobs on a shared machine do not
distort the ratio; wall seconds are printed beside them.
The Python port takes close to a second per utterance here, so it runs on the first --python-utterances
(default 300) of the --utterances (default 3000) that NLUKit runs on; throughput is per utterance.

    pip install recognizers-text-suite==1.0.2a2 emoji==1.7.0    # emoji 2 removed what the port imports
    pip install --only-binary :all: pyduckling-native-phihos==0.3.0   # optional: Duckling
    python3 benchmarks/builtins.py [--utterances 3000] [--python-utterances 300] [--skip-build] [--long-line-only]
"""
import argparse
import datetime
import glob
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REFERENCE = "2016-11-07T10:00:00"
LONG_LINE_TARGET = 0.5   # CPU seconds for one 1 MB line, all kinds (issue 16: "well under a second")
FAMILIES = {
    "number": ["number"], "ordinal": ["ordinal"], "percentage": ["percentage"], "currency": ["currency"],
    "temperature": ["temperature"], "age": ["age"], "dimension": ["dimension"], "email": ["email"], "url": ["url"],
    "phonenumber": ["phonenumber"], "datetime": ["date", "time", "datetime", "daterange", "timerange", "datetimerange", "duration", "set"],
}


def snips_utterances(limit):
    texts = []
    for path in sorted(glob.glob(os.path.join(ROOT, "..", "shared", "data", "snips", "*.json"))):
        raw = open(path, "rb").read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            text = raw.decode("cp1252", errors="replace")
        for examples in json.loads(text).values():
            for example in examples:
                texts.append("".join(part["text"] for part in example["data"]).replace("\n", " ").strip())
    # Interleave the files' intents so any prefix has every intent; by a stable hash (Python's hash() of a str
    # changes with every process), so every run reads the same utterances.
    texts.sort(key=lambda t: (zlib.crc32(t.encode("utf-8")) & 0xFFFF, t))
    return texts[:limit]


def machine():
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor()


def nlu_binary(skip_build):
    if not skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu"], cwd=ROOT, check=True)
    return os.path.join(ROOT, ".build", "release", "nlu")


def children_cpu():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run_nlu(nlu, path, types=None):
    """(CPU seconds, wall seconds, output lines) of one `nlu entities extract --json` run over the file."""
    command = [nlu, "entities", "extract", "--json", "--reference-time", REFERENCE, "--file", path]
    if types:
        command += ["--types", ",".join(types)]
    cpu, start = children_cpu(), time.perf_counter()
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return children_cpu() - cpu, time.perf_counter() - start, result.stdout.splitlines()


def run_nlu_peak(nlu, path):
    """(CPU seconds, wall seconds, peak resident MB) of one `nlu entities extract --json` run, output discarded."""
    command = [nlu, "entities", "extract", "--json", "--reference-time", REFERENCE, "--file", path]
    start = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(process.pid, 0)
    if status != 0:
        raise SystemExit(f"{' '.join(command)} failed: {process.stderr.read().decode()}")
    return usage.ru_utime + usage.ru_stime, time.perf_counter() - start, usage.ru_maxrss / 1024


def nlu_entities(line):
    return {(e["entity"], e["start"], e["end"]) for e in json.loads(line)["entities"]}


def python_models():
    from recognizers_text import Culture
    from recognizers_number import NumberRecognizer
    from recognizers_number_with_unit import NumberWithUnitRecognizer
    from recognizers_date_time import DateTimeRecognizer
    from recognizers_sequence import SequenceRecognizer
    c = Culture.English
    n, u, d, s = NumberRecognizer(c), NumberWithUnitRecognizer(c), DateTimeRecognizer(c), SequenceRecognizer(c)
    return {
        "number": n.get_number_model(), "ordinal": n.get_ordinal_model(), "percentage": n.get_percentage_model(),
        "currency": u.get_currency_model(), "temperature": u.get_temperature_model(), "age": u.get_age_model(),
        "dimension": u.get_dimension_model(), "email": s.get_email_model(),
        "url": s.get_url_model(), "phonenumber": s.get_phone_number_model(), "datetime": d.get_datetime_model(),
    }


def python_entities(models, text, reference):
    """Per family, the set of (kind, start, end) with an exclusive end, as NLUKit reports them."""
    found = {}
    for family, model in models.items():
        results = model.parse(text, reference) if family == "datetime" else model.parse(text)
        entities = set()
        for r in results:
            kind = r.type_name.split(".")[-1] if r.type_name.startswith("datetimeV2") else r.type_name.split(".")[0]
            if kind == "timezone":
                continue
            entities.add((kind, r.start, r.end + 1))
        found[family] = entities
    return found


DUCKLING_DIMENSIONS = {
    "number": ["number"], "ordinal": ["ordinal"], "currency": ["amount-of-money"], "temperature": ["temperature"],
    "email": ["email"], "url": ["url"], "phonenumber": ["phone-number"], "datetime": ["time", "duration"],
}


def duckling_parser():
    """A function text, dimensions -> Duckling's entities, or None when no Duckling wrapper is installed."""
    try:
        import duckling
    except ImportError:
        return None
    zones = duckling.load_time_zones("/usr/share/zoneinfo")
    reference = datetime.datetime.fromisoformat(REFERENCE).replace(tzinfo=datetime.timezone.utc)
    context = duckling.Context(duckling.parse_ref_time(zones, "UTC", int(reference.timestamp())),
                               duckling.default_locale_lang(duckling.parse_lang("EN")))
    dimensions = {}

    def parse(text, names):
        key = tuple(names)
        if key not in dimensions:
            dimensions[key] = duckling.parse_dimensions(list(names))
        return duckling.parse(text, context, dimensions[key], False)
    return parse


def duckling_throughput(texts):
    parse = duckling_parser()
    if parse is None:
        print("Duckling: not installed (pip install --only-binary :all: pyduckling-native-phihos==0.3.0)")
        return
    every = sorted({d for names in DUCKLING_DIMENSIONS.values() for d in names})
    parse(texts[0], every)  # warm up
    cpu, start = time.process_time(), time.perf_counter()
    for text in texts:
        parse(text, every)
    seconds, wall = time.process_time() - cpu, time.perf_counter() - start
    rate = len(texts) / seconds
    print(f"Duckling (pyduckling-native-phihos): {seconds:.2f} CPU s for {len(texts)} utterances "
          f"({rate:,.0f} utterances/s; wall {wall:.2f} s)")
    return rate, parse


def duckling_agreement(nlu, texts, texts_path, parse):
    print(f"agreement with Duckling on all {len(texts)} utterances (spans, one family at a time):")
    print(f"  {'family':<12} {'same':>7} {'ours':>6} {'theirs':>7} {'precision':>10} {'recall':>7}")
    for family, names in DUCKLING_DIMENSIONS.items():
        _, _, lines = run_nlu(nlu, texts_path, FAMILIES[family])
        ours = [{(start, end) for _, start, end in nlu_entities(line)} for line in lines]
        theirs = [{(e["start"], e["end"]) for e in parse(text, names)} for text in texts]
        same = sum(a == b for a, b in zip(ours, theirs))
        both = sum(len(a & b) for a, b in zip(ours, theirs))
        n_ours, n_theirs = sum(map(len, ours)), sum(map(len, theirs))
        precision = both / n_ours if n_ours else float("nan")
        recall = both / n_theirs if n_theirs else float("nan")
        print(f"  {family:<12} {100 * same / len(texts):6.1f}% {n_ours:6d} {n_theirs:7d} {precision:10.2f} {recall:7.2f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--utterances", type=int, default=3000)
    parser.add_argument("--python-utterances", type=int, default=300)
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--long-line-only", action="store_true",
                        help="stop after NLUKit's timings (3000 utterances, one 1 MB line): no Python port, no Duckling")
    parser.add_argument("--nlu", help="an nlu binary to measure instead of .build/release/nlu (implies --skip-build)")
    args = parser.parse_args()

    nlu = args.nlu or nlu_binary(args.skip_build)
    texts = snips_utterances(args.utterances)
    subset = texts[:args.python_utterances]
    work = tempfile.mkdtemp(prefix="nlukit-builtins-")
    all_path, subset_path, empty_path, long_path = (os.path.join(work, n) for n in ("all.txt", "subset.txt", "empty.txt", "long.txt"))
    open(all_path, "w").write("\n".join(texts) + "\n")
    open(subset_path, "w").write("\n".join(subset) + "\n")
    open(empty_path, "w").write("")
    line = ""
    index = 0
    while len(line.encode()) < 1_000_000:
        line += texts[index % len(texts)] + ". "
        index += 1
    open(long_path, "w").write(line + "\n")

    print(f"machine: {machine()}; {len(texts)} Snips utterances (NLUKit), first {len(subset)} also through the Python port")
    def best(path):
        runs = [run_nlu(nlu, path) for _ in range(3)]
        return min(r[0] for r in runs), min(r[1] for r in runs)
    startup, _ = best(empty_path)
    swift_cpu, swift_wall = best(all_path)
    swift_seconds = swift_cpu - startup
    swift_rate = len(texts) / swift_seconds
    long_cpu, long_wall = best(long_path)
    print(f"NLUKit: {swift_seconds:.3f} CPU s for {len(texts)} utterances ({swift_rate:,.0f} utterances/s; "
          f"process start {startup*1000:.0f} ms excluded; wall {swift_wall:.3f} s)")
    long_seconds = long_cpu - startup
    print(f"NLUKit: one 1 MB line in {long_seconds:.3f} CPU s, all kinds (target {LONG_LINE_TARGET} CPU s: "
          f"{'met' if long_seconds <= LONG_LINE_TARGET else 'not met'}; wall {long_wall:.3f} s)")
    dense_path = os.path.join(work, "dense.txt")
    dense = "".join(f"{n} {n * 7 % 1000:03d} {n % 97}, " for n in range(1, 10**6))
    dense = dense[:10_000_000]
    open(dense_path, "w").write(dense[:dense.rindex(" ")] + "\n")
    dense_cpu, dense_wall, dense_peak = min(run_nlu_peak(nlu, dense_path) for _ in range(2))
    print(f"NLUKit: one 10 MB line of dense numbers in {dense_cpu - startup:.2f} CPU s "
          f"({(dense_cpu - startup) / 10:.3f} CPU s per MB; wall {dense_wall:.2f} s), peak resident {dense_peak:.0f} MB")
    if args.long_line_only:
        return 0

    duckling = duckling_throughput(texts)
    if duckling:
        print(f"throughput ratio NLUKit / Duckling: {swift_rate / duckling[0]:,.1f}x")
        duckling_agreement(nlu, texts, all_path, duckling[1])

    models = python_models()
    reference = datetime.datetime.fromisoformat(REFERENCE)
    cpu, start = time.process_time(), time.perf_counter()
    python_found = [python_entities(models, text, reference) for text in subset]
    python_seconds, python_wall = time.process_time() - cpu, time.perf_counter() - start
    python_rate = len(subset) / python_seconds
    print(f"Recognizers-Text (Python): {python_seconds:.1f} CPU s for {len(subset)} utterances "
          f"({python_rate:.2f} utterances/s; wall {python_wall:.1f} s)")
    print(f"throughput ratio NLUKit / Python port: {swift_rate / python_rate:,.0f}x")

    print("agreement on the Python subset (kinds asked one family at a time):")
    print(f"  {'family':<12} {'same':>7} {'ours':>6} {'theirs':>7} {'precision':>10} {'recall':>7}")
    for family, kinds in FAMILIES.items():
        _, _, lines = run_nlu(nlu, subset_path, kinds)
        ours = [nlu_entities(l) for l in lines]
        theirs = [found[family] for found in python_found]
        same = sum(a == b for a, b in zip(ours, theirs))
        both = sum(len(a & b) for a, b in zip(ours, theirs))
        n_ours, n_theirs = sum(map(len, ours)), sum(map(len, theirs))
        precision = both / n_ours if n_ours else float("nan")
        recall = both / n_theirs if n_theirs else float("nan")
        print(f"  {family:<12} {100 * same / len(subset):6.1f}% {n_ours:6d} {n_theirs:7d} {precision:10.2f} {recall:7.2f}")


if __name__ == "__main__":
    sys.exit(main())
