#!/usr/bin/env python3
"""Load benchmark of the conversation route of `nlu serve --dialogue` on loopback.

Each of --clients threads holds one keep-alive connection and one conversation of its own and sends
turns to POST /conversations/{id}/messages for --duration seconds (texts parsed by the intents model,
or with --parsed, messages already parsed, to measure the dialogue and store alone). Prints turns/s,
latency percentiles (p50, p90, p99) and errors, and the ratio to issue 43's targets (>= 3,000 turns/s,
p99 < 20 ms on 2 cores). Standard library only; the Python client takes CPU from the server on 2 cores,
so the figures are a floor (wrk on the same route is the tighter measurement).

Usage:
  python3 -P benchmarks/dialogue_server.py --url http://127.0.0.1:5005 [--clients 16] [--duration 10] [--parsed]
  python3 -P benchmarks/dialogue_server.py --nlu .build/release/nlu --intents car.nlumodel \
      --dialogue Tests/Fixtures/dialogue/watson-car-dashboard/car_workspace.json [--conversations FILE|postgres://...]
"""
import argparse
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

TEXTS = ["turn on the lights", "switch the radio on", "turn off the wipers", "what is the weather like",
         "find me a restaurant", "thai food", "the second one", "turn up the heater"]
PARSED = [
    {"text": "turn on the lights", "intents": [{"intent": "turn_on", "confidence": 0.9}],
     "entities": [{"entity": "appliance", "value": "lights"}]},
    {"text": "turn off the lights", "intents": [{"intent": "turn_off", "confidence": 0.9}],
     "entities": [{"entity": "appliance", "value": "lights"}]},
    {"text": "hello", "intents": [{"intent": "greetings", "confidence": 0.9}], "entities": []},
    {"text": "what's the weather", "intents": [{"intent": "weather", "confidence": 0.9}], "entities": []},
]


def percentile(sorted_values, fraction):
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, int(round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


def client(host, port, number, deadline, parsed, latencies, errors, token):
    connection = http.client.HTTPConnection(host, port, timeout=30)
    conversation = f"bench-{os.getpid()}-{number}"
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    turn = 0
    mine = []
    failures = 0
    while time.perf_counter() < deadline:
        if parsed:
            body = json.dumps({"message": PARSED[turn % len(PARSED)]})
        else:
            body = json.dumps({"text": TEXTS[turn % len(TEXTS)]})
        turn += 1
        start = time.perf_counter()
        try:
            connection.request("POST", f"/conversations/{conversation}/messages", body=body, headers=headers)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                failures += 1
        except (OSError, http.client.HTTPException):
            failures += 1
            connection.close()
            connection = http.client.HTTPConnection(host, port, timeout=30)
            continue
        mine.append(time.perf_counter() - start)
    connection.close()
    latencies.extend(mine)
    errors.append(failures)


def start_server(args):
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    command = [args.nlu, "serve", "--intents", args.intents, "--dialogue", args.dialogue, "--port", str(port),
               "--log-level", "warning", "--conversations", args.conversations]
    # The log goes to a temporary file, not a pipe this script would never read (a full pipe used to stop the
    # server: docs/server.md, "Logs").
    log = tempfile.TemporaryFile()
    server = subprocess.Popen(command, stderr=log)
    for _ in range(300):
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return server, f"http://127.0.0.1:{port}"
        except OSError:
            time.sleep(0.1)
    server.kill()
    log.seek(0)
    sys.exit("the server did not start: " + log.read().decode(errors="replace")[-2000:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--url", help="a running server")
    parser.add_argument("--nlu", help="the nlu binary to start (with --intents and --dialogue)")
    parser.add_argument("--intents")
    parser.add_argument("--dialogue")
    parser.add_argument("--conversations", default="memory")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--parsed", action="store_true", help="send already parsed messages (no intents model)")
    parser.add_argument("--token", default=os.environ.get("NLUKIT_TOKEN"))
    args = parser.parse_args()
    if not (1 <= args.clients <= 1024) or not (0.5 <= args.duration <= 3600):
        parser.error("--clients must be 1...1024 and --duration 0.5...3600 seconds")
    server = None
    if args.url:
        url = args.url
    elif args.nlu and args.intents and args.dialogue:
        server, url = start_server(args)
    else:
        parser.error("give --url, or --nlu with --intents and --dialogue")
    parts = urllib.parse.urlparse(url)
    try:
        latencies, errors = [], []
        deadline = time.perf_counter() + args.duration
        started = time.perf_counter()
        threads = [threading.Thread(target=client, args=(parts.hostname, parts.port or 80, number, deadline, args.parsed,
                                                         latencies, errors, args.token))
                   for number in range(args.clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.perf_counter() - started
    finally:
        if server:
            server.terminate()
            server.wait(timeout=30)
    latencies.sort()
    turns = len(latencies)
    rate = turns / elapsed
    p50, p90, p99 = (percentile(latencies, f) * 1000 for f in (0.5, 0.9, 0.99))
    result = {"route": "POST /conversations/{id}/messages", "messages": "parsed" if args.parsed else "text",
              "clients": args.clients, "seconds": round(elapsed, 2), "turns": turns, "errors": sum(errors),
              "turns_per_second": round(rate, 1), "p50_ms": round(p50, 3), "p90_ms": round(p90, 3), "p99_ms": round(p99, 3),
              "target_turns_per_second_ratio": round(rate / 3000, 3), "target_p99_ratio": round(p99 / 20, 3)}
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
