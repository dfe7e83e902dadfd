#!/usr/bin/env python3
"""Rasa itself and `nlu serve --dialogue` on Rasa's formbot, side by side on loopback.

Both servers get the same conversations: formbot button presses (Rasa payload messages such as
`/inform{"cuisine": "thai"}`), a chitchat digression, `/restart` in the middle of the form, the "stop" stories,
and a malformed payload. Rasa gets each payload through its REST channel (`POST /webhooks/rest/webhook`);
NLUKit through the same route (`--ours webhook`: needs a build with payload messages) or through
`POST /conversations/{id}/messages` with the same message already parsed (`--ours parsed`: any build, the
parse being the payload's, written here). Reports:

1. correctness: per turn, the bot's texts of both; at the end of each conversation, every formbot slot in
   Rasa's tracker (`GET /conversations/{id}/tracker`) and in NLUKit's state (`GET /conversations/{id}`);
2. speed: --clients threads, each with a keep-alive connection, loop over the conversations (new sender ids each
   time) for --duration seconds against each server in turn: turns/s, p50, p99. One Python client process for
   both; on 2 shared cores it takes CPU from the server, so both figures are floors.

Rasa's project is prepared in a temporary folder from the fixture: `rasa data migrate` turns the Rasa 2 domain
into Rasa 3's, the `validate_restaurant_form` action (Python, no action server here; NLUKit skips it too) is
dropped, and `rasa train core` trains MemoizationPolicy + RulePolicy (no TED: deterministic, as NLUKit's rules).

Pinned: rasa==3.6.21 on Python 3.10 (`python3.10 -m venv /tmp/rasa-venv && /tmp/rasa-venv/bin/pip install rasa==3.6.21`).

Usage:
  python3 -P benchmarks/dialogue_rasa.py --rasa /tmp/rasa-venv/bin/rasa --nlu /tmp/rel/.build/release/nlu \
      --intents /tmp/car.nlumodel [--ours parsed|webhook] [--clients 8] [--duration 10]
(--intents: any intents model; the release `nlu serve --dialogue` of before payload messages requires one.)
"""
import argparse
import http.client
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FORMBOT = os.path.join(ROOT, "Tests", "Fixtures", "dialogue", "rasa-formbot")
SLOTS = ["cuisine", "num_people", "outdoor_seating", "preferences", "feedback", "requested_slot"]


def payload(text, intent, **entities):
    """A payload text and the message it parses to (Rasa's RegexMessageHandler: confidence 1, entities from the JSON)."""
    start = len("/" + intent)
    end = len(text)
    mentions = []
    for name, value in entities.items():
        mention = {"entity": name, "value": str(value), "start": start, "end": end}
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            mention["number"] = value
        mentions.append(mention)
    return text, {"text": text, "intents": [{"intent": intent, "confidence": 1.0}], "entities": mentions}


def button(intent, **entities):
    return payload("/" + intent + (json.dumps(entities) if entities else ""), intent, **entities)


CONVERSATIONS = {
    "buttons fill the form": [
        button("greet"), button("request_restaurant"), button("inform", cuisine="thai"), button("inform", number=4),
        button("affirm"), button("deny"), button("inform", feedback="great"), button("thankyou"),
    ],
    "chitchat inside the form": [
        button("request_restaurant"), button("chitchat"), button("inform", cuisine="indian"), button("inform", number=2),
        button("inform", seating="outside"), button("deny"), button("inform", feedback="fine"),
    ],
    "restart inside the form": [
        button("greet"), button("request_restaurant"), button("inform", cuisine="thai"), button("restart"),
        button("request_restaurant"), button("inform", cuisine="greek"),
    ],
    "stop form + stop": [
        button("request_restaurant"), button("stop"), button("deny"), button("bot_challenge"),
    ],
    "stop form + continue": [
        button("request_restaurant"), button("stop"), button("affirm"), button("inform", cuisine="thai"),
    ],
    "back inside the form": [
        button("request_restaurant"), button("inform", cuisine="thai"), button("back"), button("inform", cuisine="greek"),
        button("inform", number=3), button("back"), button("back"), button("inform", number=5),
    ],
    "malformed payload": [
        button("request_restaurant"),
        ('/inform{"cuisine": thai}', {"text": '/inform{"cuisine": thai}', "intents": [{"intent": "inform", "confidence": 1.0}],
                                      "entities": []}),
        button("inform", cuisine="thai"),
    ],
}


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_until_up(port, process, path, what, log_path, tries=1200):
    for _ in range(tries):
        if process.poll() is not None:
            with open(log_path, errors="replace") as log:
                sys.exit(f"{what} stopped: " + log.read()[-3000:])
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", path)
            if connection.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.25)
    process.kill()
    sys.exit(f"{what} did not start")


def prepare_rasa(rasa, folder, edit_rules=None):
    """The fixture as a Rasa 3 project, trained; returns the model's path. `edit_rules`, if given, rewrites the text
    of data/rules.yml before training (the fixture scripts vary a rule)."""
    for name in ["domain.yml", "data", "tests"]:
        source = os.path.join(FORMBOT, name)
        (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, os.path.join(folder, name))
    if edit_rules:
        rules = os.path.join(folder, "data", "rules.yml")
        with open(rules) as handle:
            edited = edit_rules(handle.read())
        with open(rules, "w") as handle:
            handle.write(edited)
    domain = os.path.join(folder, "domain.yml")
    with open(domain) as handle:
        text = handle.read()
    # The fixture lists `actions: [validate_restaurant_form]` twice (a duplicate key Rasa 3's YAML reader refuses),
    # and the validation action needs an action server: both copies go.
    text = text.replace("actions:\n- validate_restaurant_form\n\n", "")
    with open(domain, "w") as handle:
        handle.write(text)
    with open(os.path.join(folder, "config.yml"), "w") as handle:
        handle.write("recipe: default.v1\nassistant_id: formbot-bench\nlanguage: en\npipeline: []\n"
                     "policies:\n  - name: MemoizationPolicy\n  - name: RulePolicy\n")
    run = dict(cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    migrated = subprocess.run([rasa, "data", "migrate", "-d", "domain.yml", "--out", "domain3.yml"], **run)
    if migrated.returncode != 0:
        sys.exit("rasa data migrate failed:\n" + migrated.stdout.decode(errors="replace")[-3000:])
    os.replace(os.path.join(folder, "domain3.yml"), domain)
    for leftover in ["original_domain.yml"]:
        if os.path.exists(os.path.join(folder, leftover)):
            os.remove(os.path.join(folder, leftover))
    trained = subprocess.run([rasa, "train", "core", "--fixed-model-name", "formbot"], **run)
    if trained.returncode != 0:
        sys.exit("rasa train core failed:\n" + trained.stdout.decode(errors="replace")[-3000:])
    return os.path.join(folder, "models", "formbot.tar.gz")


class Client:
    """One keep-alive connection to one server, speaking its route."""

    def __init__(self, port, kind):
        self.port, self.kind = port, kind
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=15)

    def request(self, method, path, body=None):
        data = None if body is None else json.dumps(body)
        headers = {"Content-Type": "application/json"} if data else {}
        for attempt in range(2):
            try:
                self.connection.request(method, path, body=data, headers=headers)
                response = self.connection.getresponse()
                return response.status, json.loads(response.read() or b"null")
            except (OSError, http.client.HTTPException):
                self.connection.close()
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=15)
                if attempt:
                    raise
        raise AssertionError("unreachable")

    def turn(self, sender, text, parsed):
        """The bot's texts for one message."""
        if self.kind == "parsed":
            status, body = self.request("POST", f"/conversations/{sender}/messages", {"message": parsed})
            if status != 200:
                raise RuntimeError(f"{status} {body}")
            return [r["text"] for r in body["responses"] if r.get("type") == "text"]
        status, body = self.request("POST", "/webhooks/rest/webhook", {"sender": sender, "message": text})
        if status != 200:
            raise RuntimeError(f"{status} {body}")
        return [m["text"] for m in body if "text" in m]

    def slots(self, sender):
        if self.kind == "rasa":
            status, body = self.request("GET", f"/conversations/{sender}/tracker")
            return {name: body["slots"].get(name) for name in SLOTS}
        status, body = self.request("GET", f"/conversations/{sender}")
        context = body["state"]["context"]
        return {name: context.get(name) for name in SLOTS}


def opening(kind, client, sender):
    """NLUKit's conversation starts with its opening turn (silent for a Rasa dialogue); Rasa's with its session
    start (silent too). Nothing to send: both begin at the first message."""
    return []


def same_slot(a, b):
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool) and not isinstance(b, bool):
        return abs(a - b) < 1e-9
    return a == b


def compare(rasa_client, ours_client, tag):
    report = []
    agreed_turns = turns = agreed_slots = slot_checks = 0
    for name, steps in CONVERSATIONS.items():
        sender = f"{tag}-{name.replace(' ', '-').replace('+', 'and')}"
        for text, parsed in steps:
            theirs, mine = [], []
            try:
                theirs = rasa_client.turn(sender, text, parsed)
            except RuntimeError as error:
                theirs = [f"(error: {error})"]
            try:
                mine = ours_client.turn(sender, text, parsed)
            except RuntimeError as error:
                mine = [f"(error: {error})"]
            turns += 1
            agreed_turns += theirs == mine
            if theirs != mine:
                report.append({"conversation": name, "message": text, "rasa": theirs, "nlukit": mine})
        theirs, mine = rasa_client.slots(sender), ours_client.slots(sender)
        for slot in SLOTS:
            slot_checks += 1
            if same_slot(theirs[slot], mine[slot]):
                agreed_slots += 1
            else:
                report.append({"conversation": name, "slot": slot, "rasa": theirs[slot], "nlukit": mine[slot]})
    return {"turns": turns, "turns_agreeing": agreed_turns, "slot_checks": slot_checks, "slots_agreeing": agreed_slots,
            "differences": report}


def load(port, kind, clients, duration):
    latencies, errors = [], []
    deadline = time.perf_counter() + duration

    def worker(number):
        client = Client(port, kind)
        mine, failures, round_number = [], 0, 0
        while time.perf_counter() < deadline:
            for name, steps in CONVERSATIONS.items():
                sender = f"load-{kind}-{os.getpid()}-{number}-{round_number}-{len(name)}"
                for text, parsed in steps:
                    start = time.perf_counter()
                    try:
                        client.turn(sender, text, parsed)
                    except (RuntimeError, OSError, http.client.HTTPException):
                        failures += 1
                        continue
                    mine.append(time.perf_counter() - start)
                if time.perf_counter() >= deadline:
                    break
            round_number += 1
        latencies.extend(mine)
        errors.append(failures)

    started = time.perf_counter()
    threads = [threading.Thread(target=worker, args=(number,)) for number in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    latencies.sort()

    def percentile(fraction):
        return latencies[min(len(latencies) - 1, int(round(fraction * (len(latencies) - 1))))] * 1000 if latencies else float("nan")

    return {"turns": len(latencies), "errors": sum(errors), "seconds": round(elapsed, 2),
            "turns_per_second": round(len(latencies) / elapsed, 1), "p50_ms": round(percentile(0.5), 3),
            "p99_ms": round(percentile(0.99), 3)}


def cpu_seconds(pid):
    """User + system CPU seconds of a process and its children so far (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rasa", required=True, help="the rasa executable (rasa==3.6.21)")
    parser.add_argument("--nlu", required=True, help="the nlu executable")
    parser.add_argument("--intents", help="an intents model for `nlu serve` (required by builds before payload messages)")
    parser.add_argument("--ours", choices=["parsed", "webhook"], default="parsed")
    parser.add_argument("--clients", type=int, default=8)
    parser.add_argument("--duration", type=float, default=10)
    parser.add_argument("--skip", action="append", default=[], metavar="CONVERSATION",
                        help="leave a conversation out (e.g. one an older build cannot run); repeatable")
    args = parser.parse_args()
    for name in args.skip:
        if CONVERSATIONS.pop(name, None) is None:
            parser.error(f"--skip: no conversation '{name}' (they are: {', '.join(CONVERSATIONS)})")
    if not (1 <= args.clients <= 256) or not (0.5 <= args.duration <= 3600):
        parser.error("--clients must be 1...256 and --duration 0.5...3600 seconds")
    folder = tempfile.mkdtemp(prefix="formbot-rasa-")
    servers = []
    try:
        model = prepare_rasa(args.rasa, folder)
        rasa_port, ours_port = free_port(), free_port()
        rasa_log = open(os.path.join(folder, "rasa.log"), "w")
        rasa = subprocess.Popen([args.rasa, "run", "--enable-api", "-m", model, "--port", str(rasa_port), "-i", "127.0.0.1"],
                                cwd=folder, stdout=rasa_log, stderr=subprocess.STDOUT)
        servers.append(rasa)
        # `nlu serve --dialogue` reads a dialogue file: the Rasa project is imported to one first.
        dialogue = os.path.join(folder, "formbot-dialogue.json")
        imported = subprocess.run([args.nlu, "dialogue", "import", FORMBOT, "-o", dialogue], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if imported.returncode != 0:
            sys.exit("nlu dialogue import failed:\n" + imported.stdout.decode(errors="replace")[-3000:])
        command = [args.nlu, "serve", "--dialogue", dialogue, "--port", str(ours_port), "--log-level", "warning"]
        if args.intents:
            command += ["--intents", args.intents]
        # The server's log goes to a file: a pipe nobody reads fills, and a server that blocked on its log used to
        # stop answering (docs/server.md, "Logs").
        ours_log_path = os.path.join(folder, "nlu.log")
        ours = subprocess.Popen(command, stderr=open(ours_log_path, "w"))
        servers.append(ours)
        wait_until_up(ours_port, ours, "/health", "nlu serve", ours_log_path)
        wait_until_up(rasa_port, rasa, "/status", "rasa run", os.path.join(folder, "rasa.log"))
        result = {"conversations": list(CONVERSATIONS),
                  "rasa": "3.6.21 (MemoizationPolicy + RulePolicy, REST channel)",
                  "nlukit": f"{args.nlu} ({'POST /webhooks/rest/webhook' if args.ours == 'webhook' else 'POST /conversations/{id}/messages, parsed'})",
                  "correctness": compare(Client(rasa_port, "rasa"), Client(ours_port, args.ours), f"check-{os.getpid()}")}
        for name, port, kind, process in [("rasa", rasa_port, "rasa", rasa), ("nlukit", ours_port, args.ours, ours),
                                          ("rasa_again", rasa_port, "rasa", rasa), ("nlukit_again", ours_port, args.ours, ours)]:
            before = cpu_seconds(process.pid)
            figures = load(port, kind, args.clients, args.duration)
            used = cpu_seconds(process.pid) - before
            figures["server_cpu_seconds"] = round(used, 2)
            figures["server_cpu_ms_per_turn"] = round(1000 * used / max(1, figures["turns"]), 3)
            result[name] = figures
        result["load_average"] = os.getloadavg()
        print(json.dumps(result, indent=2))
    finally:
        for server in servers:
            server.terminate()
            try:
                server.wait(timeout=30)
            except subprocess.TimeoutExpired:
                server.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
