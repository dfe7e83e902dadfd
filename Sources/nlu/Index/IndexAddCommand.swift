import ArgumentParser
import Foundation
import NLUKit

/// `nlu index add DB FILE...`: documents from JSONL, .txt and .md files and standard input, in one transaction.
struct IndexAddCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add",
        abstract: "Add documents (re-adding an id replaces it); all files in one transaction.",
        discussion: """
        FILE is a .jsonl file with one {"id": ..., "text": ..., "metadata": {...}} per line (metadata \
        optional), or a .txt / .md file, which is one document whose id is the path as given. FILE - \
        reads standard input: JSONL lines, or with --id ID the text of one document with that id \
        (standard input without a document is an error). If anything is wrong, nothing is added. \
        Progress goes to stderr. Example: cat notes.txt | nlu index add notes.db - --id notes
        """)

    @Argument(help: ArgumentHelp("The index file, or a postgres:// URL.", valueName: "db"))
    var database: String

    @Argument(help: ArgumentHelp("Files to add (-: standard input).", valueName: "file"))
    var files: [String]

    @Option(help: ArgumentHelp("With FILE -: standard input is the plain text of one document with this id (default: JSONL).", valueName: "id"))
    var id: String?

    @Option(name: .shortAndLong, help: ArgumentHelp("Load the embedding model from here instead of the location recorded in the index.", valueName: "model"))
    var model: String?

    @Flag(help: "Print {\"index\", \"added\", \"documents\", \"chunks\"} on stdout (the documents and chunks the index then holds).")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    struct Output: Encodable {
        var index: String
        var added: Int
        var documents: Int
        var chunks: Int
    }

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("give at least one FILE to add") }
        guard files.filter({ $0 == "-" }).count <= 1 else { throw ValidationError("- (standard input) is given twice; it can be read once") }
        if let id {
            guard files.contains("-") else { throw ValidationError("--id names the document read from standard input: give - among the files") }
            guard !id.isEmpty else { throw ValidationError("--id is empty") }
        }
        try IndexLocation.validateModelOption(model)
    }

    func run() throws {
        let index = try IndexLocation.open(database, model: model, needsEmbedder: true)
        var reader = DocumentFileReader()
        let documents = try files.flatMap { file in
            guard file == "-" else { return try reader.read(path: file) }
            return try reader.read(stream: try Console.readData(path: "-"), named: "standard input", documentID: id)
        }
        let progress = ProgressLine()
        try index.add(documents) { step in
            let label = switch step.phase {
            case .embedding: "embedding chunks"
            case .upgrading: "upgrading the index's keywords (schema version 2)"
            case .writing: "writing documents"
            }
            progress.update("\(label): ", done: step.done, of: step.total)
        }
        progress.finish()
        let info = try index.info()
        let name = IndexLocation.name(database, of: index)
        if json {
            Console.print(try Console.json(Output(index: name, added: documents.count, documents: info.documentCount, chunks: info.chunkCount)))
            return
        }
        Console.print("added \(Console.count(documents.count, "document")) to \(name); it holds \(Console.count(info.documentCount, "document")) in \(Console.count(info.chunkCount, "chunk"))")
    }
}
