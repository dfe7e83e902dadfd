#!/usr/bin/env python3
"""The PyTorch side of benchmarks/joint_tagger.py's HWU64 run: JointBERT's recipe (one encoder, an intent head over
the mean-pooled sentence vector, a slot head over each word's first word piece, dropout 0.1 before both, intent +
slot cross-entropy) in transformers + torch (pinned in scripts/reference-requirements.txt), on the same checkpoint,
split and slot scoring (benchmarks/entities.py's exact-span micro F1), so that NLUKit's joint model can be read
beside it. AdamW with Trainer's decay groups, linear decay without warm-up, clipping at 1, batches of 32 shuffled;
the heads may get a rate of their own (`--head-learning-rate`, a third parameter group), as `nlu intents train
--head-learning-rate` gives them. No CRF layer. Words split on \\w+|[^\\w\\s] (NLUKit's WordTokenizer differs on
a few symbols). One thread.

    python3 benchmarks/joint_tagger_torch.py --epochs 3 --learning-rate 1e-4 [--head-learning-rate 1e-3]
"""

import argparse
import glob
import os
import random
import re
import sys
import time
import types

import torch
from transformers import AutoModel, AutoTokenizer, get_linear_schedule_with_warmup

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(os.path.join(ROOT, "benchmarks"))
sys.modules.setdefault("pycrfsuite", types.ModuleType("pycrfsuite"))
import joint_tagger as j  # noqa: E402
from entities import score, trimmed  # noqa: E402

parser = argparse.ArgumentParser()
parser.add_argument(
    "--model", default="sentence-transformers/all-MiniLM-L6-v2", help="a Hub id in the cache, or a folder"
)
parser.add_argument("--epochs", type=int, default=3)
parser.add_argument("--learning-rate", type=float, default=1e-4)
parser.add_argument("--head-learning-rate", type=float, default=None, help="the heads' rate (default: --learning-rate)")
parser.add_argument("--seed", type=int, default=0)
args = parser.parse_args()
torch.manual_seed(args.seed)
random.seed(args.seed)
torch.set_num_threads(1)
cached = glob.glob(os.path.expanduser(f"~/.cache/huggingface/hub/models--{args.model.replace('/', '--')}/snapshots/*/"))
path = (
    args.model
    if os.path.isdir(args.model)
    else (cached[0] if cached else sys.exit(f"{args.model}: not in the Hugging Face cache"))
)
epochs, lr = args.epochs, args.learning_rate
headlr = args.head_learning_rate or lr
tok = AutoTokenizer.from_pretrained(path)
WORD = re.compile(r"\w+|[^\w\s]")


def words(text):
    return [(m.start(), m.end()) for m in WORD.finditer(text)]


train, test = j.read_hwu64("train"), j.read_hwu64("test")
intents = sorted({e[0] for e in train})
ii = {n: i for i, n in enumerate(intents)}
slots = sorted({s[0] for e in train for s in e[2]})
tags = ["O"] + [p + s for s in slots for p in ("B-", "I-")]
ti = {t: i for i, t in enumerate(tags)}


def encode(text, spans):
    ws = words(text)
    wt = ["O"] * len(ws)
    for ent, a, b in spans:
        inside = [k for k, (s, e) in enumerate(ws) if s >= a and e <= b]
        for n, k in enumerate(inside):
            wt[k] = ("B-" if n == 0 else "I-") + ent
    enc = tok(text, return_offsets_mapping=True, truncation=True, max_length=128)
    pos = []
    w = 0
    first = [None] * len(ws)
    for idx, (s, e) in enumerate(enc["offset_mapping"]):
        if s == e:
            continue
        while w < len(ws) and ws[w][1] <= s:
            w += 1
        if w < len(ws) and ws[w][0] <= s < ws[w][1] and first[w] is None:
            first[w] = idx
    return enc["input_ids"], first, [ti.get(t, 0) for t in wt], ws


class Joint(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = AutoModel.from_pretrained(path)
        h = self.enc.config.hidden_size
        self.drop = torch.nn.Dropout(0.1)
        self.ih = torch.nn.Linear(h, len(intents))
        self.sh = torch.nn.Linear(h, len(tags))

    def forward(self, ids, mask):
        out = self.enc(input_ids=ids, attention_mask=mask).last_hidden_state
        m = mask.unsqueeze(-1).float()
        pooled = (out * m).sum(1) / m.sum(1)
        return self.ih(self.drop(pooled)), self.sh(self.drop(out))


model = Joint()
data = [(encode(t, s), ii[i]) for i, t, s in train]
bs = 32
steps = (len(data) + bs - 1) // bs * epochs
nd = ["bias", "LayerNorm.weight"]
head = [p for n, p in model.named_parameters() if not n.startswith("enc.")]
groups = [
    {"params": [p for n, p in model.enc.named_parameters() if not any(x in n for x in nd)], "weight_decay": 0.01},
    {"params": [p for n, p in model.enc.named_parameters() if any(x in n for x in nd)], "weight_decay": 0.0},
    {"params": head, "weight_decay": 0.0, "lr": headlr},
]
opt = torch.optim.AdamW(groups, lr=lr)
sched = get_linear_schedule_with_warmup(opt, 0, steps)
t0 = time.time()
model.train()
step = 0
for ep in range(epochs):
    random.shuffle(data)
    for b in range(0, len(data), bs):
        chunk = data[b : b + bs]
        L = max(len(c[0][0]) for c in chunk)
        ids = torch.tensor([c[0][0] + [0] * (L - len(c[0][0])) for c in chunk])
        mask = torch.tensor([[1] * len(c[0][0]) + [0] * (L - len(c[0][0])) for c in chunk])
        labels = torch.full((len(chunk), L), -100)
        for r, c in enumerate(chunk):
            for f, t in zip(c[0][1], c[0][2]):
                if f is not None:
                    labels[r, f] = t
        il, sl = model(ids, mask)
        loss = torch.nn.functional.cross_entropy(
            il, torch.tensor([c[1] for c in chunk])
        ) + torch.nn.functional.cross_entropy(sl.view(-1, len(tags)), labels.view(-1), ignore_index=-100)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step += 1
        if step % 100 == 0:
            print(f"epoch {ep + 1} step {step}/{steps} loss {loss.item():.4f} {time.time() - t0:.0f} s", file=sys.stderr, flush=True)
model.eval()
gold, pred = [], []
correct = 0
with torch.no_grad():
    for i, t, s in test:
        ids, first, _, ws = encode(t, s)
        il, sl = model(torch.tensor([ids]), torch.ones(1, len(ids), dtype=torch.long))
        correct += intents[int(il.argmax())] == i
        wt = []
        for k in range(len(ws)):
            if first[k] is None:
                wt.append("O" if not wt or wt[-1] == "O" else "I-" + wt[-1][2:])
                continue
            wt.append(tags[int(sl[0, first[k]].argmax())])
        spans = set()
        cur = None
        for k, t_ in enumerate(wt + ["O"]):
            if cur and not (t_.startswith("I-") and t_[2:] == cur[0]):
                spans.add((cur[0], ws[cur[1]][0], ws[k - 1][1]))
                cur = None
            if t_ != "O" and cur is None:
                cur = (t_[2:], k)
        gold.append(trimmed(t, s))
        pred.append(spans)
print(
    "PyTorch joint model, HWU64:",
    epochs,
    "epochs, lr",
    lr,
    "head lr",
    headlr,
    "; slot P/R/F1/all slots right",
    score(gold, pred),
    "intent",
    correct / len(test),
    f"{time.time()-t0:.0f}s",
)
