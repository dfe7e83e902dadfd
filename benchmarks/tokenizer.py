#!/usr/bin/env python3
"""BERT tokenizer throughput: NLUKit (release `nlu-bench tokenizer`) vs Hugging Face `tokenizers` (Rust),
single-threaded, same input, same run.

Input: the Snips utterances in ../shared/data/snips (read in place; some files are Latin-1), joined into
paragraphs of 1-12 utterances and repeated in shuffled order until >= 5 MB of English text, one
paragraph per line. Vocabulary: a 30,522-token uncased WordPiece vocabulary (BERT-base's size) trained
here on that text with the `tokenizers` trainer. Both sides encode every line with special tokens; the
totals of tokens and of ids must agree, so both do the same work.

Python side: `Tokenizer.encode` in a loop, and `encode_batch` with RAYON_NUM_THREADS=1. Three interleaved
rounds, best of each; throughput by CPU time (the machine may be shared) and by wall time.

Through the CLI, process against process: `nlu tokenizer encode --vocab V --file corpus --json` (release, output to
/dev/null) against a Python process that loads the same vocabulary into `tokenizers` and runs the encode
loop over the same lines (no output); each whole process timed from start to exit (wall, and user + system
CPU time from the OS), three interleaved rounds, best of each.
Usage: python3 benchmarks/tokenizer.py [--megabytes 5] [--skip-build]
"""
import json
import os
import random
import subprocess
import sys
import tempfile
import time

import scorecard  # benchmarks/, the script's own folder, is on the path

os.environ["RAYON_NUM_THREADS"] = "1"  # read when tokenizers starts its thread pool
os.environ["TOKENIZERS_PARALLELISM"] = "true"

import tokenizers  # noqa: E402
from tokenizers import BertWordPieceTokenizer  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def find_snips():
    """../shared/data/snips relative to the repository root (or to a parent, for git worktrees)."""
    directory = os.path.dirname(ROOT)
    while True:
        candidate = os.path.join(directory, "shared", "data", "snips")
        if os.path.isdir(candidate):
            return candidate
        if os.path.dirname(directory) == directory:
            sys.exit("../shared/data/snips not found")
        directory = os.path.dirname(directory)


SNIPS = find_snips()
megabytes = float(sys.argv[sys.argv.index("--megabytes") + 1]) if "--megabytes" in sys.argv else 5.0


def utterances():
    texts = []
    for name in sorted(os.listdir(SNIPS)):
        if not name.endswith(".json"):
            continue
        raw = open(os.path.join(SNIPS, name), "rb").read()
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            decoded = raw.decode("latin-1")
        for intent in json.loads(decoded).values():
            for example in intent:
                texts.append("".join(part["text"] for part in example["data"]).strip())
    return [t for t in texts if t]


rng = random.Random(7)
sentences = utterances()
lines, size = [], 0
while size < megabytes * 1_000_000:
    rng.shuffle(sentences)
    index = 0
    while index < len(sentences) and size < megabytes * 1_000_000:
        count = rng.randint(1, 12)
        paragraph = " ".join(s if s[-1] in ".?!" else s + "." for s in sentences[index:index + count])
        index += count
        lines.append(paragraph)
        size += len(paragraph.encode("utf-8")) + 1

work = tempfile.mkdtemp(prefix="nlukit-tokenizer-bench-")
corpus_path = os.path.join(work, "corpus.txt")
with open(corpus_path, "w", encoding="utf-8") as f:
    f.write("\n".join(lines))
trainer = BertWordPieceTokenizer(lowercase=True)
trainer.train_from_iterator(lines, vocab_size=30522, min_frequency=2, show_progress=False)
trainer.save_model(work)
vocab_path = os.path.join(work, "vocab.txt")
print(f"input: {len(lines)} lines, {size / 1e6:.1f} MB from {len(sentences)} Snips utterances; "
      f"vocabulary {trainer.get_vocab_size()} tokens; tokenizers {tokenizers.__version__}", file=sys.stderr)

# Release build of the Swift side (--skip-build: the one that is there, as the other scripts).
for product in () if "--skip-build" in sys.argv else ("nlu-bench", "nlu"):
    subprocess.run(["swift", "build", "-c", "release", "--product", product], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
rust = BertWordPieceTokenizer(vocab_path, lowercase=True)
with open(corpus_path, encoding="utf-8") as f:
    inputs = f.read().split("\n")


def swift_pass():
    out = subprocess.run([os.path.join(ROOT, ".build/release/nlu-bench"), "tokenizer", "--vocab", vocab_path,
                          "--input", corpus_path, "--repeats", "1"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def rust_pass(function):
    wall, cpu = time.perf_counter(), time.process_time()   # process time includes the rayon thread
    encodings = function()
    return time.perf_counter() - wall, time.process_time() - cpu, encodings


# Three rounds, the three contenders interleaved (the machine is shared); best of each.
best = {"nlukit": [float("inf")] * 2, "loop": [float("inf")] * 2, "batch": [float("inf")] * 2}
for _ in range(3):
    swift = swift_pass()
    best["nlukit"] = [min(best["nlukit"][0], swift["seconds"]), min(best["nlukit"][1], swift["cpu_seconds"])]
    for name, function in (("loop", lambda: [rust.encode(line) for line in inputs]),
                           ("batch", lambda: rust.encode_batch(inputs))):
        wall, cpu, encodings = rust_pass(function)
        best[name] = [min(best[name][0], wall), min(best[name][1], cpu)]
tokens = sum(len(e.ids) for e in encodings)
id_sum = sum(sum(e.ids) for e in encodings)
if (tokens, id_sum) != (swift["tokens"], swift["id_sum"]):
    sys.exit(f"token mismatch: Rust {tokens} tokens (id sum {id_sum}), NLUKit {swift['tokens']} ({swift['id_sum']})")

print(f"tokens: {tokens} per pass (same ids on both sides), {len(inputs)} inputs, {swift['bytes'] / 1e6:.1f} MB; "
      "best of 3 interleaved rounds; M tokens/s by CPU time (wall time)")
ours_cpu, ours_wall = tokens / best["nlukit"][1], tokens / best["nlukit"][0]
print(f"NLUKit BertTokenizer.encode (release, 1 thread): {ours_cpu / 1e6:6.2f} ({ours_wall / 1e6:.2f})")
for name, label in (("loop", "tokenizers encode loop (Rust via Python):       "),
                    ("batch", "tokenizers encode_batch, RAYON_NUM_THREADS=1:  ")):
    cpu, wall = tokens / best[name][1], tokens / best[name][0]
    print(f"{label} {cpu / 1e6:6.2f} ({wall / 1e6:.2f})   NLUKit ratio {ours_cpu / cpu:.2f}x ({ours_wall / wall:.2f}x)")


# Process against process: the CLI with its output against the Rust encode loop in a Python process.
RUST_PROCESS = """
import sys
from tokenizers import BertWordPieceTokenizer
tokenizer = BertWordPieceTokenizer(sys.argv[1], lowercase=True)
with open(sys.argv[2], encoding="utf-8") as f:
    lines = f.read().split("\\n")
for line in lines:
    tokenizer.encode(line)
"""


def timed_process(command):
    """Wall seconds and CPU seconds (user + system, from the OS) of one whole process."""
    before = os.times()
    wall = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env={**os.environ, "RAYON_NUM_THREADS": "1"})
    wall = time.perf_counter() - wall
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


cli = {"nlu": [float("inf")] * 2, "rust": [float("inf")] * 2}
for _ in range(3):
    for name, command in (("nlu", [os.path.join(ROOT, ".build/release/nlu"), "tokenizer", "encode", "--vocab", vocab_path,
                                   "--file", corpus_path, "--json"]),
                          ("rust", [sys.executable, "-c", RUST_PROCESS, vocab_path, corpus_path])):
        wall, cpu = timed_process(command)
        cli[name] = [min(cli[name][0], wall), min(cli[name][1], cpu)]
print(f"whole processes over the same {len(inputs)} lines, best of 3 interleaved rounds, seconds by CPU time (wall time):")
print(f"nlu tokenizer encode --file --json (release, output to /dev/null): {cli['nlu'][1]:6.2f} ({cli['nlu'][0]:.2f})")
print(f"python3 + tokenizers encode loop (no output):             {cli['rust'][1]:6.2f} ({cli['rust'][0]:.2f})   "
      f"nlu ratio {cli['rust'][1] / cli['nlu'][1]:.2f}x ({cli['rust'][0] / cli['nlu'][0]:.2f}x)")
scorecard.record("tokenizer", "nlu tokenizer encode --file vs Rust tokenizers encode loop (CPU time)", cli["rust"][1] / cli["nlu"][1],
                 ">=", 3)
