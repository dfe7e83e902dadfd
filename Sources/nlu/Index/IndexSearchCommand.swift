import ArgumentParser
import Foundation
import NLUKit

extension SearchMode: ExpressibleByArgument {}
extension FusionFunction: ExpressibleByArgument {}

/// `nlu index search DB [QUERY]`: the best chunks for each query.
struct IndexSearchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "search",
        abstract: "Search an index by keyword, vector or both (hybrid).",
        discussion: """
        Queries come from the argument or, without one, from standard input (one per line). With \
        --json, one line per query: {"query": ..., "results": [{"document": ID, "chunk": N, \
        "score": S, "start": A, "end": B, "text": ...}]}, start/end being Unicode-scalar offsets of \
        the chunk in its document. Scores: keyword BM25, vector cosine, hybrid the fused \
        score (convex: the weighted sum of min-max normalised scores; rrf: Σ w / (k + rank)). A query \
        whose vector is zero (no term the model knows, such as "!!!" with the hashing embedder) has \
        no vector results, and hybrid ranks it by keyword alone: a note on stderr says so, and with \
        --json its line has "zeroQueryVector": true.
        """)

    @Argument(help: ArgumentHelp("The index file, or a postgres:// URL.", valueName: "db"))
    var database: String

    @Argument(help: ArgumentHelp("The query (default: one per line from standard input).", valueName: "query"))
    var query: String?

    @Option(name: [.customLong("top-k"), .customShort("k"), .customLong("k")],
            help: ArgumentHelp("Results per query (--k: the former spelling).", valueName: "n"))
    var topK: Int = 5

    @Option(help: ArgumentHelp("keyword, vector or hybrid.", valueName: "mode"))
    var mode: SearchMode = .hybrid

    @Option(help: ArgumentHelp("Only documents whose metadata has this value at this key (repeatable; all must match).", valueName: "key=value"))
    var filter: [String] = []

    @Option(help: ArgumentHelp("Hybrid: how the two rankings are combined, rrf (reciprocal ranks) or convex (normalised scores).", valueName: "function"))
    var fusion: FusionFunction = FusionOptions().function

    @Option(help: ArgumentHelp("Hybrid, rrf: the reciprocal-rank constant (default \(FusionOptions.defaults(for: .rrf).k)).", valueName: "k"))
    var rrfK: Double?

    @Option(help: ArgumentHelp("Hybrid: the keyword ranking's weight (default: rrf \(FusionOptions.defaults(for: .rrf).keywordWeight), convex \(FusionOptions.defaults(for: .convex).keywordWeight)).", valueName: "w"))
    var keywordWeight: Double?

    @Option(help: ArgumentHelp("Hybrid: the vector ranking's weight (default: rrf \(FusionOptions.defaults(for: .rrf).vectorWeight), convex \(FusionOptions.defaults(for: .convex).vectorWeight)).", valueName: "w"))
    var vectorWeight: Double?

    @Option(help: ArgumentHelp("Hybrid: results of each mode that enter the fusion (default: rrf \(FusionOptions.defaults(for: .rrf).candidateDepth), convex \(FusionOptions.defaults(for: .convex).candidateDepth)).", valueName: "n"))
    var candidates: Int?

    @Option(name: .shortAndLong,
            help: ArgumentHelp("Load the embedding model from here instead of the location recorded in the index.", valueName: "model"))
    var model: String?

    @Flag(help: "Print JSON on stdout.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func options() throws -> SearchOptions {
        var conditions: [String: String] = [:]
        for condition in filter {
            guard let equals = condition.firstIndex(of: "="), equals != condition.startIndex else {
                throw ValidationError("--filter expects key=value, got \"\(condition)\"")
            }
            conditions[String(condition[..<equals])] = String(condition[condition.index(after: equals)...])
        }
        return SearchOptions(k: topK, mode: mode, filter: conditions,
                             fusion: FusionOptions(function: fusion, k: rrfK, keywordWeight: keywordWeight, vectorWeight: vectorWeight,
                                                   candidateDepth: candidates))
    }

    /// The library's names of the search parameters (``SearchOptions/validate()``) and their flags.
    static let flags = [("k must", "--top-k must"), ("the fusion constant k", "--rrf-k (the fusion constant k)"),
                        ("the keyword and vector weights", "--keyword-weight and --vector-weight"),
                        ("the keyword weight", "--keyword-weight"), ("the vector weight", "--vector-weight"),
                        ("the candidate depth", "--candidates (the candidate depth)")]

    func validate() throws {
        do { try options().validate() } catch let error as SearchError {
            var message = "\(error)"
            if let (name, flag) = Self.flags.first(where: { message.hasPrefix($0.0) }) {
                message = flag + message.dropFirst(name.count)
            }
            throw ValidationError(message)
        }
        if let query, !query.contains(where: { !$0.isWhitespace }) { throw ValidationError("the query is empty") }
        // The library's limits on a query (length; distinct terms where keywords are searched), as a usage error.
        if let query {
            do {
                if mode == .vector { try KeywordQuery.checkLength(query) } else { _ = try KeywordQuery(query) }
            } catch {
                throw ValidationError("\(error)")
            }
        }
        try IndexLocation.validateModelOption(model)
    }

    struct Output: Encodable {
        struct Result: Encodable {
            var document: String
            var chunk: Int
            var score: Double
            var start: Int
            var end: Int
            var text: String
        }
        var query: String
        /// True when the query's vector is zero (no vector results); absent otherwise.
        var zeroQueryVector: Bool?
        var results: [Result]
    }

    /// What stderr says of a query whose vector is zero, in `mode` (vector or hybrid).
    static func zeroVectorNote(query: String, mode: SearchMode) -> String {
        "note: the query \"\(query)\" has a zero vector (no term the model knows), so it has no vector results"
            + (mode == .hybrid ? "; its hybrid results are its keyword results" : "")
    }

    func run() throws {
        let options = try options()
        let index = try IndexLocation.open(database, model: model, needsEmbedder: options.mode != .keyword, readOnly: true)
        let queries: [String]
        if let query {
            queries = [query]
        } else {
            queries = try Console.readLines(path: nil).filter { $0.contains { !$0.isWhitespace } }
        }
        // All queries are embedded in one batch before searching.
        let embeddings = options.mode == .keyword ? nil : try index.embedQueries(queries)
        for (number, query) in queries.enumerated() {
            let results = try index.search(query, embedding: embeddings?[number], options: options)
            let zeroVector = embeddings.map { VectorMatrix.isZero($0[number]) } ?? false
            if json {
                Console.print(try Console.json(Output(query: query, zeroQueryVector: zeroVector ? true : nil, results: results.map {
                    .init(document: $0.documentID, chunk: $0.chunk, score: $0.score, start: $0.start, end: $0.end, text: $0.text)
                })))
                continue
            }
            if zeroVector { Console.log(Self.zeroVectorNote(query: query, mode: options.mode)) }
            if queries.count > 1 { Console.print("\(number > 0 ? "\n" : "")query: \(query)") }
            if results.isEmpty { Console.print("(no results)") }
            for (rank, result) in results.enumerated() {
                let preview = result.text.split(whereSeparator: \.isNewline).joined(separator: " ")
                let shown = preview.count > 100 ? preview.prefix(99) + "…" : Substring(preview)
                Console.print(String(format: "%2d. %.4f  ", rank + 1, result.score) + "\(result.documentID) \(SpanNotation.text(start: result.start, end: result.end))  \(shown)")
            }
        }
    }
}
