#!/usr/bin/env python3
"""Two `nlu` release binaries on the same CLI workloads, alternated: did a refactoring change the speed?

Each round runs both binaries, one after the other, on: one question over a ~350-token context with a BERT-base
QA checkpoint of random weights (benchmarks/qa.py's model and vocabulary); 480 sentences through all-MiniLM-L6-v2
(`nlu embed`); training an intents model on the car-dashboard workspace and predicting its first 200 examples.
One thread each (NLUKIT_THREADS=1, OPENBLAS_NUM_THREADS=1), so CPU seconds (user + sys, loading included) move
less with the machine's load than wall time. Prints each workload's median over the rounds and the ratio.

    python3 benchmarks/cli_before_after.py --before OLD/.build/release/nlu --after .build/release/nlu --rounds 5

Needs the MiniLM cache (scripts/install-minilm.sh) and torch + transformers for the QA model (written once to
--work). Both binaries must accept `nlu embed --model M --input F` (the default subcommand after the rename).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benchmarks"))


def prepare(work):
    os.makedirs(work, exist_ok=True)
    model = os.path.join(work, "bert-base-qa")
    if not os.path.exists(os.path.join(model, "model.safetensors")):
        import qa
        qa.build_model(model)
    context = os.path.join(work, "context.txt")
    if not os.path.exists(context):
        import qa
        import random
        random.seed(1)
        words = [w for w in qa.synthetic_vocab()[2000:30000] if w.isalpha()]
        with open(context, "w") as f:
            f.write(" ".join(random.choice(words) for _ in range(330)))
    sentences = os.path.join(work, "sentences.txt")
    with open(os.path.join(ROOT, "Samples/embeddings/faq.txt")) as f:
        faq = f.read()
    with open(sentences, "w") as f:
        f.write(faq * 40)
    workspace = os.path.join(ROOT, "Tests/Fixtures/dialogue/watson-car-dashboard/car_workspace.json")
    with open(workspace) as f:
        examples = [e["text"] for i in json.load(f)["intents"] for e in i["examples"]][:200]
    utterances = os.path.join(work, "utterances.txt")
    with open(utterances, "w") as f:
        f.write("\n".join(examples) + "\n")
    return model, context, sentences, workspace, utterances


def cpu_seconds(command, stdin=None):
    """User + sys CPU seconds of one child process (wait4's rusage)."""
    with open(stdin) if stdin else open(os.devnull) as source:
        process = subprocess.Popen(command, stdin=source, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        _, status, usage = os.wait4(process.pid, 0)
        error = process.stderr.read().decode(errors="replace")
    if status != 0:
        sys.exit(f"failed ({status}): {' '.join(command)}\n{error[-2000:]}")
    return usage.ru_utime + usage.ru_stime


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--before", required=True)
    parser.add_argument("--after", required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", default="/tmp/nlukit-cli-before-after")
    args = parser.parse_args()
    if not 1 <= args.rounds <= 100:
        parser.error("--rounds must be 1...100")
    os.environ.update(NLUKIT_THREADS="1", OPENBLAS_NUM_THREADS="1")
    model, context, sentences, workspace, utterances = prepare(args.work)
    times = {}
    for _ in range(args.rounds):
        for side, nlu in (("before", args.before), ("after", args.after)):
            package = os.path.join(args.work, f"car-{side}.nlumodel")
            subprocess.run(["rm", "-rf", package], check=True)
            runs = [
                ("qa", [nlu, "qa", "ask", "--model", model, "--question", "who was the city", "--context-file", context], None),
                ("embed", [nlu, "embed", "--model", "sentence-transformers/all-MiniLM-L6-v2", "--input", sentences], None),
                ("intents train", [nlu, "intents", "train", workspace, "-o", package], None),
                ("intents predict", [nlu, "intents", "predict", "-m", package, "-"], utterances),
            ]
            for name, command, stdin in runs:
                times.setdefault(name, {}).setdefault(side, []).append(cpu_seconds(command, stdin))
    print(f"load average {os.getloadavg()[0]:.1f}; CPU seconds, median of {args.rounds} rounds, one thread")
    print(f"{'workload':16} {'before':>8} {'after':>8} {'after/before':>13}")
    for name, sides in times.items():
        before, after = statistics.median(sides["before"]), statistics.median(sides["after"])
        print(f"{name:16} {before:8.2f} {after:8.2f} {after / before:13.2f}")


if __name__ == "__main__":
    main()
