import ArgumentParser
import Foundation
import NLUKit

/// `nlu index info DB`: what the index holds and how it was built.
struct IndexInfoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "info",
        abstract: "Show an index's model, chunking, keyword language, schema version and counts.")

    @Argument(help: ArgumentHelp("The index file, or a postgres:// URL.", valueName: "db"))
    var database: String

    @Flag(help: "Print JSON on stdout.")
    var json = false

    struct Output: Encodable {
        var path: String
        var schemaVersion: Int
        var model: EmbedderIdentity?
        var modelSource: String?
        var chunkSize: Int
        var chunkOverlap: Int
        /// The keyword analysis's language (Snowball's name: english, french...).
        var language: String
        var documents: Int
        var chunks: Int
    }

    func run() throws {
        let index = try IndexLocation.open(database, needsEmbedder: false, readOnly: true)
        let info = try index.info()
        let language = index.keywordAnalyzer.language.rawValue
        let output = Output(path: info.path, schemaVersion: info.schemaVersion, model: info.model, modelSource: info.modelSource,
                            chunkSize: info.chunking.size, chunkOverlap: info.chunking.overlap, language: language,
                            documents: info.documentCount, chunks: info.chunkCount)
        if json {
            Console.print(try Console.json(output))
            return
        }
        Console.print("""
            index:     \(info.path) (schema version \(info.schemaVersion))
            model:     \(info.model.map { "\($0)" } ?? "none (keyword only)")\(info.modelSource.map { ", loaded from \($0)" } ?? "")
            chunking:  \(info.chunking.size) words, overlap \(info.chunking.overlap)
            language:  \(language) (keyword terms)
            documents: \(info.documentCount)
            chunks:    \(info.chunkCount)
            """)
    }
}
