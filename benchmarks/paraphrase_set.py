#!/usr/bin/env python3
"""Known-item paraphrase queries from two English Bible translations (both public domain).

The documents are the verses of the New Testament in the King James Version (1611; SWORD module
engKJV2006eb); a query is the same verse in the World English Bible (modern English; engWEB2015eb).
The two renderings of one verse are a sentence pair that translators made equivalent in meaning,
written by others, mostly in different words ("And he opened his mouth, and taught them, saying" /
"He opened his mouth and taught them, saying"; "Then Herod, when he saw that he was mocked of the
wise men, was exceeding wroth" / "Then Herod, when he saw that he was mocked by the wise men, was
exceedingly angry"). The known item of a query is the KJV verse with the same reference.

Both texts come from Debian 12's packages sword-text-kjv and sword-text-web through diatheke
(SWORD's command-line reader); run as root, this module installs them with apt-get when diatheke
is missing. The text is never stored in the repository. Without them, `load()` raises Unavailable
with the reason, and benchmarks/search.py runs its lexical set only.

Two sets: "paraphrase" (verses at random) and "paraphrase-far" (verses at random among the quarter
whose two wordings share the fewest words; see paraphrase_queries).

Repeated verses: a query whose WEB wording belongs to more than one verse is dropped (it names no
single item); a KJV verse with the same text as the target (lower-cased) counts as a hit, as in the
lexical set.

Usage (prints the set's statistics and a few pairs): python3 benchmarks/paraphrase_set.py
"""
import random
import re
import shutil
import subprocess
import sys

MODULES = {"kjv": "engKJV2006eb", "web": "engWEB2015eb"}
PACKAGES = ["diatheke", "sword-text-kjv", "sword-text-web"]
RANGE = "Matthew 1:1-Revelation 22:21"
# "Matthew 1:1: text", "I Corinthians 2:3: text", "Revelation of John 22:21: text"
VERSE = re.compile(r"^((?:I{1,3} )?[A-Z][A-Za-z ]*?) (\d+):(\d+):\s?(.*)$")


class Unavailable(Exception):
    """The translations cannot be read here; the message says why."""


def ensure_diatheke():
    if shutil.which("diatheke"):
        return
    if shutil.which("apt-get") is None or not hasattr(sys, "platform") or sys.platform != "linux":
        raise Unavailable("diatheke is not installed and apt-get is not available (Debian: apt-get install " + " ".join(PACKAGES) + ")")
    import os
    if os.geteuid() != 0:
        raise Unavailable("diatheke is not installed; as root: apt-get install " + " ".join(PACKAGES))
    print("installing " + " ".join(PACKAGES) + " (apt-get) for the paraphrase set", file=sys.stderr)
    done = subprocess.run(["apt-get", "install", "-y"] + PACKAGES, capture_output=True, text=True)
    if done.returncode != 0 or not shutil.which("diatheke"):
        raise Unavailable("apt-get install " + " ".join(PACKAGES) + " failed: " + (done.stderr.strip().splitlines() or ["?"])[-1])


def clean(text):
    """diatheke's plain text drops footnote markers and line breaks without a space ("Christ,the",
    "only bornSon"): put the space back, drop the KJV's paragraph sign, collapse white space."""
    text = text.replace("\u00b6", " ")   # the KJV's paragraph sign
    text = re.sub(r"([,;:!?.])(?=[A-Za-z])", r"\1 ", text)
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text)
    return " ".join(text.split())


def verses(module):
    """Reference ("John 3:16") -> text, in canonical order."""
    done = subprocess.run(["diatheke", "-b", module, "-f", "plain", "-k", RANGE], capture_output=True, text=True)
    if done.returncode != 0:
        raise Unavailable(f"diatheke -b {module} failed: {done.stderr.strip()}")
    found, current = {}, None
    for line in done.stdout.splitlines():
        match = VERSE.match(line)
        if match:
            current = f"{match.group(1)} {match.group(2)}:{match.group(3)}"
            found[current] = match.group(4)
        elif current and line.strip() and not line.startswith("(" + module):
            found[current] += " " + line   # a verse set as poetry continues on the next lines
    texts = {reference: clean(text) for reference, text in found.items()}
    texts = {reference: text for reference, text in texts.items() if text}
    if len(texts) < 5000:
        raise Unavailable(f"diatheke -b {module} gave {len(texts)} verses, expected the New Testament's 7,957 (module not installed?)")
    return texts


def load():
    """(KJV, WEB): reference -> text for every New Testament verse in both, in canonical order."""
    ensure_diatheke()
    kjv, web = verses(MODULES["kjv"]), verses(MODULES["web"])
    common = [reference for reference in kjv if reference in web]
    return {r: kjv[r] for r in common}, {r: web[r] for r in common}


def words(text):
    return re.findall(r"[a-z0-9]+", text.lower())


def overlap(query, target):
    """Share of the query's distinct words that occur in the target (no stemming): 1 is a lexical query."""
    asked = set(words(query))
    return len(asked & set(words(target))) / max(len(asked), 1)


def paraphrase_queries(kjv, web, rng, count=500, min_words=6):
    """Two sets of `count` verses, each asked in the WEB's wording (target id `kjv:REFERENCE`):
    "paraphrase", verses drawn at random; "paraphrase-far", drawn at random from the other verses
    whose WEB wording shares the fewest words with the KJV's (the lowest quarter of `overlap`), where
    a search has to go by meaning more than by words."""
    wording = {}
    for reference, text in web.items():
        wording.setdefault(text.lower(), []).append(reference)
    candidates = [r for r in kjv if len(wording[web[r].lower()]) == 1 and len(words(web[r])) >= min_words
                  and len(words(kjv[r])) >= min_words]
    drawn = rng.sample(candidates, count)
    taken = set(drawn)
    rest = sorted((r for r in candidates if r not in taken), key=lambda r: (overlap(web[r], kjv[r]), r))
    far = rng.sample(rest[:len(candidates) // 4], count)
    return [{"query": web[r], "target": f"kjv:{r}", "set": "paraphrase"} for r in drawn] + \
           [{"query": web[r], "target": f"kjv:{r}", "set": "paraphrase-far"} for r in far]


def main():
    try:
        kjv, web = load()
    except Unavailable as reason:
        sys.exit(f"paraphrase set unavailable: {reason}")
    queries = paraphrase_queries(kjv, web, random.Random(17))
    print(f"{len(kjv)} verses in both translations")
    for name in ("paraphrase", "paraphrase-far"):
        shares = sorted(overlap(q["query"], kjv[q["target"][4:]]) for q in queries if q["set"] == name)
        print(f"  {name}: {len(shares)} queries; share of a query's words found in its target: "
              f"median {shares[len(shares) // 2]:.2f}, range {shares[0]:.2f}-{shares[-1]:.2f}")
    for q in queries[:5]:
        print(f"  {q['target']}\n    KJV: {kjv[q['target'][4:]]}\n    WEB: {q['query']}")


if __name__ == "__main__":
    main()
