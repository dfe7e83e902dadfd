#!/usr/bin/env python3
"""In-process latency of a conversation turn (parse + dialogue step): `nlu-bench dialogue` on two bots.

1. Rasa's formbot (Tests/Fixtures/dialogue/rasa-formbot) driven by button payloads (`/inform{"cuisine": "thai"}`):
   the payload parse and the rule dialogue's step (form loop, rules, stories, /restart);
2. Watson's car dashboard (Tests/Fixtures/dialogue/watson-car-dashboard) driven by typed text, parsed by an
   intents model trained on the same workspace (`--car-model`, made with `nlu intents train ... -o car.nlumodel`).

Prints one JSON object per bot (p50/p99 of the whole turn, of the parse, of the step) next to issue 43's target
(a turn <= 1 ms at p99). Wall-clock times on a shared machine: report the load average beside them.

Usage:
  python3 -P benchmarks/dialogue_turn.py --bench .build/release/nlu-bench [--car-model car.nlumodel] [--passes 200]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMBOT = os.path.join(ROOT, "Tests", "Fixtures", "dialogue", "rasa-formbot")
CAR = os.path.join(ROOT, "Tests", "Fixtures", "dialogue", "watson-car-dashboard", "car_workspace.json")

FORMBOT_CONVERSATIONS = [
    ["/greet", "/request_restaurant", '/inform{"cuisine": "thai"}', '/inform{"number": 4}', "/affirm", "/deny",
     '/inform{"feedback": "great"}', "/thankyou"],
    ["/request_restaurant", "/chitchat", '/inform{"cuisine": "indian"}', "/restart", "/request_restaurant", "/stop", "/deny"],
]
CAR_CONVERSATIONS = [
    ["hi there", "turn on the lights", "find a restaurant nearby", "pasta please", "number 2", "tomorrow", "at 7pm"],
    ["turn on the wipers", "play some music", "what is the weather like", "turn off the lights", "turn up the heater"],
]


def run(bench, dialogue, conversations, model, passes):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write("\n\n".join("\n".join(lines) for lines in conversations) + "\n")
        path = handle.name
    try:
        command = [bench, "dialogue", "--dialogue", dialogue, "--conversations", path, "--passes", str(passes)]
        if model:
            command += ["--model", model]
        done = subprocess.run(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        if done.returncode != 0:
            sys.exit(f"{' '.join(command)} failed:\n{done.stderr.decode(errors='replace')[-2000:]}")
        return json.loads(done.stdout)
    finally:
        os.remove(path)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bench", required=True, help="the nlu-bench executable")
    parser.add_argument("--car-model", help="an intents model trained on the car dashboard workspace")
    parser.add_argument("--passes", type=int, default=200)
    args = parser.parse_args()
    results = {"formbot_payloads": run(args.bench, FORMBOT, FORMBOT_CONVERSATIONS, None, args.passes)}
    if args.car_model:
        results["car_dashboard_text"] = run(args.bench, CAR, CAR_CONVERSATIONS, args.car_model, args.passes)
    results["load_average"] = os.getloadavg()
    print(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
