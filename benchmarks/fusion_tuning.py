#!/usr/bin/env python3
"""Hybrid fusion functions compared offline on the known-item queries of benchmarks/search.py.

Input: the rankings file written by `python3 benchmarks/search.py --work DIR --rankings FILE` (for
every query, the keyword top 100 with BM25 scores and the vector top 100 with cosines, exactly as
the Swift index returned them) and DIR/docs.jsonl (a hit is the target or a document with the same
text, as in search.py).

Split: queries at even positions tune, queries at odd positions test. Each function's setting is
chosen on the tuning half alone and reported on the test half (no choice looks at the test half).

The choice rule. On lexical queries alone, recall only grows as the keyword weight grows (keyword
search is the better mode there; the vector ranking finds the target where keyword search does not
for a handful of queries), so "best recall on the tuning half" picks keyword search alone, which
gives paraphrase queries nothing. The rule is therefore: among settings whose tuning-half recall is
at most one query below the best setting's, the one that gives the vector ranking the largest share
(its weight / the sum of weights; for RRF then the larger k, for every function then the smaller
depth). Printed per choice: recall on each half, and on the test half how many queries it rescues
(keyword search misses the target, vector search finds it, the fusion too) and loses (keyword
search finds it, the fusion does not).

Functions (Bruch, Gai & Ingber 2023, "An Analysis of Fusion Functions for Hybrid Retrieval"):
- rrf: sum of w_i / (k + rank_i) over the rankings that hold the item (NLUSearch's ReciprocalRankFusion).
- convex: alpha * norm(BM25) + (1 - alpha) * norm(cosine), each list normalised on its own
  candidates; an item missing from a list scores that list's normalised floor (0).
  Normalisations: minmax ((s - min) / (max - min) over the list), tmm (theoretical min-max: BM25 / max,
  cosine (s + 1) / (max + 1)), z (z-score, floored at the list's minimum).
Ties go to the smaller (document id, chunk), as in the Swift code.

Pure Python, no third-party packages. Usage:
  python3 benchmarks/fusion_tuning.py RANKINGS DOCS.jsonl [--depths 20,50,100] [--check SPEC]
(--check SPEC prints the test-half recall of one setting, e.g. convex:minmax:0.7:50, to compare with
`nlu-bench search --fusion` on the same index.)
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


def fuse(query, setting, k=5):
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


def recall(queries, setting):
    if not queries:
        return 0.0
    return sum(1 for q in queries if any(doc in q["relevant"] for doc in fuse(q, setting))) / len(queries)


def single(queries, mode):
    return sum(1 for q in queries if any(doc in q["relevant"] for doc, _, _ in q[mode][:5])) / len(queries)


def describe(setting):
    return ":".join(str(part) for part in setting)


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    queries = load(sys.argv[1], sys.argv[2])
    tune, test = queries[0::2], queries[1::2]
    depths = [int(d) for d in (sys.argv[sys.argv.index("--depths") + 1] if "--depths" in sys.argv else "20,50,100").split(",")]
    print(f"{len(queries)} queries: {len(tune)} tune (even positions), {len(test)} test (odd positions)")
    for mode in ("keyword", "vector"):
        print(f"  {mode:>7}: recall@5 tune {single(tune, mode):.3f}, test {single(test, mode):.3f}, all {single(queries, mode):.3f}")
    if "--check" in sys.argv:
        parts = sys.argv[sys.argv.index("--check") + 1].split(":")
        setting = (parts[0], float(parts[1]), float(parts[2]), float(parts[3]), int(parts[4])) if parts[0] == "rrf" \
            else (parts[0], parts[1], float(parts[2]), int(parts[3]))
        print(f"  {describe(setting)}: recall@5 tune {recall(tune, setting):.3f}, test {recall(test, setting):.3f}, all {recall(queries, setting):.3f}")
        return
    grids = {
        "rrf": [("rrf", k, kw, 1.0, d) for k in (1, 5, 10, 20, 60, 100) for kw in (1.0, 1.5, 2.0, 3.0, 5.0) for d in depths],
        "convex minmax": [("convex", "minmax", a / 20, d) for a in range(21) for d in depths],
        "convex tmm": [("convex", "tmm", a / 20, d) for a in range(21) for d in depths],
        "convex z": [("convex", "z", a / 20, d) for a in range(21) for d in depths],
    }
    union = [sum(1 for q in half if any(doc in q["relevant"] for doc, _, _ in q["keyword"][:5] + q["vector"][:5])) / len(half) for half in (tune, test)]
    print(f"  either mode finds the target (the ceiling): tune {union[0]:.3f}, test {union[1]:.3f}")
    plain = ("rrf", 60, 1.0, 1.0, 50)
    print("  plain rrf:60:1.0:1.0:50: recall@5 tune %.3f, test %.3f (rescued %d, lost %d)" % ((recall(tune, plain), recall(test, plain)) + rescue(test, plain)))
    slack = 1 / len(tune)
    for name, grid in grids.items():
        scored = [(recall(tune, s), s) for s in grid]
        best_tune = max(score for score, _ in scored)
        eligible = [s for score, s in scored if score >= best_tune - slack - 1e-12]
        chosen = max(eligible, key=lambda s: (vector_share(s), s[1] if s[0] == "rrf" else 0, -s[-1]))
        rescued, lost = rescue(test, chosen)
        print(f"  {name:>14}: chosen on tune {describe(chosen)} (tune {recall(tune, chosen):.3f}, best {best_tune:.3f})"
              f" -> test {recall(test, chosen):.3f} (rescued {rescued}, lost {lost})")
        if "--curve" in sys.argv:
            for s in grid:
                if s[-1] == chosen[-1] and (s[0] != "rrf" or s[1] == chosen[1]):
                    print(f"      {describe(s)}: tune {recall(tune, s):.3f} test {recall(test, s):.3f}")


def vector_share(setting):
    if setting[0] == "rrf":
        return setting[3] / (setting[2] + setting[3])
    return 1 - setting[2]


def rescue(queries, setting):
    rescued = lost = 0
    for q in queries:
        fused = any(doc in q["relevant"] for doc in fuse(q, setting))
        keyword = any(doc in q["relevant"] for doc, _, _ in q["keyword"][:5])
        vector = any(doc in q["relevant"] for doc, _, _ in q["vector"][:5])
        rescued += fused and vector and not keyword
        lost += keyword and not fused
    return rescued, lost


if __name__ == "__main__":
    main()
