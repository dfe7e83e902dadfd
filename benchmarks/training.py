#!/usr/bin/env python3
"""Encoder fine-tuning throughput (issue #39): NLUKit's training step vs PyTorch's, same CPU, same run,
same batches.

The step on both sides is Hugging Face Trainer's for an intent model: the encoder in float32 (dropout at
--dropout, train mode), mean pooling over the attention mask, a linear head over --intents classes,
cross-entropy (mean over the batch), backward, gradient clipping by global norm 1.0, AdamW (lr 5e-5,
betas 0.9/0.999, eps 1e-8, weight decay 0.01 except biases and layer norms) on a linear warm-up/decay
schedule (10 % warm-up). PyTorch: transformers' AutoModel + torch.nn, torch.set_num_threads(--threads),
run in its own process so that its peak memory is its own. NLUKit: `nlu-bench training` (release build).

The batches are synthetic and fixed: --seed draws 8 batches of --batch-size sequences, [CLS] ids [SEP]
(the tokenizer's own special ids), each length in max(3, L/4)..L for L = --max-length (the first
sequence of a batch at L, so every batch has one shape), ids in 1000..vocabulary, one label each. They
are written to a file both sides read. --warmup steps run untimed, then --steps are timed; the batches
cycle. Peak memory is getrusage's ru_maxrss of each process (loading included), and after loading.

    bash scripts/install-minilm.sh
    python3 benchmarks/training.py                                    # all-MiniLM-L6-v2, batch 32, 32 tokens
    bash scripts/install-mpnet.sh
    python3 benchmarks/training.py --model sentence-transformers/all-mpnet-base-v2 --batch-size 16 --max-length 64
    python3 benchmarks/training.py --nlu-bench .build-bench/release/nlu-bench --phases   # a binary built apart

--nlu-bench names the binary (default .build/release/nlu-bench, built first unless --skip-build or
--nlu-bench is given); --phases adds NLUKit's time per phase (forward, pooling + head, backward,
clipping + AdamW). --rounds N alternates the two sides N times and reports each round and the best.

--task joint times the joint intent + slot model's step instead (issue #41; JointBERT's model): the same encoder,
pooling and intent head, plus a slot head over each word's first piece (gathered, one index per word) and a CRF layer
over the words' tags (pytorch-crf, mean negative log-likelihood; --no-crf: a softmax per word), dropout --dropout on
the heads' inputs, loss intent + slot. The batches add words: after [CLS] each id begins a word with probability 3/4
(the first always), each word one of --tags tags (72: Snips'). No word shapes on either side.

Pinned: torch 2.15.0, transformers 4.57.6, pytorch-crf 0.7.2 (scripts/reference-requirements.txt).
"""
import argparse
import json
import math
import os
import resource
import subprocess
import sys
import tempfile
import time

import blas_env  # benchmarks/, the script's own folder, is on the path
import cpu_level

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")


def resolve(model):
    if os.path.isdir(model):
        return model
    cache = os.environ.get("HF_HUB_CACHE") or os.path.join(os.environ.get("HF_HOME") or os.path.expanduser("~/.cache/huggingface"), "hub")
    repository = os.path.join(cache, "models--" + model.replace("/", "--"))
    commit = open(os.path.join(repository, "refs", "main")).read().strip()
    return os.path.join(repository, "snapshots", commit)


def peak_resident_mb():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_batches(model, args):
    """The fixed batches both sides train on (see the module's doc)."""
    import numpy as np
    from transformers import AutoConfig, AutoTokenizer
    tokenizer = AutoTokenizer.from_pretrained(model)
    vocabulary = AutoConfig.from_pretrained(model).vocab_size
    random = np.random.default_rng(args.seed)
    batches = []
    for _ in range(8):
        rows = []
        for row in range(args.batch_size):
            length = args.max_length if row == 0 else int(random.integers(max(3, args.max_length // 4), args.max_length + 1))
            middle = random.integers(1000, vocabulary, size=length - 2).tolist()
            rows.append([tokenizer.cls_token_id] + middle + [tokenizer.sep_token_id])
        labels = random.integers(0, args.intents, size=args.batch_size).tolist()
        batch = {"tokenIDs": rows, "labels": labels, "padID": tokenizer.pad_token_id}
        if args.task == "joint":
            batch["wordPositions"] = [[p for p in range(1, len(row) - 1) if p == 1 or random.integers(0, 4) > 0] for row in rows]
            batch["wordTags"] = [random.integers(0, args.tags, size=len(p)).tolist() for p in batch["wordPositions"]]
        batches.append(batch)
    return {"intents": args.intents, "tags": args.tags, "batches": batches}


def torch_side(args):
    """PyTorch's training steps on the batches file; prints a JSON report (run in its own process)."""
    import torch
    from transformers import AutoModel, get_linear_schedule_with_warmup
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    with open(args.batches) as f:
        data = json.load(f)
    batches = []
    for batch in data["batches"]:
        length = max(len(row) for row in batch["tokenIDs"])
        ids = torch.tensor([row + [batch["padID"]] * (length - len(row)) for row in batch["tokenIDs"]])
        mask = torch.tensor([[1] * len(row) + [0] * (length - len(row)) for row in batch["tokenIDs"]])
        words = None
        if args.task == "joint":
            longest = max(len(p) for p in batch["wordPositions"])
            positions = torch.zeros(len(ids), longest, dtype=torch.long)
            tags = torch.zeros(len(ids), longest, dtype=torch.long)
            word_mask = torch.zeros(len(ids), longest, dtype=torch.bool)
            for row, (p, t) in enumerate(zip(batch["wordPositions"], batch["wordTags"])):
                positions[row, :len(p)], tags[row, :len(p)], word_mask[row, :len(p)] = torch.tensor(p), torch.tensor(t), True
            words = (positions, tags, word_mask)
        batches.append((ids, mask, torch.tensor(batch["labels"]), words))
    started = time.perf_counter()
    encoder = AutoModel.from_pretrained(args.model, dtype=torch.float32, add_pooling_layer=False,
                                        hidden_dropout_prob=args.dropout, attention_probs_dropout_prob=args.dropout)
    load_seconds = time.perf_counter() - started
    peak_after_load = peak_resident_mb()
    head = torch.nn.Linear(encoder.config.hidden_size, data["intents"])
    named = list(encoder.named_parameters()) + [("classifier." + n, p) for n, p in head.named_parameters()]
    if args.task == "joint":
        from torchcrf import CRF
        slot_head = torch.nn.Linear(encoder.config.hidden_size, data["tags"])
        crf = CRF(data["tags"], batch_first=True) if args.crf else None
        named += [("slot_classifier." + n, p) for n, p in slot_head.named_parameters()]
        named += [("crf." + n, p) for n, p in crf.named_parameters()] if crf is not None else []
    # Trainer's groups: no weight decay on biases and layer-norm weights.
    no_decay = [p for n, p in named if "bias" in n or "LayerNorm" in n or "layer_norm" in n]
    decay = [p for n, p in named if not ("bias" in n or "LayerNorm" in n or "layer_norm" in n)]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.01}, {"params": no_decay, "weight_decay": 0.0}],
                                  lr=5e-5, betas=(0.9, 0.999), eps=1e-8)
    total = args.warmup + args.steps
    schedule = get_linear_schedule_with_warmup(optimizer, math.ceil(0.1 * total), total)
    parameters = [p for _, p in named]
    encoder.train()

    def step(index):
        ids, mask, labels, words = batches[index % len(batches)]
        hidden = encoder(input_ids=ids, attention_mask=mask).last_hidden_state
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        pooled = (hidden * weights).sum(1) / weights.sum(1).clamp(min=1e-9)
        if words is None:
            loss = torch.nn.functional.cross_entropy(head(pooled), labels)
        else:
            # JointBERT's heads: dropout on their inputs; the slot head on each word's first piece.
            dropout = torch.nn.functional.dropout
            loss = torch.nn.functional.cross_entropy(head(dropout(pooled, args.dropout)), labels)
            positions, tags, word_mask = words
            gathered = hidden.gather(1, positions.unsqueeze(-1).expand(-1, -1, hidden.shape[-1]))
            emissions = slot_head(dropout(gathered, args.dropout))
            if crf is not None:
                loss = loss - crf(emissions, tags, mask=word_mask, reduction="mean")
            else:
                loss = loss + torch.nn.functional.cross_entropy(emissions[word_mask], tags[word_mask])
        loss.backward()
        torch.nn.utils.clip_grad_norm_(parameters, 1.0)
        optimizer.step()
        schedule.step()
        optimizer.zero_grad(set_to_none=True)
        return loss.item(), len(labels)

    for index in range(args.warmup):
        step(index)
    losses, examples = [], 0
    started = time.perf_counter()
    for index in range(args.warmup, args.warmup + args.steps):
        loss, count = step(index)
        losses.append(loss)
        examples += count
    seconds = time.perf_counter() - started
    print(json.dumps({"threads": torch.get_num_threads(), "loadSeconds": load_seconds, "seconds": seconds,
                      "examples": examples, "examplesPerSecond": examples / seconds, "firstLoss": losses[0],
                      "lastLoss": losses[-1], "peakResidentAfterLoadMB": peak_after_load,
                      "peakResidentMB": peak_resident_mb(), "shape": list(batches[0][0].shape)}))


def run_torch(model, batches_path, args):
    command = [sys.executable, os.path.abspath(__file__), "--torch-side", "--model", model, "--batches", batches_path,
               "--threads", str(args.threads), "--steps", str(args.steps), "--warmup", str(args.warmup),
               "--seed", str(args.seed), "--dropout", str(args.dropout), "--task", args.task] + ([] if args.crf else ["--no-crf"])
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout.strip().splitlines()[-1])


def run_nlukit(binary, model, batches_path, args):
    command = [binary, "training", "--model", model, "--batches", batches_path, "--steps", str(args.steps),
               "--warmup", str(args.warmup), "--seed", str(args.seed), "--dropout", str(args.dropout), "--task", args.task] \
        + ([] if args.crf else ["--no-crf"])
    if args.phases:
        command.append("--phases")
    return json.loads(subprocess.run(command, check=True, capture_output=True, text=True).stdout)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", default="sentence-transformers/all-MiniLM-L6-v2", help="a checkpoint directory or Hub id in the cache")
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--max-length", type=int, default=32, help="longest sequence, [CLS] and [SEP] included")
    parser.add_argument("--intents", type=int, default=64)
    parser.add_argument("--steps", type=int, default=20, help="timed steps per side")
    parser.add_argument("--warmup", type=int, default=3, help="untimed steps first")
    parser.add_argument("--seed", type=int, default=42)
    parser.add_argument("--dropout", type=float, default=0.1, help="hidden and attention dropout on both sides (0: none)")
    parser.add_argument("--threads", type=int, default=os.cpu_count(), help="threads per side (default: all cores)")
    parser.add_argument("--rounds", type=int, default=1, help="alternate the two sides this many times")
    parser.add_argument("--nlu-bench", default=None, help="the nlu-bench binary (default .build/release/nlu-bench, built first)")
    parser.add_argument("--skip-build", action="store_true")
    parser.add_argument("--phases", action="store_true", help="NLUKit's time per phase too (intent task)")
    parser.add_argument("--task", choices=["intent", "joint"], default="intent", help="the intent model, or the joint intent + slot model")
    parser.add_argument("--tags", type=int, default=72, help="slot tags of the joint model")
    parser.add_argument("--crf", action=argparse.BooleanOptionalAction, default=True, help="the joint model's CRF layer")
    parser.add_argument("--torch-side", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--batches", help=argparse.SUPPRESS)
    cpu_level.add_argument(parser)
    level = cpu_level.from_arguments()
    args = parser.parse_args()
    core = blas_env.configure(threads=args.threads)   # before NumPy or PyTorch load OpenBLAS
    if args.torch_side:
        return torch_side(args)
    if args.phases and args.task != "intent":
        parser.error("--phases times the intent task's phases")
    for name in ("batch_size", "max_length", "intents", "tags", "steps", "rounds", "threads"):
        if getattr(args, name) < (3 if name == "max_length" else 2 if name in ("intents", "tags") else 1):
            parser.error(f"--{name.replace('_', '-')} is too small: {getattr(args, name)}")
    model = resolve(args.model)
    binary = args.nlu_bench or os.path.join(ROOT, ".build", "release", "nlu-bench")
    if args.nlu_bench is None and not args.skip_build:
        subprocess.run(["swift", "build", "-c", "release", "--product", "nlu-bench"], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)
    with tempfile.TemporaryDirectory() as scratch:
        batches_path = os.path.join(scratch, "batches.json")
        with open(batches_path, "w") as f:
            json.dump(make_batches(model, args), f)
        rounds = []
        for _ in range(args.rounds):
            theirs = run_torch(model, batches_path, args)
            ours = run_nlukit(binary, model, batches_path, args)
            rounds.append((ours, theirs))

    print(f"{cpu_level.describe(level)}; {blas_env.cpu_identity()}; {args.threads} threads per side; "
          f"OPENBLAS_CORETYPE {core or '(auto)'}, NLUKit BLAS core {rounds[0][0]['blas']}")
    shape = rounds[0][0]["shape"]
    task = f"joint intent + slot model, {args.tags} tags, {'CRF layer' if args.crf else 'softmax per word'}" if args.task == "joint" else "intent model"
    print(f"{task}; model: {model}; batch {shape[0]} × {shape[1]} tokens, {args.intents} intents, dropout {args.dropout}; "
          f"{args.warmup} untimed + {args.steps} timed steps per side")
    for index, (ours, theirs) in enumerate(rounds, 1):
        print(f"round {index}: NLUKit {ours['examplesPerSecond']:.1f} examples/s, PyTorch {theirs['examplesPerSecond']:.1f} examples/s, "
              f"ratio {ours['examplesPerSecond'] / theirs['examplesPerSecond']:.2f}x; loss first/last NLUKit "
              f"{ours['firstLoss']:.4f}/{ours['lastLoss']:.4f}, PyTorch {theirs['firstLoss']:.4f}/{theirs['lastLoss']:.4f}")
    ours = max((o for o, _ in rounds), key=lambda r: r["examplesPerSecond"])
    theirs = max((t for _, t in rounds), key=lambda r: r["examplesPerSecond"])
    best = " (best of each side)" if args.rounds > 1 else ""
    print(f"throughput{best}: NLUKit {ours['examplesPerSecond']:.1f} examples/s, PyTorch {theirs['examplesPerSecond']:.1f} examples/s, "
          f"ratio {ours['examplesPerSecond'] / theirs['examplesPerSecond']:.2f}x (target >= 1.5x)")
    print(f"peak RSS: NLUKit {max(o['peakResidentMB'] for o, _ in rounds):.0f} MiB, PyTorch {max(t['peakResidentMB'] for _, t in rounds):.0f} MiB "
          f"(after loading: {ours['peakResidentAfterLoadMB']:.0f} and {theirs['peakResidentAfterLoadMB']:.0f} MiB; target: NLUKit <= PyTorch)")
    print(f"load: NLUKit {ours['loadSeconds']:.2f} s, PyTorch {theirs['loadSeconds']:.2f} s (excluded above)")
    if args.phases:
        phases = ours["phasesMs"]
        order = ["forward", "poolingAndHead", "backward", "clippingAndAdamW", "wholeStep"]
        print("NLUKit per step (ms, mean of extra steps): " + ", ".join(f"{name} {phases[name]:.1f}" for name in order))


if __name__ == "__main__":
    main()
