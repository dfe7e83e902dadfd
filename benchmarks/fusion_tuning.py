#!/usr/bin/env python3
"""Hybrid fusion functions compared offline on the known-item queries of benchmarks/search.py.

Input: the rankings file written by `python3 benchmarks/search.py --work DIR --rankings FILE` (for
every query, its set, the keyword top 100 with BM25 scores and the vector top 100 with cosines,
exactly as the Swift index returned them) and DIR/docs.jsonl (a hit is the target or a document with
the same text, as in search.py).

Sets: "lexical" (three words of a Snips utterance), "paraphrase" (a New Testament verse asked in the
World English Bible's words, the King James text indexed) and "paraphrase-far" (the same, among the
verses whose two wordings share the fewest words); see benchmarks/paraphrase_set.py. The issue's
criterion is on the union of lexical and paraphrase: hybrid recall@5 within 2 points of the better
single mode and above the worse.

Split: within each set, queries at even positions tune, at odd positions test. Each function's
setting is chosen on the tuning half alone and reported on the test half (no choice looks at it).

The choice rule: the best recall@5 on the tuning half of the union (lexical + paraphrase); among
settings within one tuning query of the best, the one giving the vector ranking the largest share
(its weight / the sum of weights; then for RRF the larger k, then the smaller depth). On lexical
queries alone the plain maximum is keyword search alone; the slack keeps the vector ranking in
play when it costs at most one query. --tune-on SET,... chooses on other sets (e.g. lexical, the
earlier rule's input).

Printed for each setting on the test half, per set and on the union: recall@1, recall@5, MRR@10,
and whether the criterion holds; on the union, how many queries the fusion rescues (keyword search
misses the target, vector search finds it, the fusion too) and loses (keyword search finds it, the
fusion does not).

Functions (Bruch, Gai & Ingber 2023, "An Analysis of Fusion Functions for Hybrid Retrieval"):
- rrf: sum of w_i / (k + rank_i) over the rankings that hold the item (NLUSearch's ReciprocalRankFusion).
- convex: alpha * norm(BM25) + (1 - alpha) * norm(cosine), each list normalised on its own
  candidates; an item missing from a list scores that list's normalised floor (0).
  Normalisations: minmax ((s - min) / (max - min) over the list), tmm (theoretical min-max: BM25 / max,
  cosine (s + 1) / (max + 1)), z (z-score, floored at the list's minimum).
Ties go to the smaller (document id, chunk), as in the Swift code.

Pure Python, no third-party packages. Usage:
  python3 benchmarks/fusion_tuning.py RANKINGS DOCS.jsonl [--depths 20,50,100] [--tune-on SETS] [--check SPEC ...]
(--check SPEC adds a setting to the table, e.g. rrf:60:1:1:50 or convex:minmax:0.65:50, to compare
with `nlu-bench search --fusion` on the same index.)
"""
import json
import sys


def load(rankings_path, docs_path):
    text_of = {}
    for line in open(docs_path, encoding="utf-8"):
        row = json.loads(line)
        text_of[row["id"]] = row["text"].lower()
    queries = [json.loads(line) for line in open(rankings_path, encoding="utf-8") if line.strip()]
    for q in queries:
        target = text_of[q["target"]]
        q["relevant"] = {doc for doc, _, _ in q["keyword"] + q["vector"] if doc == q["target"] or text_of[doc] == target}
    return queries


def normalise(scores, how, kind):
    if not scores:
        return []
    if how == "minmax":
        low, high = min(scores), max(scores)
        return [1.0 if high == low else (s - low) / (high - low) for s in scores]
    if how == "tmm":
        floor = 0.0 if kind == "keyword" else -1.0
        high = max(scores)
        return [1.0 if high == floor else (s - floor) / (high - floor) for s in scores]
    if how == "z":
        mean = sum(scores) / len(scores)
        spread = (sum((s - mean) ** 2 for s in scores) / len(scores)) ** 0.5
        values = [0.0 if spread == 0 else (s - mean) / spread for s in scores]
        low = min(values)
        return [v - low for v in values]   # floor 0, so a missing item scores the list's minimum
    raise ValueError(how)


def fuse(query, setting, k=10):
    function, depth = setting[0], setting[-1]
    keyword = [(doc, chunk, score) for doc, chunk, score in query["keyword"][:depth]]
    vector = [(doc, chunk, score) for doc, chunk, score in query["vector"][:depth]]
    fused = {}
    if function == "rrf":
        _, rrf_k, kw, vw, _ = setting
        for weight, ranking in ((kw, keyword), (vw, vector)):
            for rank, (doc, chunk, _) in enumerate(ranking):
                fused[(doc, chunk)] = fused.get((doc, chunk), 0.0) + weight / (rrf_k + rank + 1)
    else:
        _, how, alpha, _ = setting
        for weight, ranking, kind in ((alpha, keyword, "keyword"), (1 - alpha, vector, "vector")):
            for (doc, chunk, _), value in zip(ranking, normalise([s for _, _, s in ranking], how, kind)):
                fused[(doc, chunk)] = fused.get((doc, chunk), 0.0) + weight * value
    best = sorted(fused.items(), key=lambda item: (-item[1], item[0]))[:k]
    return [doc for (doc, _), _ in best]


UNION = ("lexical", "paraphrase")
MODES = ("keyword", "vector")


def ranked(query, setting):
    """The top 10 document ids of a single mode ("keyword", "vector") or of a fusion setting."""
    if setting in MODES:
        return [doc for doc, _, _ in query[setting][:10]]
    return fuse(query, setting)


def metrics(queries, setting):
    """(recall@1, recall@5, MRR@10) over the queries."""
    if not queries:
        return (0.0, 0.0, 0.0)
    first = [next((i + 1 for i, doc in enumerate(ranked(q, setting)) if doc in q["relevant"]), None) for q in queries]
    return (sum(r == 1 for r in first) / len(queries), sum(r is not None and r <= 5 for r in first) / len(queries),
            sum(1 / r for r in first if r) / len(queries))


def recall(queries, setting):
    return metrics(queries, setting)[1]


def describe(setting):
    return setting if isinstance(setting, str) else ":".join(str(part) for part in setting)


def vector_share(setting):
    if setting[0] == "rrf":
        return setting[3] / (setting[2] + setting[3])
    return 1 - setting[2]


def rescue(queries, setting):
    rescued = lost = 0
    for q in queries:
        fused = any(doc in q["relevant"] for doc in fuse(q, setting)[:5])
        keyword = any(doc in q["relevant"] for doc, _, _ in q["keyword"][:5])
        vector = any(doc in q["relevant"] for doc, _, _ in q["vector"][:5])
        rescued += fused and vector and not keyword
        lost += keyword and not fused
    return rescued, lost


def parse(spec):
    parts = spec.split(":")
    if parts[0] == "rrf":
        return ("rrf", float(parts[1]), float(parts[2]), float(parts[3]), int(parts[4]))
    return ("convex", parts[1], float(parts[2]), int(parts[3]))


def criterion(queries, setting):
    """Whether recall@5 is within 2 points of the better single mode and above the worse (one query = 1/len)."""
    value = recall(queries, setting)
    singles = sorted(recall(queries, mode) for mode in MODES)
    return value >= singles[1] - 0.02 - 1e-12 and value > singles[0] + 1e-12


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    queries = load(sys.argv[1], sys.argv[2])
    names = list(dict.fromkeys(q["set"] for q in queries))
    halves = {"tune": {}, "test": {}}
    for name in names:
        members = [q for q in queries if q["set"] == name]
        halves["tune"][name], halves["test"][name] = members[0::2], members[1::2]
    for half in halves.values():
        half["union"] = [q for name in UNION for q in half.get(name, [])]
    tune_on = (sys.argv[sys.argv.index("--tune-on") + 1].split(",") if "--tune-on" in sys.argv else list(UNION))
    tune = [q for name in tune_on for q in halves["tune"].get(name, [])]
    depths = [int(d) for d in (sys.argv[sys.argv.index("--depths") + 1] if "--depths" in sys.argv else "20,50,100").split(",")]
    print(f"{len(queries)} queries; per set tune (even positions) / test (odd positions): "
          + ", ".join(f"{name} {len(halves['tune'][name])}/{len(halves['test'][name])}" for name in names))
    grids = {
        "rrf": [("rrf", k, kw, 1.0, d) for k in (1, 5, 10, 20, 60, 100) for kw in (0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 5.0) for d in depths],
        "convex minmax": [("convex", "minmax", a / 20, d) for a in range(21) for d in depths],
        "convex tmm": [("convex", "tmm", a / 20, d) for a in range(21) for d in depths],
        "convex z": [("convex", "z", a / 20, d) for a in range(21) for d in depths],
    }
    rows = [("keyword", "keyword"), ("vector", "vector"), ("plain RRF (the default)", ("rrf", 60, 1.0, 1.0, 50)),
            ("convex default", ("convex", "minmax", 0.65, 50)), ("RRF tuned on lexical", ("rrf", 1, 3.0, 1.0, 20))]
    rows += [(f"--check {spec}", parse(spec)) for i, spec in enumerate(sys.argv) if sys.argv[i - 1] == "--check"]
    slack = 1 / max(len(tune), 1)
    print(f"choosing on the tuning half of {' + '.join(tune_on)} ({len(tune)} queries): recall@5, "
          "then the largest vector share within one query of the best")
    for name, grid in grids.items():
        scored = [(recall(tune, s), s) for s in grid]
        best_tune = max(score for score, _ in scored)
        eligible = [s for score, s in scored if score >= best_tune - slack - 1e-12]
        chosen = max(eligible, key=lambda s: (vector_share(s), s[1] if s[0] == "rrf" else 0, -s[-1]))
        print(f"  {name:>14}: chosen {describe(chosen)} (tune {recall(tune, chosen):.3f}, best {best_tune:.3f})")
        rows.append((f"{name} chosen", chosen))
    sets = names + ["union"]
    print("\ntest half: recall@1 / recall@5 / MRR@10 per set; union = " + " + ".join(UNION)
          + "; ok = recall@5 within 2 points of the better single mode and above the worse")
    print(f"  {'setting':<44}" + "".join(f"{name:>26}" for name in sets) + "   rescued/lost (union)")
    for label, setting in rows:
        cells = []
        for name in sets:
            r1, r5, mrr = metrics(halves["test"][name], setting)
            mark = "" if setting in MODES else (" ok" if criterion(halves["test"][name], setting) else " --")
            cells.append(f"{r1:.3f} / {r5:.3f} / {mrr:.3f}{mark:>3}")
        extra = "" if setting in MODES else "   %d/%d" % rescue(halves["test"]["union"], setting)
        print(f"  {label + ' ' + ('' if setting in MODES else describe(setting)):<44}" + "".join(f"{c:>26}" for c in cells) + extra)
    if "--all" in sys.argv:
        print("\nevery RRF setting on the test half, recall@5 per set:")
        for setting in grids["rrf"]:
            print(f"  {describe(setting):<22}" + "".join(f"{recall(halves['test'][name], setting):>8.3f}" for name in sets))


if __name__ == "__main__":
    main()
