#!/usr/bin/env python3
"""Issue 44, item 4: batching across server requests. 64 clients (wrk connections) each post one sentence
at a time to an OpenAI-shaped embeddings route, for --duration seconds per server, on loopback:

  - `nlu serve --embed MODEL --max-batch 1`        (each request its own encoder call: the server before batching)
  - `nlu serve --embed MODEL` with each --batching setting (`MAX_BATCH:WINDOW_MS`, default the server's own)
  - `infinity_emb v2 --model-id MODEL` (PyPI infinity-emb, its own dynamic batching; torch engine on the CPU)

and prints requests/s, p50/p99 latency and errors per server, the ratios of batching on to off and to
infinity-emb against the targets (>= 2x both), the machine and the load average around each run. Every
server gets the same wrk (2 threads, same 2 cores as the server: the figures are the pair's), the same
sentences in the same order, the same warm-up. The vectors of nlu and infinity-emb for one sentence are
compared (cosine), so both serve the same model.

Usage:
  python3 -P benchmarks/server_batching.py --nlu /tmp/h44rel/.build/release/nlu \
      [--infinity /tmp/infvenv/bin/infinity_emb] [--model sentence-transformers/all-MiniLM-L6-v2] \
      [--connections 64] [--duration 20] [--batching 64:2 --batching 32:0 ...] [--rounds 1]
Needs: wrk (apt-get install wrk); the model in the Hugging Face cache (HF_HUB_OFFLINE=1 is set for both).
infinity-emb goes in a venv of its own: python3 -m venv --system-site-packages /tmp/infvenv &&
/tmp/infvenv/bin/pip install 'infinity-emb[server,torch]' (the main Python's torch and transformers stay).
"""
import argparse
import http.client
import json
import math
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import blas_env  # noqa: E402
import scorecard  # noqa: E402

# Sentences of everyday lengths (5-30 words), as chat messages and search queries are.
SENTENCES = [
    "How do I reset my password?",
    "The quick brown fox jumps over the lazy dog.",
    "What is the weather going to be like in Paris tomorrow afternoon?",
    "Turn on the lights in the living room.",
    "A man is eating a piece of bread while reading the morning newspaper at the kitchen table.",
    "Where is the nearest train station?",
    "Machine learning models need a lot of data to generalize well to new examples.",
    "Please cancel my subscription and refund the last payment.",
    "The meeting has been moved to Thursday at three o'clock.",
    "Can you recommend a good Italian restaurant near the city center that is open late on Sundays?",
    "I lost my credit card yesterday evening.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "Book a table for two at eight.",
    "The new phone has a better camera, a larger battery and a faster processor than last year's model.",
    "How many calories are in an apple?",
    "Our team won the match three goals to one after a difficult first half.",
]

LUA = r"""
-- One sentence per request, the sentences in turn; each wrk thread starts at its own place.
local sentences = {%s}
local path = "%s"
local model = "%s"
local counter = 0
init = function(args) counter = math.random(#sentences) end
request = function()
  counter = counter %% #sentences + 1
  local body = '{"input": ["' .. sentences[counter] .. '"], "model": "' .. model .. '"}'
  return wrk.format("POST", path, {["Content-Type"] = "application/json"}, body)
end
"""


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def post(port, path, body, timeout=60):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    connection.request("POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"})
    response = connection.getresponse()
    return response.status, response.read()


def wait_healthy(port, process, log, seconds=300):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if process.poll() is not None:
            break
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    process.kill()
    log.seek(0)
    sys.exit("the server did not start: " + log.read().decode(errors="replace")[-3000:])


def start(command, port, environment):
    # The log goes to a file, not a pipe nobody reads (a full pipe stops a server: docs/server.md, "Logs").
    log = tempfile.TemporaryFile()
    process = subprocess.Popen(command, stdout=log, stderr=log, env=environment)
    wait_healthy(port, process, log)
    return process, log


def stop(process):
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def parse_wrk(text):
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", text).group(1))

    def milliseconds(label):
        match = re.search(r"^\s+%s%%\s+([\d.]+)(us|ms|s)\s*$" % label, text, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    errors = 0
    socket_errors = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", text)
    if socket_errors:
        errors += sum(int(group) for group in socket_errors.groups())
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", text)
    if non2xx:
        errors += int(non2xx.group(1))
    requests = int(re.search(r"(\d+) requests in", text).group(1))
    return {"rps": rps, "p50": milliseconds("50"), "p99": milliseconds("99"), "errors": errors, "requests": requests}


def load_average():
    with open("/proc/loadavg") as file:
        return " ".join(file.read().split()[:3])


def measure(name, port, path, model, args):
    sentences = ", ".join(json.dumps(sentence) for sentence in SENTENCES)
    with tempfile.NamedTemporaryFile("w", suffix=".lua", delete=False) as script:
        script.write(LUA % (sentences, path, model))
    url = f"http://127.0.0.1:{port}"
    try:
        subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.warmup}s", "-s", script.name, url],
                       check=True, capture_output=True)
        before = load_average()
        run = subprocess.run(["wrk", "-t2", f"-c{args.connections}", f"-d{args.duration}s", "--timeout", "10s", "--latency",
                              "-s", script.name, url], check=True, capture_output=True, text=True)
        result = parse_wrk(run.stdout)
        result["load"] = f"{before} -> {load_average()}"
        result["name"] = name
        return result
    finally:
        os.unlink(script.name)


def nlu_server(args, extra, environment):
    port = free_port()
    command = [args.nlu, "serve", "--embed", args.model, "--port", str(port), "--log-level", "warning"] + extra
    process, log = start(command, port, environment)
    return process, port


def infinity_server(args, environment):
    port = free_port()
    command = [args.infinity, "v2", "--model-id", args.model, "--port", str(port), "--host", "127.0.0.1",
               "--engine", "torch", "--device", "cpu", "--batch-size", str(args.infinity_batch_size),
               "--log-level", "warning"]  # no line per request, as nlu's --log-level warning
    process, log = start(command, port, environment)
    return process, port


def embedding(port, path, model, sentence):
    status, body = post(port, path, {"input": [sentence], "model": model})
    if status != 200:
        sys.exit(f"{path} answered {status}: {body[:500]!r}")
    return json.loads(body)["data"][0]["embedding"]


def cosine(a, b):
    dot = sum(x * y for x, y in zip(a, b))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nlu", required=True, help="the nlu binary (a release build)")
    parser.add_argument("--infinity", help="infinity-emb's infinity_emb command (in its own venv); without it, NLUKit alone")
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2")
    parser.add_argument("--connections", type=int, default=64)
    parser.add_argument("--duration", type=int, default=20)
    parser.add_argument("--warmup", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=1, help="rounds over all servers, interleaved; the medians are reported")
    parser.add_argument("--batching", action="append", default=[],
                        help="MAX_BATCH:WINDOW_MS for nlu with batching (repeatable; default: the server's defaults)")
    parser.add_argument("--infinity-batch-size", type=int, default=32)
    args = parser.parse_args()
    if not shutil.which("wrk"):
        sys.exit("wrk is missing: apt-get install wrk")
    if not (1 <= args.connections <= 1000 and 1 <= args.duration <= 3600 and 1 <= args.rounds <= 20):
        parser.error("--connections 1...1000, --duration 1...3600 s, --rounds 1...20")
    # Offline, and no usage reports from infinity-emb (this machine has no way out).
    environment = dict(os.environ, HF_HUB_OFFLINE="1", TRANSFORMERS_OFFLINE="1", INFINITY_ANONYMOUS_USAGE_STATS="0", DO_NOT_TRACK="1")
    core = blas_env.core_type()
    if core:
        environment["OPENBLAS_CORETYPE"] = core
    print(f"machine: {blas_env.cpu_name()} ({blas_env.cpu_identity()}), {os.cpu_count()} cores; load {load_average()}")
    print(f"model {args.model}; wrk -t2 -c{args.connections} -d{args.duration}s after a {args.warmup} s warm-up; "
          f"one sentence per request ({len(SENTENCES)} sentences of 6-20 words in turn)")

    servers = [("nlu, batching off (--max-batch 1)", ["--max-batch", "1"])]
    for setting in args.batching or [""]:
        if setting:
            max_batch, window = setting.split(":")
            servers.append((f"nlu, batching on (--max-batch {max_batch} --batch-window-ms {window})",
                            ["--max-batch", max_batch, "--batch-window-ms", window]))
        else:
            servers.append(("nlu, batching on (defaults)", []))
    results = {name: [] for name, _ in servers}
    if args.infinity:
        results["infinity-emb"] = []

    reference = None
    for round_number in range(args.rounds):
        for name, extra in servers:
            process, port = nlu_server(args, extra, environment)
            try:
                if reference is None:
                    reference = embedding(port, "/v1/embeddings", args.model, SENTENCES[0])
                results[name].append(measure(name, port, "/v1/embeddings", args.model, args))
            finally:
                stop(process)
            print(f"  round {round_number + 1}: {name}: {results[name][-1]['rps']:.0f} req/s, load {results[name][-1]['load']}", flush=True)
        if args.infinity:
            process, port = infinity_server(args, environment)
            try:
                vector = embedding(port, "/embeddings", args.model, SENTENCES[0])
                if round_number == 0:
                    print(f"  cosine of nlu's and infinity-emb's vectors for {SENTENCES[0]!r}: {cosine(reference, vector):.6f}")
                results["infinity-emb"].append(measure("infinity-emb", port, "/embeddings", args.model, args))
            finally:
                stop(process)
            print(f"  round {round_number + 1}: infinity-emb: {results['infinity-emb'][-1]['rps']:.0f} req/s, "
                  f"load {results['infinity-emb'][-1]['load']}", flush=True)

    def median(name, key):
        values = sorted(run[key] for run in results[name])
        return values[len(values) // 2]

    print()
    print(f"| server | requests/s | p50 ms | p99 ms | errors | load average (1, 5, 15 min) before -> after |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name in results:
        print(f"| {name} | {median(name, 'rps'):.0f} | {median(name, 'p50'):.1f} | {median(name, 'p99'):.1f} | "
              f"{sum(run['errors'] for run in results[name])} | {results[name][-1]['load']} |")
    off = median(servers[0][0], "rps")
    for name, _ in servers[1:]:
        on = median(name, "rps")
        line = f"{name}: {on / off:.2f}x batching off (target >= 2)"
        if args.infinity:
            line += f", {on / median('infinity-emb', 'rps'):.2f}x infinity-emb (target >= 2)"
        print(line)
        if name == servers[1][0]:  # the server's own defaults carry the targets
            clients = f"{args.connections} clients"
            scorecard.record("batching", f"{clients}, requests/s batching on vs off (p99 {median(name, 'p99'):.0f} ms)",
                             on / off, ">=", 2.0, issue=44)
            if args.infinity:
                scorecard.record("batching", f"{clients}, requests/s vs infinity-emb", on / median("infinity-emb", "rps"),
                                 ">=", 2.0, issue=44)


if __name__ == "__main__":
    main()
