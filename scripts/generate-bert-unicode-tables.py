#!/usr/bin/env python3
"""Writes Sources/NLUText/Bert/BertUnicodeTables.swift: the character classes and mappings of the
Hugging Face fast BERT tokenizer (tokenizers 0.22.2), measured by running the library itself on every
Unicode scalar.

Why measured and not taken from Swift's Unicode properties: the Rust tokenizer mixes Unicode versions.
`clean_text`, `strip_accents` (Mn) and the punctuation test use the `unicode_categories` crate, whose
tables are several Unicode versions old; whitespace and lowercasing use Rust's std (current Unicode);
NFD uses `unicode-normalization-alignments`. Copying its observable behaviour per scalar is the only way
to be identical on every character.

Usage: python3 scripts/generate-bert-unicode-tables.py   (needs tokenizers==0.22.2)
Takes about a minute.
"""
import os
import sys

import tokenizers
from tokenizers.normalizers import BertNormalizer
from tokenizers.pre_tokenizers import BertPreTokenizer

EXPECTED = "0.22.2"
if tokenizers.__version__ != EXPECTED:
    sys.exit(f"tokenizers {EXPECTED} required, found {tokenizers.__version__}")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources/NLUText/Bert/BertUnicodeTables.swift")

import unicodedata  # noqa: E402

from tokenizers import Tokenizer  # noqa: E402
from tokenizers.models import WordLevel  # noqa: E402
from tokenizers.normalizers import NFD  # noqa: E402

nfd = NFD()
clean = BertNormalizer(clean_text=True, handle_chinese_chars=False, strip_accents=False, lowercase=False)
strip = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=True, lowercase=False)
lower = BertNormalizer(clean_text=False, handle_chinese_chars=False, strip_accents=False, lowercase=True)
pre = BertPreTokenizer()

HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3


def hangul_nfd(cp):
    s = cp - HANGUL_FIRST
    l, v, t = 0x1100 + s // 588, 0x1161 + (s % 588) // 28, 0x11A7 + s % 28
    return [l, v] + ([t] if t != 0x11A7 else [])


removed, cleaned_to_space, whitespace, punctuation = [], [], [], []
strip_map, lower_map, decompositions, nonspacing = {}, {}, {}, []
for cp in range(0x110000):
    if 0xD800 <= cp < 0xE000:
        continue
    c = chr(cp)
    r = clean.normalize_str(c)
    if r == "":
        removed.append(cp)
    elif r == " " and cp != 0x20:
        cleaned_to_space.append(cp)
    elif r != c:
        sys.exit(f"unexpected clean_text result for U+{cp:04X}")
    parts = pre.pre_tokenize_str("a" + c + "b")
    if len(parts) == 2:
        whitespace.append(cp)
    elif len(parts) == 3:
        punctuation.append(cp)
    s = strip.normalize_str(c)
    d = nfd.normalize_str(c)
    if d != c and not HANGUL_FIRST <= cp <= HANGUL_LAST:
        decompositions[cp] = d
    if d == c and s == "":
        nonspacing.append(cp)
    if HANGUL_FIRST <= cp <= HANGUL_LAST:
        if [ord(x) for x in s] != hangul_nfd(cp):
            sys.exit(f"Hangul U+{cp:04X} does not decompose algorithmically")
    elif s != c:
        strip_map[cp] = s
    low = lower.normalize_str(c)
    if low != c:
        lower_map[cp] = low


# strip_accents = NFD, canonical reordering, then drop Mn. Check that the per-scalar tables explain it.
mn = set(nonspacing)
for cp, stripped in strip_map.items():
    expected = "".join(ch for ch in decompositions.get(cp, chr(cp)) if ord(ch) not in mn)
    if expected != stripped:
        sys.exit(f"U+{cp:04X}: strip_accents is not NFD without Mn")

# Canonical combining classes of the normalization crate (Unicode 9 era, newer than the Mn table):
# for the marks strip_accents removes, Python's class (classes never change once assigned); for the
# marks it keeps, measured: a mark reorders in front of U+0345 (class 240) exactly when its class is
# not 0 for the crate (marks added after its Unicode version have class 0 there).
probe = Tokenizer(WordLevel({"[UNK]": 0}, unk_token="[UNK]"))
probe.normalizer = strip
probe.pre_tokenizer = pre
combining_classes = {}
for cp in range(0x110000):
    if 0xD800 <= cp < 0xE000:
        continue
    ccc = unicodedata.combining(chr(cp))
    if ccc == 0:
        continue
    if cp in mn:
        combining_classes[cp] = ccc
    elif probe.encode("x\u0345" + chr(cp)).offsets[0] == (0, 2):
        combining_classes[cp] = ccc


def ranges(values):
    out = []
    for v in values:
        if out and out[-1][1] == v - 1:
            out[-1][1] = v
        else:
            out.append([v, v])
    return out


def swift_ranges(name, doc, values):
    rs = ranges(values)
    body = ",\n".join("        " + ", ".join(f"0x{a:X}...0x{b:X}" for a, b in rs[i:i + 6]) for i in range(0, len(rs), 6))
    return f"    /// {doc}\n    static let {name}: [ClosedRange<UInt32>] = [\n{body},\n    ]\n"


def swift_map(name, doc, mapping):
    entries = [f"{k:X}:" + ",".join(f"{ord(x):X}" for x in v) for k, v in sorted(mapping.items())]
    lines = ["        " + ";".join(entries[i:i + 10]) + ";" for i in range(0, len(entries), 10)]
    body = "\n".join(lines)
    return f'    /// {doc}\n    static let {name}: String = """\n{body}\n        """\n'



with open(OUT, "w") as f:
    f.write("// GENERATED by scripts/generate-bert-unicode-tables.py from tokenizers " + EXPECTED + ". Do not edit.\n")
    f.write("//\n// Per-scalar behaviour of the Hugging Face fast BERT tokenizer, measured on every Unicode scalar.\n")
    f.write("// The Rust tokenizer mixes Unicode versions (old `unicode_categories` tables for control, Mn and\n")
    f.write("// punctuation; current std tables for whitespace and lowercase), so Swift's own properties differ.\n\n")
    f.write("enum BertUnicodeTables {\n")
    f.write(swift_ranges("removedByCleaning", "Scalars `clean_text` deletes (NUL, U+FFFD, the crate's Cc/Cf/Co except tab, LF, CR).", removed))
    f.write(swift_ranges("cleanedToSpace", "Scalars `clean_text` turns into U+0020 (whitespace that is not also deleted).", cleaned_to_space))
    f.write(swift_ranges("whitespace", "Scalars the pre-tokenizer splits on and drops (Rust `char::is_whitespace`).", whitespace))
    f.write(swift_ranges("punctuation", "Non-ASCII scalars the pre-tokenizer isolates (the crate's `P*`); ASCII punctuation is handled inline.", [p for p in punctuation if p >= 0x80]))
    f.write(swift_ranges("nonspacingMarks", "Scalars `strip_accents` removes after NFD (the crate's `Mn`).", nonspacing))
    f.write(swift_map("decompositions", "Canonical decomposition (NFD) of each scalar that has one, except Hangul syllables (algorithmic). Format `SCALAR:SCALAR,...;` in hex.", decompositions))
    f.write(swift_map("combiningClasses", "Nonzero canonical combining classes as the normalization crate knows them. Format `SCALAR:CLASS;` in hex.", {k: chr(v) for k, v in combining_classes.items()}))
    f.write(swift_map("lowercased", "`lowercase` result of each scalar it changes. Same format.", lower_map))
    f.write("}\n")
print(f"wrote {OUT}: {len(ranges(removed))} removed ranges, {len(ranges(punctuation))} punctuation ranges, "
      f"{len(decompositions)} decompositions, {len(nonspacing)} Mn, {len(combining_classes)} combining classes, "
      f"{len(lower_map)} lowercase entries")
