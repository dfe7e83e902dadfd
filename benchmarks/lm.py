#!/usr/bin/env python3
"""Language-model benchmark: NLUKit (nlu-bench lm, release build) vs PyTorch on the same weights, same run.

(a) single-step prediction latency, 2-layer LSTM, hidden 512, embedding 256, vocabulary 10,000
    (both sides: token in, state carried, softmax, top 5 out);
(b) character-level training throughput, 2-layer LSTM, hidden 256, embedding 128, sequence 100, batch 32,
    on ../shared/data/tinyshakespeare/input.txt, Adam lr 0.002, clip 5, no dropout, from the same initial
    weights over the same batches; validation loss after the same number of steps.

Run from the repository root: python3 benchmarks/lm.py [--level avx512|avx2|portable] [--cell lstm|gru] [--steps 60]
[--latency-steps 300] [--rounds 3] [--train-rounds 2] [--torch-passive]. --level forces NLUKit's CPU level (NLUKIT_CPU_LEVEL) and limits
PyTorch's MKL/oneDNN/OpenBLAS to it (benchmarks/cpu_level.py); the default is the CPU's best. --cell gru runs both parts with GRUs (nn.GRU) of the same sizes instead.
Both sides use 2 threads and the OPENBLAS_CORETYPE of scripts/blas-env.sh. NLUKIT_BENCH_BINARY=path runs another nlu-bench
build (e.g. a saved one from before a change, for A/B runs).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time

THREADS = "2"
# --torch-passive: OMP_WAIT_POLICY=PASSIVE for PyTorch's OpenMP threads (read when torch loads). On a
# machine shared with other jobs, PyTorch's default spinning threads lose far more time than OpenBLAS's.
if "--torch-passive" in sys.argv:
    os.environ["OMP_WAIT_POLICY"] = "PASSIVE"
import cpu_level  # noqa: E402  (benchmarks/, the script's own folder, is on the path)
import blas_env  # noqa: E402
import scorecard  # noqa: E402

LEVEL = cpu_level.from_arguments()  # before blas_env and torch: they read the limits it sets

blas_env.configure()  # both sides: OPENBLAS_CORETYPE from scripts/blas-env.sh (the CPU's flags)
os.environ["OMP_NUM_THREADS"] = THREADS
os.environ["MKL_NUM_THREADS"] = THREADS
os.environ["OPENBLAS_NUM_THREADS"] = THREADS
os.environ["NLUKIT_THREADS"] = THREADS

import torch  # noqa: E402
from safetensors.torch import save_file  # noqa: E402

torch.set_num_threads(int(THREADS))
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
CORPUS = os.path.abspath(os.path.join(ROOT, "..", "shared", "data", "tinyshakespeare", "input.txt"))
BENCH = os.environ.get("NLUKIT_BENCH_BINARY", os.path.join(ROOT, ".build", "release", "nlu-bench"))


class RNNModel(torch.nn.Module):
    def __init__(self, vocab, emb, hidden, layers, cell):
        super().__init__()
        self.cell = cell
        self.embedding = torch.nn.Embedding(vocab, emb)
        self.rnn = (torch.nn.GRU if cell == "gru" else torch.nn.LSTM)(emb, hidden, num_layers=layers)
        self.decoder = torch.nn.Linear(hidden, vocab)

    def forward(self, ids, state=None):
        out, state = self.rnn(self.embedding(ids), state)
        return self.decoder(out), state


def save_package(model, vocabulary, path, level, lowercase):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    config = {"cell": model.cell, "level": level, "embeddingSize": model.embedding.embedding_dim,
              "hiddenSize": model.rnn.hidden_size, "layers": model.rnn.num_layers, "vocabulary": vocabulary,
              "unknownToken": "<unk>", "endToken": "</s>", "lowercase": lowercase}
    with open(os.path.join(path, "manifest.json"), "w") as f:
        json.dump({"format": "nlumodel", "formatVersion": 1, "kind": "language-model", "config": config, "metadata": {}}, f)
    save_file({k: v.contiguous() for k, v in model.state_dict().items()}, os.path.join(path, "weights.safetensors"))


def run_swift(args):
    out = subprocess.run([BENCH, "lm"] + args, check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def torch_latency(model, vocabulary, steps, warmup=20):
    times = []
    with torch.inference_mode():
        state = None
        for step in range(warmup + steps):
            token = (step * 7919) % len(vocabulary)
            start = time.perf_counter_ns()
            ids = torch.tensor([[token]])
            logits, state = model(ids, state)
            probs = torch.softmax(logits[0, 0], dim=-1)
            top = torch.topk(probs, 5)
            _ = {vocabulary[i]: float(p) for p, i in zip(top.values.tolist(), top.indices.tolist())}
            elapsed = (time.perf_counter_ns() - start) / 1000
            if step >= warmup:
                times.append(elapsed)
            if step == warmup - 1:
                state = None
        h_c = state.unsqueeze(1) if isinstance(state, torch.Tensor) else torch.stack([state[0], state[1]], dim=1)
        checksum = float(h_c.double().sum())
    times.sort()
    return {"medianMicroseconds": times[len(times) // 2], "meanMicroseconds": sum(times) / len(times),
            "stateChecksum": checksum}


def latency(workdir, steps, rounds, cell):
    """Interleaved rounds (NLUKit, PyTorch, NLUKit, ...); the best median of each side counts."""
    torch.manual_seed(0)
    vocab_size = 10_000
    vocabulary = ["<unk>", "</s>"] + [f"w{i}" for i in range(2, vocab_size)]
    model = RNNModel(vocab_size, 256, 512, 2, cell).eval()
    path = os.path.join(workdir, "latency.nlumodel")
    save_package(model, vocabulary, path, "word", False)
    swift_runs, torch_runs = [], []
    for _ in range(rounds):
        swift_runs.append(run_swift(["predict", "--model", path, "--steps", str(steps)]))
        torch_runs.append(torch_latency(model, vocabulary, steps))
    best = lambda runs: min(runs, key=lambda r: r["medianMicroseconds"])  # noqa: E731
    return {"swift": best(swift_runs), "torch": best(torch_runs)}


def char_tokens(text):
    """The character-level tokens NLUKit's trainer builds: each non-empty line's characters, then </s>."""
    tokens = []
    for line in text.split("\n"):
        if line:
            tokens.extend(line)
            tokens.append("</s>")
    return tokens


def batchify(ids, batch):
    length = len(ids) // batch
    return torch.tensor(ids[: length * batch]).view(batch, length).t().contiguous()


def training(workdir, steps, corpus, cell, warmup=3, batch=32, bptt=100, lr=0.002, clip=5.0, validation_tokens=20_000):
    with open(corpus, encoding="utf-8") as f:
        text = f.read()
    tokens = char_tokens(text)
    counts = {}
    order = []
    for t in tokens:
        if t == "</s>":
            continue
        if t not in counts:
            order.append(t)
        counts[t] = counts.get(t, 0) + 1
    first = {t: i for i, t in enumerate(order)}
    vocabulary = ["<unk>", "</s>"] + sorted(order, key=lambda t: (-counts[t], first[t]))
    index = {t: i for i, t in enumerate(vocabulary)}
    ids = [index[t] for t in tokens]
    held = int(round(len(ids) * 0.1))
    train_ids, val_ids = ids[: len(ids) - held], ids[len(ids) - held:][:validation_tokens]

    torch.manual_seed(1)
    model = RNNModel(len(vocabulary), 128, 256, 2, cell)
    path = os.path.join(workdir, "train-init.nlumodel")
    save_package(model, vocabulary, path, "character", False)
    swift = run_swift(["train", "--model", path, "--corpus", corpus, "--steps", str(steps), "--warmup", str(warmup),
                       "--batch-size", str(batch), "--sequence-length", str(bptt), "--learning-rate", str(lr),
                       "--clip-norm", str(clip), "--validation-tokens", str(validation_tokens)])

    data = batchify(train_ids, batch)
    optimizer = torch.optim.Adam(model.parameters(), lr=lr)
    criterion = torch.nn.CrossEntropyLoss()
    model.train()
    state = None
    losses = []
    timed_tokens = 0
    start = time.perf_counter()
    for step, i in enumerate(range(0, data.size(0) - 1, bptt)):
        if step >= steps:
            break
        if step == warmup:
            start = time.perf_counter()
        seq = min(bptt, data.size(0) - 1 - i)
        inputs, targets = data[i:i + seq], data[i + 1:i + 1 + seq]
        if state is not None:
            state = state.detach() if isinstance(state, torch.Tensor) else tuple(s.detach() for s in state)
        optimizer.zero_grad()
        logits, state = model(inputs, state)
        loss = criterion(logits.reshape(-1, len(vocabulary)), targets.reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        optimizer.step()
        losses.append(float(loss.detach()))
        if step >= warmup:
            timed_tokens += seq * batch
    seconds = time.perf_counter() - start

    model.eval()
    val = batchify(val_ids, 10)
    total, count, state = 0.0, 0, None
    with torch.inference_mode():
        for i in range(0, val.size(0) - 1, bptt):
            seq = min(bptt, val.size(0) - 1 - i)
            logits, state = model(val[i:i + seq], state)
            total += float(criterion(logits.reshape(-1, len(vocabulary)), val[i + 1:i + 1 + seq].reshape(-1))) * seq * 10
            count += seq * 10
    checksum = sum(v * (i % 9973) for i, v in enumerate(ids))
    return {"swift": swift, "torch": {"tokensPerSecond": timed_tokens / seconds, "steps": len(losses),
                                      "firstLoss": losses[0], "lastLoss": losses[-1], "validationLoss": total / count,
                                      "tokens": len(ids), "idChecksum": checksum}}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--cell", choices=["lstm", "gru"], default="lstm", help="recurrent cell on both sides")
    parser.add_argument("--steps", type=int, default=60, help="training steps on both sides")
    parser.add_argument("--latency-steps", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=3, help="interleaved latency rounds per side (best median)")
    parser.add_argument("--train-rounds", type=int, default=2,
                        help="interleaved training runs per side, from the same weights (best tokens/s of each side)")
    parser.add_argument("--torch-passive", action="store_true",
                        help="OMP_WAIT_POLICY=PASSIVE for PyTorch (fairer when other jobs share the CPUs)")
    parser.add_argument("--corpus", default=CORPUS, help="tiny Shakespeare (default: ../shared/data from the repo root)")
    cpu_level.add_argument(parser)
    args = parser.parse_args()
    if not os.path.exists(BENCH):
        sys.exit("build first: swift build -c release --product nlu-bench")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(cpu_level.describe(LEVEL))
    print(f"torch {torch.__version__}, {torch.get_num_threads()} threads; OPENBLAS_CORETYPE={os.environ['OPENBLAS_CORETYPE']}; "
          f"load average {load} on {os.cpu_count()} CPUs; OMP_WAIT_POLICY={os.environ.get('OMP_WAIT_POLICY', 'default')}")
    workdir = tempfile.mkdtemp(prefix="nlukit-lm-bench-")
    try:
        cell = args.cell.upper()
        lat = latency(workdir, args.latency_steps, args.rounds, args.cell)
        s, t = lat["swift"], lat["torch"]
        print(f"(a) single-step prediction, 2-layer {cell} 512, embedding 256, vocabulary 10,000 "
              f"({args.latency_steps} steps, best median of {args.rounds} interleaved rounds)")
        print(f"    NLUKit  median {s['medianMicroseconds']:.0f} µs  mean {s['meanMicroseconds']:.0f} µs  (state checksum {s['stateChecksum']:.5f})")
        print(f"    PyTorch median {t['medianMicroseconds']:.0f} µs  mean {t['meanMicroseconds']:.0f} µs  (state checksum {t['stateChecksum']:.5f})")
        print(f"    ratio NLUKit/PyTorch (median latency): {s['medianMicroseconds'] / t['medianMicroseconds']:.2f}x  (target <= 0.3x, issue #13)")
        scorecard.record("lm", f"{cell} single-step latency vs PyTorch", s["medianMicroseconds"] / t["medianMicroseconds"],
                         "<=", 0.3, level=LEVEL)
        # NLUKit, PyTorch, NLUKit, PyTorch, ...: each side's best run, as qa.py and int8.py keep each side's best
        # round (on a shared VM one run of either can lose a tenth to a neighbour).
        tr = training(workdir, args.steps, args.corpus, args.cell)
        for _ in range(1, max(1, args.train_rounds)):
            again = training(workdir, args.steps, args.corpus, args.cell)
            for side in ("swift", "torch"):
                tr[side]["tokensPerSecond"] = max(tr[side]["tokensPerSecond"], again[side]["tokensPerSecond"])
        s, t = tr["swift"], tr["torch"]
        if s["idChecksum"] != t["idChecksum"] or s["tokens"] != t["tokens"]:
            print("    WARNING: the two sides tokenized the corpus differently")
        print(f"(b) character-level training, 2-layer {cell} 256, embedding 128, sequence 100, batch 32, {t['steps']} steps "
              f"on tinyshakespeare ({t['tokens']} tokens), best of {max(1, args.train_rounds)} interleaved runs per side")
        print(f"    NLUKit  {s['tokensPerSecond']:.0f} tokens/s  loss {s['firstLoss']:.4f} -> {s['lastLoss']:.4f}  validation loss {s['validationLoss']:.4f}")
        print(f"    PyTorch {t['tokensPerSecond']:.0f} tokens/s  loss {t['firstLoss']:.4f} -> {t['lastLoss']:.4f}  validation loss {t['validationLoss']:.4f}")
        print(f"    ratio NLUKit/PyTorch throughput: {s['tokensPerSecond'] / t['tokensPerSecond']:.2f}x  (target >= 1.5x, issue #13)")
        scorecard.record("lm", f"character-{cell} training tokens/s vs PyTorch", s["tokensPerSecond"] / t["tokensPerSecond"],
                         ">=", 1.5, level=LEVEL)
        diff = abs(s["validationLoss"] - t["validationLoss"]) / t["validationLoss"] * 100
        print(f"    validation loss difference: {diff:.2f}%  (target within 5%)")
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
