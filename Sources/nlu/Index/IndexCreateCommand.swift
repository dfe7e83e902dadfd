import ArgumentParser
import Foundation
import NLUKit

/// `nlu index create DB --model MODEL`: a new, empty index.
struct IndexCreateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "create",
        abstract: "Create an empty index: a file (never replaces an existing one) or PostgreSQL tables.",
        discussion: """
        MODEL is the embedding model: the directory of a sentence-transformers model (such as \
        all-MiniLM-L6-v2), or hashing / hashing:DIM (model-free hashed word vectors: lexical \
        similarity only). The model is recorded in the index; add and search load it from there. \
        DB is a file path (SQLite), or postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME] \
        (PostgreSQL with pgvector: tables in schema NAME, default nlukit; --hnsw for an approximate \
        vector index). --language names the documents' language (fr, de-CH, pt_BR...): its Snowball \
        stemmer and stop words make the keyword terms of documents and queries; it is recorded in the \
        index (default en; an index made without it is English).
        """)

    @Argument(help: ArgumentHelp("The index file to create, or postgres://USER@HOST:PORT/DATABASE[?schema=NAME].", valueName: "db"))
    var database: String

    @Option(name: .shortAndLong, help: ArgumentHelp("The embedding model (see above).", valueName: "model"))
    var model: String

    @Option(help: ArgumentHelp("Words per chunk.", valueName: "n"))
    var chunkSize: Int = ChunkingOptions.default.size

    @Option(help: ArgumentHelp("Words shared by consecutive chunks.", valueName: "n"))
    var overlap: Int = ChunkingOptions.default.overlap

    @Option(help: ArgumentHelp("The documents' language for keyword search: an ISO 639-1 or culture code (default en).", valueName: "code"))
    var language: String?

    @Flag(help: "PostgreSQL only: an HNSW index for vector search (approximate, faster on large collections; default: exact).")
    var hnsw = false

    @Flag(help: "Print {\"index\", \"model\", \"chunkSize\", \"chunkOverlap\"} on stdout.")
    var json = false

    struct Output: Encodable {
        var index: String
        var model: EmbedderIdentity
        var chunkSize: Int
        var chunkOverlap: Int
    }

    func validate() throws {
        try IndexLocation.validateModelOption(model)
        do { _ = try ChunkingOptions(size: chunkSize, overlap: overlap) } catch { throw ValidationError("\(error)") }
        _ = try keywordAnalyzer()
    }

    private func keywordAnalyzer() throws -> KeywordAnalyzer {
        guard let language else { return .english }
        do { return try KeywordAnalyzer(language: language) } catch { throw ValidationError("--language: \(error)") }
    }

    func run() throws {
        let embedder = try EmbedderLoading.load(model)
        let index = try IndexLocation.create(database, embedder: embedder, modelSource: EmbedderLoading.recordedSource(model),
                                             chunking: try ChunkingOptions(size: chunkSize, overlap: overlap), hnsw: hnsw,
                                             keywordAnalyzer: try keywordAnalyzer())
        let name = IndexLocation.name(database, of: index)
        if json {
            Console.print(try Console.json(Output(index: name, model: embedder.identity, chunkSize: index.chunking.size,
                                                  chunkOverlap: index.chunking.overlap)))
            return
        }
        let language = index.keywordAnalyzer.language == .english ? "" : ", keyword terms in \(index.keywordAnalyzer.language.rawValue)"
        Console.print("created \(name): model \(embedder.identity), chunks of \(index.chunking.size) words overlapping by \(index.chunking.overlap)\(language)")
    }
}
