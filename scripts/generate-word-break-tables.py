#!/usr/bin/env python3
"""Writes Sources/NLUText/Words/WordBreakTable.swift and Tests/Fixtures/unicode/word-break-test.txt from the
Unicode Character Database (Debian's `unicode-data` package, Unicode 15.0.0, in /usr/share/unicode).

The table gives every scalar what the word tokenizer needs to find UAX #29 word boundaries, packed in one
byte: its Word_Break property (WordBreakProperty.txt; bits 0-4), Extended_Pictographic (emoji-data.txt; bit 5,
rule WB3c), whether it is a letter of a script written without spaces between words (bit 6: Han, Hiragana,
Katakana, and the Line_Break=SA letters of Thai, Lao, Khmer, Myanmar...; NLUKit makes each one a word of its
own), and whether it is an "other number" (gc No: superscripts, fractions, circled digits) that UAX #29 leaves
as Other but NLUKit has always kept inside words ("m²", "H₂O"; bit 7).

Runs of scalars with the same byte become one entry `start << 8 | byte`, sorted by start and covering
U+0000-U+10FFFF, so a lookup is a binary search over about 2,000 entries.

The test fixture is WordBreakTest.txt with its comments removed: one case a line, `÷` a boundary, `×` none.

Usage: apt-get install unicode-data; python3 scripts/generate-word-break-tables.py [UCD directory]
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
UCD = sys.argv[1] if len(sys.argv) > 1 else "/usr/share/unicode"
OUT = os.path.join(ROOT, "Sources/NLUText/Words/WordBreakTable.swift")
TEST_OUT = os.path.join(ROOT, "Tests/Fixtures/unicode/word-break-test.txt")
EXPECTED_VERSION = "15.0.0"

# The order of WordBreakProperty's cases in Swift (raw values 0...18).
PROPERTIES = ["Other", "CR", "LF", "Newline", "Extend", "ZWJ", "Regional_Indicator", "Format", "Katakana",
              "Hebrew_Letter", "ALetter", "Single_Quote", "Double_Quote", "MidNumLet", "MidLetter", "MidNum",
              "Numeric", "ExtendNumLet", "WSegSpace"]
EXTENDED_PICTOGRAPHIC = 0x20
UNSPACED_LETTER = 0x40
OTHER_NUMBER = 0x80
UNSPACED_SCRIPTS = {"Han", "Hiragana", "Katakana"}


def read_ranges(path, want=None):
    """(first, last, value) for each data line of a UCD file; `want` keeps only lines whose value is in it."""
    result = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            data = line.split("#", 1)[0].strip()
            if not data:
                continue
            fields = [part.strip() for part in data.split(";")]
            value = fields[1]
            if want is not None and value not in want:
                continue
            if ".." in fields[0]:
                first, last = (int(x, 16) for x in fields[0].split(".."))
            else:
                first = last = int(fields[0], 16)
            result.append((first, last, value))
    return result


def check_version(path):
    with open(path, encoding="utf-8") as f:
        head = f.readline()
    if EXPECTED_VERSION not in head:
        sys.exit(f"{path}: Unicode {EXPECTED_VERSION} expected, the file starts {head.strip()!r}")


def general_categories():
    """gc of every scalar from UnicodeData.txt (ranges given as First/Last pairs)."""
    gc = {}
    pending = None
    with open(os.path.join(UCD, "UnicodeData.txt"), encoding="utf-8") as f:
        for line in f:
            fields = line.split(";")
            code, name, category = int(fields[0], 16), fields[1], fields[2]
            if name.endswith(", First>"):
                pending = code
                continue
            if name.endswith(", Last>") and pending is not None:
                for c in range(pending, code + 1):
                    gc[c] = category
                pending = None
                continue
            gc[code] = category
    return gc


def main():
    word_break_path = os.path.join(UCD, "auxiliary/WordBreakProperty.txt")
    test_path = os.path.join(UCD, "auxiliary/WordBreakTest.txt")
    for path in (word_break_path, test_path, os.path.join(UCD, "Scripts.txt")):
        check_version(path)

    values = bytearray(0x110000)
    word_break = [0] * 0x110000
    for first, last, name in read_ranges(word_break_path):
        for c in range(first, last + 1):
            word_break[c] = PROPERTIES.index(name)
    for c in range(0x110000):
        values[c] = word_break[c]
    for first, last, _ in read_ranges(os.path.join(UCD, "emoji/emoji-data.txt"), {"Extended_Pictographic"}):
        for c in range(first, last + 1):
            values[c] |= EXTENDED_PICTOGRAPHIC

    gc = general_categories()
    ignorable = {PROPERTIES.index(p) for p in ("Extend", "Format", "ZWJ")}
    katakana = PROPERTIES.index("Katakana")
    other = PROPERTIES.index("Other")
    scripts = {}
    for first, last, name in read_ranges(os.path.join(UCD, "Scripts.txt")):
        for c in range(first, last + 1):
            scripts[c] = name
    south_east_asian = set()
    for first, last, _ in read_ranges(os.path.join(UCD, "LineBreak.txt"), {"SA"}):
        south_east_asian.update(range(first, last + 1))
    unspaced = 0
    for c in range(0x110000):
        category = gc.get(c, "Cn")
        if word_break[c] in ignorable:
            continue
        letter = category.startswith("L") or category == "Nl"
        if word_break[c] == katakana or (letter and scripts.get(c) in UNSPACED_SCRIPTS) \
                or (category in ("Lo", "Lm") and c in south_east_asian):
            values[c] |= UNSPACED_LETTER
            unspaced += 1
        if category == "No" and word_break[c] == other:
            values[c] |= OTHER_NUMBER

    entries = []
    for c in range(0x110000):
        if c == 0 or values[c] != values[c - 1]:
            entries.append((c << 8) | values[c])

    with open(OUT, "w", encoding="utf-8") as f:
        f.write(f"// GENERATED by scripts/generate-word-break-tables.py from the Unicode Character Database {EXPECTED_VERSION}\n")
        f.write("// (WordBreakProperty.txt, emoji-data.txt, Scripts.txt, LineBreak.txt, UnicodeData.txt). Do not edit.\n\n")
        f.write("extension WordBreakTable {\n")
        f.write("    /// `start << 8 | byte` for each run of scalars with the same byte, sorted by start, from U+0000:\n")
        f.write("    /// bits 0-4 the Word_Break property (``WordBreakProperty``), 0x20 Extended_Pictographic, 0x40 a letter\n")
        f.write("    /// of a script written without spaces, 0x80 an other number (gc No) that Word_Break leaves as Other.\n")
        f.write(f"    static let runs: [UInt32] = [ // {len(entries)} runs\n")
        for start in range(0, len(entries), 8):
            f.write("        " + ", ".join(f"0x{e:08X}" for e in entries[start:start + 8]) + ",\n")
        f.write("    ]\n}\n")

    os.makedirs(os.path.dirname(TEST_OUT), exist_ok=True)
    cases = 0
    with open(test_path, encoding="utf-8") as source, open(TEST_OUT, "w", encoding="utf-8") as f:
        f.write(f"# UAX #29 word boundary cases: WordBreakTest.txt {EXPECTED_VERSION} (Unicode, Inc.; unicode.org/copyright.html)\n")
        f.write("# without its comments, written by scripts/generate-word-break-tables.py. ÷ boundary, × none.\n")
        for line in source:
            data = line.split("#", 1)[0].strip()
            if data:
                f.write(data + "\n")
                cases += 1
    print(f"{len(entries)} runs ({unspaced} unspaced-script letters) -> {os.path.relpath(OUT, ROOT)}; "
          f"{cases} cases -> {os.path.relpath(TEST_OUT, ROOT)}")


if __name__ == "__main__":
    main()
