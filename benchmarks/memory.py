#!/usr/bin/env python3
"""Resident memory: NLUKit against ONNX Runtime and sentence-transformers, same models, same inputs, same run.

Issue #44, item 5: the resident memory of `nlu serve --qa` with BERT-base and of `nlu embed` over 100,000
lines, against ONNX Runtime's and sentence-transformers'; target: no more than theirs.

(a) Question answering as a server. The checkpoint is the one benchmarks/qa.py builds: a BERT-base-sized
    BertForQuestionAnswering with random weights (torch.manual_seed(0), transformers' BertConfig():
    12 layers, hidden 768, vocabulary 30,522; 415 MB of F32 safetensors), made in --work-dir, and the
    same model exported to ONNX (torch.onnx, opset 17).
      - NLUKit: `nlu serve --qa DIR --workers 2` (release build), POST /question-answering ({"question", "context"});
      - ONNX Runtime: a Python HTTP server (http.server, one thread per connection) holding one
        InferenceSession (2 intra-op threads, default arena) and the `tokenizers` WordPiece tokenizer,
        answering the same route the same way: windows of 384 tokens with a stride of 128, all windows of
        a question in one batch, best span of at most 15 tokens. It never imports torch or transformers.
    Each server is asked --questions questions (documents of 1 to 4 windows of the checkpoint's own words, drawn
    by Zipf's law as a text's words are; --clients at a time).
    Figures: VmRSS once the server is ready and idle (after startup), and once the questions are answered
    (after N), and VmHWM (the peak) at both points, read from /proc/PID/status.
(b) Sentence embeddings of --lines generated lines (Snips utterances, one or two to a line, from a file):
      - NLUKit: `nlu embed --model all-MiniLM-L6-v2 --input LINES --format npy -o OUT` (release build);
        also over --lines/10 lines: a streaming command's peak does not grow with the line count;
      - sentence-transformers: `SentenceTransformer(MODEL).encode(lines)` (its default batch size, 32),
        the matrix saved with numpy.save;
      - ONNX Runtime: the transformer exported to ONNX, `tokenizers` for the tokens, batches of 32 sorted
        by length as sentence-transformers sorts them, mean pooling and normalization in NumPy, the
        matrix saved with numpy.save.
    Figures: the peak (VmHWM sampled every 10 ms, and the kernel's ru_maxrss at exit), the median VmRSS
    over the run, and the wall time (under the load average printed with it). The three matrices are
    compared (min cosine to sentence-transformers), so every side did the same work.

The machine line names the CPU (model name, family/model) and the kernel level. Ratios are NLUKit over the
peer (target: <= 1.0). Memory figures do not depend on the machine's load; times do.

    python3 benchmarks/memory.py [--skip-build] [--nlu PATH] [--only qa,embed] [--questions 40] [--clients 2]
                                 [--lines 100000] [--work-dir DIR] [--no-peers] [--concurrent] [--level avx512|avx2|portable]

--work-dir keeps the generated checkpoint, ONNX files and lines between runs (default: a temporary folder,
removed at the end). --nlu runs another build (e.g. a saved binary from before a change); --no-peers measures
NLUKit alone (for such a before/after). --concurrent runs the embedding sides at the same time, for a machine
too busy to run them one after another: each side is its own process, so its memory figures hold; its time does not. The real
all-MiniLM-L6-v2 comes from the Hugging Face cache (scripts/install-minilm.sh puts it there;
--minilm DIR names another copy).

Pinned (scripts/reference-requirements.txt): torch 2.15.0, transformers 4.57.6, tokenizers 0.22.2, onnx 1.23.2,
onnxruntime 1.31.1, sentence-transformers 5.1.2, numpy 2.4.6. This process itself imports none of them (the
peers and the model generation run in child processes: `memory.py --worker ...`), so that the kernel's
ru_maxrss of a child is the child's own.
"""
import argparse
import http.client
import json
import os
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level
import scorecard

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
SCRIPT = os.path.abspath(__file__)
SNIPS = os.path.join(ROOT, "..", "shared", "data", "snips")
THREADS = 2


def ensure_environment():
    """OpenBLAS and the thread pools read these when they load: re-run this script once with them set."""
    cpu_level.from_arguments()
    wanted = {"OPENBLAS_NUM_THREADS": str(THREADS), "OMP_NUM_THREADS": str(THREADS), "MKL_NUM_THREADS": str(THREADS),
              "NLUKIT_THREADS": str(THREADS), "HF_HUB_OFFLINE": "1", "TOKENIZERS_PARALLELISM": "false"}
    core = blas_env.core_type()
    if core:
        wanted["OPENBLAS_CORETYPE"] = core
    if any(os.environ.get(k) != v for k, v in wanted.items()):
        os.execve(sys.executable, [sys.executable] + sys.argv, {**os.environ, **wanted})


# ---------------------------------------------------------------------------------------------------
# Resident memory of a process, from /proc/PID/status.

def status_kb(pid):
    """VmRSS, VmHWM, RssAnon and RssFile of `pid` in kB (empty once the process is gone)."""
    fields = {}
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                    fields[key] = int(value.split()[0])
    except OSError:
        pass
    return fields


class Monitor:
    """Samples a process's resident memory every `interval` seconds on a thread of its own."""

    def __init__(self, pid, interval=0.01):
        self.pid, self.interval = pid, interval
        self.samples = []          # VmRSS in kB
        self.peak = 0              # the largest VmHWM seen, kB
        self.last = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self):
        while not self._stop.is_set():
            fields = status_kb(self.pid)
            if not fields:
                break
            self.last = fields
            self.samples.append(fields["VmRSS"])
            self.peak = max(self.peak, fields["VmHWM"])
            self._stop.wait(self.interval)

    def now(self):
        """The process's figures this moment (and the peak so far)."""
        fields = status_kb(self.pid) or self.last
        self.peak = max(self.peak, fields.get("VmHWM", 0))
        return fields

    def stop(self):
        self._stop.set()
        self._thread.join()

    def median(self):
        ordered = sorted(self.samples)
        return ordered[len(ordered) // 2] if ordered else 0


def mb(kilobytes):
    return kilobytes / 1024


# ---------------------------------------------------------------------------------------------------
# Inputs.

def snips_utterances():
    utterances = []
    for name in sorted(os.listdir(SNIPS)):
        if not name.startswith("train_"):
            continue
        with open(os.path.join(SNIPS, name), "rb") as f:
            raw = f.read()
        try:
            data = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            data = json.loads(raw.decode("latin-1"))
        for entries in data.values():
            for entry in entries:
                text = " ".join("".join(part["text"] for part in entry["data"]).split())
                if text:
                    utterances.append(text)
    return utterances


def write_lines(path, count):
    """`count` lines, each one Snips utterance or two joined (a fixed seed: the same file every run)."""
    utterances = snips_utterances()
    generator = random.Random(44)
    with open(path, "w") as f:
        for _ in range(count):
            line = generator.choice(utterances)
            if generator.random() < 0.5:
                line += ", then " + generator.choice(utterances)
            f.write(line + "\n")


def qa_questions(vocabulary_path, count):
    """`count` (question, document) pairs over the checkpoint's own words, drawn as words of a text are (Zipf's
    law: the word of rank r with weight 1/r): documents of about 150, 400, 700 and 1,000 words (1 to 4 windows
    of 384 tokens), questions of 8 words."""
    with open(vocabulary_path) as f:
        words = [w.strip() for w in f if w.strip().isalpha() and len(w.strip()) > 1]
    generator = random.Random(44)
    generator.shuffle(words)
    weights, total = [], 0.0
    for rank in range(1, len(words) + 1):
        total += 1 / rank
        weights.append(total)

    def sentence(length):
        return " ".join(generator.choices(words, cum_weights=weights, k=length)).capitalize() + "."

    pairs = []
    for index in range(count):
        size = (150, 400, 700, 1000)[index % 4]
        document = " ".join(sentence(12) for _ in range(size // 12))
        pairs.append(("What is the " + sentence(6).lower().rstrip(".") + "?", document))
    return pairs


# ---------------------------------------------------------------------------------------------------
# Workers: run as `memory.py --worker NAME ARGS...` in child processes.

def worker_prepare_qa(directory):
    """The BERT-base QA checkpoint of benchmarks/qa.py in `directory`, and model.onnx beside it."""
    import torch
    import qa
    if not os.path.exists(os.path.join(directory, "model.onnx")):
        model = qa.build_model(directory)
        ids, types = qa.input_ids(384)
        sample = (torch.tensor([ids]), torch.ones(1, 384, dtype=torch.long), torch.tensor([types]))
        with torch.no_grad():
            torch.onnx.export(model, sample, os.path.join(directory, "model.onnx"),
                              input_names=["input_ids", "attention_mask", "token_type_ids"],
                              output_names=["start_logits", "end_logits"], opset_version=17, dynamo=False,
                              dynamic_axes={k: {0: "batch", 1: "sequence"} for k in
                                            ["input_ids", "attention_mask", "token_type_ids"]})


def worker_prepare_embed(model_directory, onnx_path):
    """all-MiniLM-L6-v2's transformer exported to ONNX (last_hidden_state), as benchmarks/embeddings.py does."""
    if os.path.exists(onnx_path):
        return
    import torch
    from transformers import AutoModel, AutoTokenizer
    transformer = AutoModel.from_pretrained(model_directory).eval()
    sample = AutoTokenizer.from_pretrained(model_directory)(["hello world"], return_tensors="pt")
    inputs = [name for name in ["input_ids", "attention_mask", "token_type_ids"] if name in sample]
    with torch.inference_mode():
        torch.onnx.export(transformer, tuple(sample[name] for name in inputs), onnx_path, input_names=inputs,
                          output_names=["last_hidden_state"], opset_version=17, dynamo=False,
                          dynamic_axes={name: {0: "batch", 1: "sequence"} for name in inputs + ["last_hidden_state"]})


def worker_ort_qa_server(directory, port):
    """An ONNX Runtime question-answering server: the NLUKit route's work (windows, one batch, best span)."""
    import numpy as np
    import onnxruntime
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
    from tokenizers import BertWordPieceTokenizer

    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(os.path.join(directory, "model.onnx"), options,
                                           providers=["CPUExecutionProvider"])
    tokenizer = BertWordPieceTokenizer(os.path.join(directory, "vocab.txt"), lowercase=True)
    tokenizer.enable_truncation(max_length=384, stride=128, strategy="only_second")
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")

    def answer(question, context):
        first = tokenizer.encode(question, context)
        windows = [first] + first.overflowing
        length = max(len(w.ids) for w in windows)
        feed = {name: np.zeros((len(windows), length), dtype=np.int64)
                for name in ("input_ids", "attention_mask", "token_type_ids")}
        for row, window in enumerate(windows):
            feed["input_ids"][row, :len(window.ids)] = window.ids
            feed["attention_mask"][row, :len(window.ids)] = window.attention_mask
            feed["token_type_ids"][row, :len(window.ids)] = window.type_ids
        starts, ends = session.run(None, feed)
        best = (-float("inf"), 0, 0)
        for row, window in enumerate(windows):
            context_tokens = [i for i, s in enumerate(window.sequence_ids) if s == 1]
            if not context_tokens:
                continue
            top_starts = sorted(context_tokens, key=lambda i: -starts[row, i])[:20]
            top_ends = sorted(context_tokens, key=lambda i: -ends[row, i])[:20]
            for s in top_starts:
                for e in top_ends:
                    if 0 <= e - s < 15 and starts[row, s] + ends[row, e] > best[0]:
                        best = (float(starts[row, s] + ends[row, e]), window.offsets[s][0], window.offsets[e][1])
        return {"answer": context[best[1]:best[2]], "score": best[0], "start": best[1], "end": best[2]}

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def reply(self, status, body):
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self):
            self.reply(200, {"status": "ok"})

        def do_POST(self):
            request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            self.reply(200, answer(request["question"], request["context"]))

        def log_message(self, *arguments):
            pass

    ThreadingHTTPServer(("127.0.0.1", int(port)), Handler).serve_forever()


def read_lines(path):
    with open(path) as f:
        return [line.rstrip("\n") for line in f]


def worker_st_embed(model_directory, lines_path, output):
    import numpy as np
    import torch
    from sentence_transformers import SentenceTransformer
    torch.set_num_threads(THREADS)
    model = SentenceTransformer(model_directory, device="cpu")
    np.save(output, model.encode(read_lines(lines_path)))


def worker_ort_embed(model_directory, onnx_path, lines_path, output):
    import numpy as np
    import onnxruntime
    from tokenizers import Tokenizer
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = THREADS
    options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])
    with open(os.path.join(model_directory, "sentence_bert_config.json")) as f:
        max_length = json.load(f)["max_seq_length"]
    tokenizer = Tokenizer.from_file(os.path.join(model_directory, "tokenizer.json"))
    tokenizer.enable_truncation(max_length=max_length)
    tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
    names = [i.name for i in session.get_inputs()]
    lines = read_lines(lines_path)
    order = sorted(range(len(lines)), key=lambda i: -len(lines[i]))
    vectors = None
    for start in range(0, len(order), 32):
        chunk = order[start:start + 32]
        encodings = tokenizer.encode_batch([lines[i].strip() for i in chunk])
        feed = {"input_ids": np.array([e.ids for e in encodings], dtype=np.int64),
                "attention_mask": np.array([e.attention_mask for e in encodings], dtype=np.int64),
                "token_type_ids": np.array([e.type_ids for e in encodings], dtype=np.int64)}
        hidden = session.run(None, {name: feed[name] for name in names})[0]
        mask = feed["attention_mask"][..., None].astype(np.float32)
        pooled = (hidden * mask).sum(1) / np.maximum(mask.sum(1), 1e-9)
        if vectors is None:
            vectors = np.zeros((len(lines), pooled.shape[1]), dtype=np.float32)
        vectors[chunk] = pooled / np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
    np.save(output, vectors)


def worker_compare(reference, *others):
    """Rows and min cosine of each matrix against the reference, as JSON."""
    import numpy as np
    base = np.load(reference)
    result = []
    for path in others:
        other = np.load(path)
        if other.shape != base.shape:
            result.append({"shape": list(other.shape), "minCosine": None})
            continue
        cosine = (other * base).sum(1) / (np.linalg.norm(other, axis=1) * np.linalg.norm(base, axis=1))
        result.append({"shape": list(other.shape), "minCosine": float(cosine.min())})
    print(json.dumps(result))


WORKERS = {"prepare-qa": worker_prepare_qa, "prepare-embed": worker_prepare_embed, "ort-qa-server": worker_ort_qa_server,
           "st-embed": worker_st_embed, "ort-embed": worker_ort_embed, "compare": worker_compare}


def run_worker(name, *arguments, capture=False):
    command = [sys.executable, SCRIPT, "--worker", name, *map(str, arguments)]
    result = subprocess.run(command, check=True, capture_output=capture, text=True)
    return result.stdout if capture else None


# ---------------------------------------------------------------------------------------------------
# Measurements.

def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def post_json(port, path, body, timeout=600):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        connection.request("POST", path, json.dumps(body), {"Content-Type": "application/json"})
        response = connection.getresponse()
        data = response.read()
        if response.status != 200:
            raise RuntimeError(f"POST {path}: {response.status} {data[:300]!r}")
        return json.loads(data)
    finally:
        connection.close()


def wait_ready(process, port, deadline=600):
    started = time.time()
    while time.time() - started < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with status {process.returncode} before it answered")
        try:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            connection.request("GET", "/health")
            if connection.getresponse().status == 200:
                return time.time() - started
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not answer /health in time")


def measure_server(command, port, questions, clients, settle=2.0):
    """Starts a server, waits for it, asks `questions` with `clients` at a time; its memory at each point."""
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    errors = []
    threading.Thread(target=lambda: errors.extend(process.stderr), daemon=True).start()
    try:
        startup_seconds = wait_ready(process, port)
        monitor = Monitor(process.pid)
        time.sleep(settle)
        startup = dict(monitor.now(), peak=monitor.peak)
        pending = list(questions)
        lock = threading.Lock()
        failures = []

        def client():
            while True:
                with lock:
                    if not pending:
                        return
                    question, context = pending.pop(0)
                try:
                    reply = post_json(port, "/question-answering", {"question": question, "context": context})
                    assert "answer" in reply, reply
                except Exception as error:  # reported after the run
                    failures.append(error)
                    return

        started = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(clients)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        answer_seconds = time.perf_counter() - started
        if failures:
            raise RuntimeError(f"{len(failures)} questions failed: {failures[0]}")
        time.sleep(settle)
        after = dict(monitor.now(), peak=monitor.peak)
        monitor.stop()
        return {"startup": startup, "after": after, "startupSeconds": startup_seconds, "answerSeconds": answer_seconds}
    except Exception:
        sys.stderr.write("".join(errors[-20:]))
        raise
    finally:
        process.terminate()
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def measure_command(command):
    """Runs a command to its end: peak (VmHWM sampled, and ru_maxrss at exit), median VmRSS, wall seconds."""
    started = time.perf_counter()
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    monitor = Monitor(process.pid)
    stderr = process.stderr.read()
    _, status, usage = os.wait4(process.pid, 0)
    seconds = time.perf_counter() - started
    monitor.stop()
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise RuntimeError(f"{' '.join(command[:4])}... exited with {process.returncode}: {stderr[-2000:]}")
    # ru_maxrss is in kB on Linux; it can also count this small process's pages from before the exec, which
    # the sampled VmHWM does not, so both are kept and the larger is the peak.
    return {"peak": max(monitor.peak, usage.ru_maxrss), "sampledPeak": monitor.peak, "median": monitor.median(),
            "seconds": seconds}


def resolve_minilm(path):
    if path:
        return path
    cache = os.environ.get("HF_HUB_CACHE") or os.path.join(
        os.environ.get("HF_HOME") or os.path.expanduser("~/.cache/huggingface"), "hub")
    repository = os.path.join(cache, "models--sentence-transformers--all-MiniLM-L6-v2")
    try:
        with open(os.path.join(repository, "refs", "main")) as f:
            return os.path.join(repository, "snapshots", f.read().strip())
    except OSError:
        sys.exit("all-MiniLM-L6-v2 is not in the Hugging Face cache: run scripts/install-minilm.sh (or give --minilm DIR)")


def ratio_line(label, ours, theirs):
    return f"  {label:<42}{mb(ours):>9.0f} MB {mb(theirs):>9.0f} MB {ours / theirs:>8.2f}x"


def qa_benchmark(args, nlu, work):
    directory = os.path.join(work, "bert-base-qa")
    os.makedirs(directory, exist_ok=True)
    print("QA: generating the BERT-base QA checkpoint and its ONNX export (once per --work-dir)...", flush=True)
    run_worker("prepare-qa", directory)
    weights_mb = os.path.getsize(os.path.join(directory, "model.safetensors")) / 2**20
    questions = qa_questions(os.path.join(directory, "vocab.txt"), args.questions)
    port = free_port()
    ours = measure_server([nlu, "serve", "--qa", directory, "--port", str(port), "--workers", str(THREADS),
                           "--log-level", "warning"], port, questions, args.clients)
    if args.no_peers:
        print(f"\n(a) QA server, BERT-base ({weights_mb:.0f} MB of F32 weights), {len(questions)} questions, NLUKit only:")
        for point, label in (("startup", "after startup"), ("after", f"after {len(questions)} questions")):
            print(f"  {label}: resident {mb(ours[point]['VmRSS']):.0f} MB ({mb(ours[point]['RssAnon']):.0f} MB anonymous + "
                  f"{mb(ours[point]['RssFile']):.0f} MB file-backed), peak {mb(ours[point]['peak']):.0f} MB")
        return ours, None
    port = free_port()
    theirs = measure_server([sys.executable, SCRIPT, "--worker", "ort-qa-server", directory, str(port)],
                            port, questions, args.clients)
    print(f"\n(a) QA server, BERT-base ({weights_mb:.0f} MB of F32 weights), {len(questions)} questions over documents "
          f"of 1-4 windows, {args.clients} clients at a time, {THREADS} threads each side:")
    print(f"  {'':<42}{'NLUKit':>12} {'ONNX RT':>12} {'ratio':>9}")
    for point, label in (("startup", "after startup"), ("after", f"after {len(questions)} questions")):
        print(ratio_line(f"{label}, resident (VmRSS)", ours[point]["VmRSS"], theirs[point]["VmRSS"]))
        print(ratio_line(f"{label}, peak (VmHWM)", ours[point]["peak"], theirs[point]["peak"]))
        scorecard.record("memory", f"QA server {label}, resident vs ONNX Runtime",
                         ours[point]["VmRSS"] / theirs[point]["VmRSS"], "<=", 1.0)
        scorecard.record("memory", f"QA server {label}, peak vs ONNX Runtime",
                         ours[point]["peak"] / theirs[point]["peak"], "<=", 1.0)
    for name, side in (("NLUKit", ours), ("ONNX Runtime", theirs)):
        after = side["after"]
        print(f"  {name}: after the questions {mb(after['RssAnon']):.0f} MB anonymous + {mb(after['RssFile']):.0f} MB "
              f"file-backed; ready in {side['startupSeconds']:.1f} s; questions answered in {side['answerSeconds']:.1f} s")
    return ours, theirs


def embed_benchmark(args, nlu, work):
    model = resolve_minilm(args.minilm)
    onnx_path = os.path.join(work, "all-MiniLM-L6-v2.onnx")
    print("embed: exporting all-MiniLM-L6-v2 to ONNX and writing the lines (once per --work-dir)...", flush=True)
    run_worker("prepare-embed", model, onnx_path)
    lines, tenth = os.path.join(work, f"lines-{args.lines}.txt"), os.path.join(work, f"lines-{args.lines // 10}.txt")
    for path, count in ((lines, args.lines), (tenth, args.lines // 10)):
        if not os.path.exists(path):
            write_lines(path, count)
    outputs = {name: os.path.join(work, f"{name}.npy") for name in ("nlukit", "nlukit-tenth", "st", "ort")}

    def nlukit(path, output):
        return [nlu, "embed", "text", "--model", model, "--input", path, "--format", "npy", "-o", output]

    commands = {"nlukit-tenth": nlukit(tenth, outputs["nlukit-tenth"]), "nlukit": nlukit(lines, outputs["nlukit"])}
    if not args.no_peers:
        commands["st"] = [sys.executable, SCRIPT, "--worker", "st-embed", model, lines, outputs["st"]]
        commands["ort"] = [sys.executable, SCRIPT, "--worker", "ort-embed", model, onnx_path, lines, outputs["ort"]]
    results = {}
    if args.concurrent:
        # Each side is its own process: its memory does not depend on what runs beside it (its time does).
        threads = [threading.Thread(target=lambda key=key: results.__setitem__(key, measure_command(commands[key])))
                   for key in commands]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if set(results) != set(commands):
            raise RuntimeError(f"sides that failed: {', '.join(sorted(set(commands) - set(results)))}")
    else:
        for key, command in commands.items():
            results[key] = measure_command(command)
    if args.no_peers:
        print(f"\n(b) embeddings, NLUKit only: {args.lines:,} lines peak {mb(results['nlukit']['peak']):.0f} MB, median "
              f"{mb(results['nlukit']['median']):.0f} MB, {results['nlukit']['seconds']:.1f} s; {args.lines // 10:,} lines peak "
              f"{mb(results['nlukit-tenth']['peak']):.0f} MB (load average {os.getloadavg()[0]:.1f})")
        for output in outputs.values():
            if os.path.exists(output):
                os.remove(output)
        return results
    parity = json.loads(run_worker("compare", outputs["st"], outputs["nlukit"], outputs["ort"], capture=True))
    ours = results["nlukit"]
    print(f"\n(b) embeddings of {args.lines:,} lines (all-MiniLM-L6-v2, F32, batch 32, {THREADS} threads each side; "
          f"load average {os.getloadavg()[0]:.1f}):")
    print(f"  {'':<42}{'NLUKit':>12} {'peer':>12} {'ratio':>9}")
    for key, peer in (("st", "sentence-transformers"), ("ort", "ONNX Runtime")):
        print(ratio_line(f"peak vs {peer}", ours["peak"], results[key]["peak"]))
        print(ratio_line(f"median during the run vs {peer}", ours["median"], results[key]["median"]))
        scorecard.record("memory", f"embed {args.lines} lines, peak vs {peer}", ours["peak"] / results[key]["peak"], "<=", 1.0)
    tenth_result = results["nlukit-tenth"]
    print(f"  NLUKit over {args.lines // 10:,} lines: peak {mb(tenth_result['peak']):.0f} MB "
          f"(x{ours['peak'] / tenth_result['peak']:.2f} for 10x the lines)")
    for key, name in (("nlukit", "NLUKit"), ("st", "sentence-transformers"), ("ort", "ONNX Runtime")):
        print(f"  {name}: {results[key]['seconds']:.1f} s wall, {args.lines / results[key]['seconds']:.0f} lines/s")
    print(f"  min cosine to sentence-transformers: NLUKit {parity[0]['minCosine']:.6f}, ONNX Runtime {parity[1]['minCosine']:.6f} "
          f"(rows {parity[0]['shape'][0]:,} / {parity[1]['shape'][0]:,})")
    for output in outputs.values():  # 150 MB each: not worth keeping in --work-dir
        if os.path.exists(output):
            os.remove(output)
    return results


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--worker":
        WORKERS[sys.argv[2]](*sys.argv[3:])
        return
    ensure_environment()
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--skip-build", action="store_true", help="use the release build that is there")
    parser.add_argument("--nlu", help="the nlu binary to measure (default: .build/release/nlu)")
    parser.add_argument("--only", default="qa,embed", help="qa, embed or both (default)")
    parser.add_argument("--questions", type=int, default=40)
    parser.add_argument("--clients", type=int, default=2, help="questions asked at a time")
    parser.add_argument("--lines", type=int, default=100_000)
    parser.add_argument("--minilm", help="all-MiniLM-L6-v2 directory (default: the Hugging Face cache)")
    parser.add_argument("--work-dir", help="keep generated models and lines here (default: a temporary folder)")
    parser.add_argument("--no-peers", action="store_true", help="NLUKit's figures only (e.g. a build from before a change)")
    parser.add_argument("--concurrent", action="store_true",
                        help="run the embedding sides at the same time (a busy machine: memory figures hold, times do not)")
    cpu_level.add_argument(parser)
    args = parser.parse_args()
    level = cpu_level.from_arguments()
    parts = set(args.only.split(","))
    nlu = args.nlu or os.path.join(ROOT, ".build", "release", "nlu")
    if not args.nlu and not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu"], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    work = args.work_dir or tempfile.mkdtemp(prefix="nlukit-memory-")
    os.makedirs(work, exist_ok=True)
    print(cpu_level.describe(level, onnx_runtime=True) + f"; {blas_env.cpu_identity()}; "
          f"OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE', 'unset')}; nlu: {nlu}", flush=True)
    try:
        if "qa" in parts:
            qa_benchmark(args, nlu, work)
        if "embed" in parts:
            embed_benchmark(args, nlu, work)
    finally:
        if not args.work_dir:
            shutil.rmtree(work, ignore_errors=True)
    print(f"target: NLUKit's resident memory <= the peer's (ratio <= 1.00x); load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
