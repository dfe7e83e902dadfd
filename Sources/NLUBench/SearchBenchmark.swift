import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench search`: builds an index from a JSONL file, then times queries per mode and scores
/// known-item recall; prints JSON (driven by benchmarks/search.py, which also checks the vector
/// results against a NumPy brute force over the stored vectors).
struct SearchBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Index --documents, run --queries in each mode; print add time, latency and recall@k as JSON.")

    @Option(help: "JSONL documents ({id, text}).")
    var documents: String

    @Option(help: "JSONL queries ({query, target, set}): target is the id of the document the query is about.")
    var queries: String

    @Option(help: "Embedding model (directory, or hashing[:DIM]).")
    var model: String

    @Option(help: "Index file to create (must not exist, unless --reuse).")
    var db: String

    @Flag(help: "Search the index already at --db (built by an earlier run) instead of building it; documents it lacks (by id) are added.")
    var reuse = false

    @Option(help: "Write each query's keyword and vector rankings (top --rankings-depth, with scores) here as JSONL, for tuning the fusion offline.")
    var rankingsOutput: String?

    @Option(help: "Results per mode written by --rankings-output.")
    var rankingsDepth: Int = 100

    @Option(help: "Results per query.")
    var k: Int = 5

    @Option(help: "Write the vector-mode top-k and query vectors of the first N queries here, for the brute-force check.")
    var checkOutput: String?

    @Option(help: "Queries written for the brute-force check.")
    var checkCount: Int = 200

    @Option(help: "Hybrid fusion settings to compare, as rrf:k:keywordWeight:vectorWeight:depth or convex:keywordWeight:vectorWeight:depth (repeatable).")
    var fusion: [String] = []

    struct Query: Decodable { var query: String; var target: String; var set: String }

    func run() throws {
        let embedder = try EmbedderLoading.load(model)
        let reused = reuse && FileManager.default.fileExists(atPath: db)
        let index = reused ? try DocumentIndex(at: URL(fileURLWithPath: db), embedder: embedder)
            : try DocumentIndex.create(at: URL(fileURLWithPath: db), embedder: embedder, modelSource: EmbedderLoading.recordedSource(model))
        var reader = DocumentFileReader()
        let documents = try reader.read(path: self.documents)
        // A reused index gets only the documents it lacks: a set added to the benchmark later
        // (the paraphrase verses) does not cost embedding the earlier documents again.
        let toAdd = reused ? try documents.filter { !(try index.contains(id: $0.id)) } : documents
        let addStart = Date()
        if !toAdd.isEmpty { try index.add(toAdd) }
        let addSeconds = Date().timeIntervalSince(addStart)
        let info = try index.info()

        let decoder = JSONDecoder()
        let queries = try BenchmarkInput.text(self.queries).split(separator: "\n")
            .map { try decoder.decode(Query.self, from: Data($0.utf8)) }
        // Documents with the same text as the target count as finding it (Snips repeats some utterances).
        var textOf: [String: String] = [:]
        for document in documents { textOf[document.id] = document.text.lowercased() }

        let embedStart = Date()
        let vectors = try index.embedQueries(queries.map(\.query))
        let embedSeconds = Date().timeIntervalSince(embedStart)
        _ = try index.search("warm up", embedding: vectors.first, options: SearchOptions(k: k, mode: .vector))

        if let rankingsOutput {
            try writeRankings(index, queries: queries, vectors: vectors, to: rankingsOutput)
        }

        var settings: [(String, SearchOptions)] = SearchMode.allCases.map { ($0.rawValue, SearchOptions(k: k, mode: $0)) }
        for spec in fusion {
            // k:keywordWeight:vectorWeight:depth (four numbers, the earlier form) is RRF.
            var fields = spec.split(separator: ":").map(String.init)
            if fields.count == 4, fields.allSatisfy({ Double($0) != nil }) { fields.insert("rrf", at: 0) }
            let function = fields.first.flatMap { FusionFunction(rawValue: $0) }
            let parts = fields.dropFirst().compactMap { Double($0) }
            let fusion: FusionOptions
            switch (function, parts.count) {
            case (.rrf?, 4): fusion = FusionOptions(function: .rrf, k: parts[0], keywordWeight: parts[1], vectorWeight: parts[2], candidateDepth: Int(parts[3]))
            case (.convex?, 3): fusion = FusionOptions(function: .convex, keywordWeight: parts[0], vectorWeight: parts[1], candidateDepth: Int(parts[2]))
            default: throw ValidationError("--fusion expects rrf:k:keywordWeight:vectorWeight:depth or convex:keywordWeight:vectorWeight:depth, got \(spec)")
            }
            try fusion.validate()
            settings.append(("hybrid \(spec)", SearchOptions(k: k, mode: .hybrid, fusion: fusion)))
        }
        var modes: [String: Any] = [:]
        var check: [[String: Any]] = []
        for (name, options) in settings {
            var latencies: [Double] = []
            var hits: [String: (Int, Int)] = [:]
            for (number, query) in queries.enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                let results = try index.search(query.query, embedding: vectors[number], options: options)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                let target = textOf[query.target]
                let hit = results.contains { $0.documentID == query.target || textOf[$0.documentID] == target }
                let entry = hits[query.set, default: (0, 0)]
                hits[query.set] = (entry.0 + (hit ? 1 : 0), entry.1 + 1)
                if name == "vector", number < checkCount {
                    check.append(["vector": vectors[number].map { Double($0) }, "results": results.map { ["document": $0.documentID, "chunk": $0.chunk, "score": $0.score] }])
                }
            }
            latencies.sort()
            modes[name] = [
                "mean_ms": latencies.reduce(0, +) / Double(max(latencies.count, 1)),
                "median_ms": latencies.isEmpty ? 0 : latencies[latencies.count / 2],
                "p95_ms": latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 95 / 100)],
                "recall": hits.mapValues { Double($0.0) / Double(max($0.1, 1)) },
            ]
        }
        if let checkOutput {
            try JSONSerialization.data(withJSONObject: check).write(to: URL(fileURLWithPath: checkOutput))
        }
        let output: [String: Any] = [
            "documents": info.documentCount, "chunks": info.chunkCount, "model": "\(embedder.identity)",
            "add_seconds": addSeconds, "added": toAdd.count, "reused": reused, "queries": queries.count, "query_embedding_ms": embedSeconds * 1000 / Double(max(queries.count, 1)),
            "k": k, "modes": modes, "blas": BLAS.configuration,
        ]
        print(String(decoding: try JSONSerialization.data(withJSONObject: output, options: [.sortedKeys]), as: UTF8.self))
    }
}

extension SearchBenchmark {
    /// One JSON line per query: its keyword and vector rankings with their scores, what a fusion
    /// function sees, so that fusion settings can be compared without searching again.
    func writeRankings(_ index: DocumentIndex, queries: [Query], vectors: [[Float]], to path: String) throws {
        guard (1...SearchOptions.maximumK).contains(rankingsDepth) else {
            throw ValidationError("--rankings-depth must be in 1...\(SearchOptions.maximumK)")
        }
        var lines = ""
        for (number, query) in queries.enumerated() {
            var entry: [String: Any] = ["query": query.query, "target": query.target, "set": query.set]
            for mode in [SearchMode.keyword, .vector] {
                let results = try index.search(query.query, embedding: vectors[number], options: SearchOptions(k: rankingsDepth, mode: mode))
                entry[mode.rawValue] = results.map { [$0.documentID, $0.chunk, $0.score] as [Any] }
            }
            lines += String(decoding: try JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys]), as: UTF8.self) + "\n"
        }
        try Data(lines.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    }
}

/// `nlu-bench search-matrix`: exact top-k over a random rows × dimension matrix (no SQLite, no
/// embedding): the vector search's core, timed against NumPy by benchmarks/search.py.
struct SearchMatrixBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search-matrix",
        abstract: "Time exact cosine top-k over a random matrix, F32 and INT8 scans; print milliseconds per query as JSON.")

    @Option(help: "Rows (chunks).")
    var rows: Int = 100_000

    @Option(help: "Dimension.")
    var dimension: Int = 384

    @Option(help: "Queries timed.")
    var queries: Int = 200

    @Option(help: "Results per query.")
    var k: Int = 10

    func run() throws {
        guard (1...2_000_000).contains(rows), (1...4096).contains(dimension), (1...100_000).contains(queries) else {
            throw ValidationError("rows 1...2000000, dimension 1...4096, queries 1...100000")
        }
        var random = SplitMix64(seed: 7)
        var matrix = VectorMatrix(dimension: dimension)
        matrix.reserve(rows: rows)
        for _ in 0..<rows { matrix.append((0..<dimension).map { _ in Float.random(in: -1..<1, using: &random) }) }
        let probes = (0..<queries).map { _ in (0..<dimension).map { _ in Float.random(in: -1..<1, using: &random) } }
        let quantizeStart = DispatchTime.now().uptimeNanoseconds
        matrix.quantize()
        let quantizeMs = Double(DispatchTime.now().uptimeNanoseconds - quantizeStart) / 1e6
        // Each scan is timed on every probe; both must return the same rows (the re-ranking is exact).
        var results: [String: [[Int]]] = [:]
        var figures: [String] = []
        for scan in VectorMatrix.Scan.allCases {
            _ = matrix.top(k, for: probes[0], scan: scan)
            var latencies: [Double] = []
            var rowsFound: [[Int]] = []
            for probe in probes {
                let start = DispatchTime.now().uptimeNanoseconds
                let top = matrix.top(k, for: probe, scan: scan)
                latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                rowsFound.append(top.map(\.row))
            }
            results[scan.rawValue] = rowsFound
            latencies.sort()
            figures.append("\"\(scan.rawValue)\":{\"mean_ms\":\(latencies.reduce(0, +) / Double(latencies.count)),"
                           + "\"median_ms\":\(latencies[latencies.count / 2]),\"p95_ms\":\(latencies[latencies.count * 95 / 100])}")
        }
        let agreeing = zip(results["f32"] ?? [], results["int8"] ?? []).filter { $0 == $1 }.count
        print("{\"rows\":\(rows),\"dimension\":\(dimension),\"queries\":\(queries),\"k\":\(k),\"threads\":\(Kernels.threadCount),"
              + "\"quantize_ms\":\(quantizeMs),\"scans_agree\":\(agreeing),\(figures.joined(separator: ","))}")
    }
}
