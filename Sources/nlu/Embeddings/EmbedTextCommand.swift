import ArgumentParser
import Foundation
import NLUKit

/// `nlu embed text` (the default verb of `nlu embed`): sentence embeddings of texts, or the lines
/// of a file ranked against a query.
struct EmbedTextCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "text",
        abstract: "Sentence embeddings with a sentence-transformers model (or rank lines against a query).",
        discussion: """
        Texts are the TEXT arguments, else the lines of --input, else the lines of standard input \
        (one text per line; an empty line is an error naming it). Texts longer than the model's \
        max_seq_length are truncated, as sentence-transformers does.

        Output (stdout, or -o/--output FILE written atomically), in input order: jsonl (also --json), one \
        {"text": ..., "embedding": [...]} per line; tsv, one line of tab-separated floats per text; \
        npy, a float32 [texts, dimension] NumPy matrix. An existing --output file is replaced only when \
        it is empty or an earlier output of the same kind (recognised by its first line, or for npy by \
        its header and size) unless --force.

        Search: --query TEXT ranks the texts by cosine similarity with the query and prints the --top-k K \
        best as "score<TAB>line<TAB>text" (with --json one {"line", "score", "text"} object per line), best first.

        Fine-tuning a model on your own pairs: nlu embed train MODEL --pairs FILE.jsonl -o DIR (see nlu embed train --help).

        text is the default verb of nlu embed: nlu embed --model M TEXT... is the same command.

        Examples:
          nlu embed text --model sentence-transformers/all-MiniLM-L6-v2 "A man is eating food."
          nlu embed text --model ./all-MiniLM-L6-v2 --input sentences.txt --format npy -o vectors.npy
          nlu embed text --model ./all-MiniLM-L6-v2 --query "Is it going to rain?" --input faq.txt --top-k 3
        """)

    @OptionGroup var modelOptions: EmbeddingModelOptions

    @Option(help: ArgumentHelp("Read texts from this file, one per line (\"-\": standard input).", valueName: "file"))
    var input: String?

    @Option(help: ArgumentHelp("Output format of the embeddings: jsonl (default), tsv or npy.", valueName: "format"))
    var format: EmbeddingFormat?

    @Option(name: .shortAndLong, help: ArgumentHelp("Write to this file (atomically) instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Replace an existing file at --output even when it is not an output of this kind nlu wrote.")
    var force = false

    @Option(help: ArgumentHelp("Rank the texts by similarity with this query instead of printing embeddings.", valueName: "text"))
    var query: String?

    @Option(name: [.customLong("top-k"), .customShort("k"), .customLong("top")],
            help: ArgumentHelp("With --query: how many texts to print (1-1000000, default 5; --top: the former spelling).", valueName: "n"))
    var topK: Int?

    @Flag(help: "Print JSON lines: with --query one object per result, else the embeddings as --format jsonl.")
    var json = false

    @Argument(help: "Texts to embed (each argument is one text).")
    var texts: [String] = []

    @OptionGroup var inputSize: InputSizeOption

    func validate() throws {
        guard texts.isEmpty || input == nil else { throw ValidationError("give TEXT arguments or --input, not both") }
        guard !force || output != nil else { throw ValidationError("--force applies to --output") }
        if let index = texts.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw ValidationError("TEXT argument \(index + 1) is empty")
        }
        if let query {
            guard !query.allSatisfy(\.isWhitespace) else { throw ValidationError("--query is empty") }
            if let topK, !(1...1_000_000).contains(topK) { throw ValidationError("--top-k must be between 1 and 1000000, got \(topK)") }
            // Options that would otherwise be silently ignored.
            guard format == nil else { throw ValidationError("--format applies to embeddings; --query prints a ranking (--json for JSON lines)") }
        } else {
            // --json is the JSON-lines format (the default): it contradicts another --format.
            if json, let format, format != .jsonl { throw ValidationError("--json prints JSON lines; it contradicts --format \(format.rawValue)") }
            guard topK == nil else { throw ValidationError("--top-k applies to --query results") }
            if format == .npy, output == nil, isatty(FileHandle.standardOutput.fileDescriptor) != 0 {
                throw ValidationError("--format npy writes binary: give --output FILE, or redirect standard output")
            }
        }
    }

    func run() throws {
        // Never overwrite what we read: the input file or a file of the model.
        if let output {
            try Console.checkOutput(output, inputs: [input, modelOptions.model].compactMap { $0 })
            // Before the model loads: a file nlu did not write (the user's notes) is never replaced unasked.
            let kind = query == nil ? EmbeddingOutputFile.embeddings(format ?? .jsonl) : EmbeddingOutputFile.ranking(json: json)
            try kind.checkReplaceable(URL(fileURLWithPath: output), force: force,
                                      remedy: "choose another path, move it away, or pass --force to replace it")
        }
        if let query {
            let lines = texts.isEmpty ? try readInputLines() : texts
            let embedder = try modelOptions.loadEmbedder()
            try withOutput { sink in
                let matches = try embedder.nearest(to: query, in: lines, top: topK ?? 5, options: modelOptions.embeddingOptions)
                var text = ""
                for match in matches {
                    if json {
                        text += try Console.json(Match(line: match.index + 1, score: match.score, text: match.text)) + "\n"
                    } else {
                        text += String(format: "%.4f", match.score) + "\t\(match.index + 1)\t\(match.text)\n"
                    }
                }
                try sink(Data(text.utf8))
            }
            return
        }
        guard texts.isEmpty else {
            let embedder = try modelOptions.loadEmbedder()
            try withOutput { sink in
                try embed(texts.forEach, count: texts.count, with: embedder, sink: sink)
            }
            return
        }
        // Embeddings of the lines of a file stream: a window of lines at a time is held (the embedder's
        // sort window), whatever the line count. A first pass over the lines checks them (an empty line is
        // named before anything is written) and counts them (npy's header holds the count). A stream
        // read as it arrives needs no first pass unless the format is npy; for npy it is copied first.
        let path = input ?? "-"
        let name = path == "-" ? "standard input" : path
        let streaming = (format ?? .jsonl) != .npy && !Self.isRegularFile(path)
        let file = streaming ? path : try Console.inputFile(path).path
        let count = streaming ? nil : try Self.countLines(of: file, name: name)
        let embedder = try modelOptions.loadEmbedder()
        try withOutput { sink in
            try embed({ body in
                var number = 0
                try Console.forEachLine(path: file) { line in
                    number += 1
                    try Self.checkNotEmpty(line, number: number, name: name)
                    try body(line)
                }
                guard number > 0 else { throw InputError("\(name): no text to embed") }
            }, count: count, with: embedder, sink: sink)
        }
    }

    /// Embeds the texts `forEachText` hands over in windows of the embedder's sort window, writing each
    /// embedding as it comes (`count`: how many there are, when known; npy needs it).
    private func embed(_ forEachText: ((String) throws -> Void) throws -> Void, count: Int?,
                       with embedder: SentenceEmbedder, sink: @escaping (Data) throws -> Void) throws {
        let options = modelOptions.embeddingOptions
        let writer = EmbeddingWriter(format: format ?? .jsonl, rows: count ?? 0, dimension: embedder.dimension, sink: sink)
        var window: [String] = []
        // The same windows as `embed(_:options:_:)` makes of the whole sequence, so the same batches
        // and the same numbers.
        func embedWindow() throws {
            var index = 0
            try embedder.embed(window, options: options) { vector in
                try writer.write(text: window[index], embedding: vector)
                index += 1
            }
            window.removeAll(keepingCapacity: true)
        }
        try forEachText { text in
            window.append(text)
            if window.count == options.sortWindow { try embedWindow() }
        }
        if !window.isEmpty { try embedWindow() }
        try writer.finish()
    }

    private static func isRegularFile(_ path: String) -> Bool {
        var status = stat()
        return path != "-" && stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    /// The number of lines of `file`, each checked (UTF-8, not empty) and none held.
    private static func countLines(of file: String, name: String) throws -> Int {
        var count = 0
        try Console.forEachLine(path: file) { line in
            count += 1
            try checkNotEmpty(line, number: count, name: name)
        }
        guard count > 0 else { throw InputError("\(name): no text to embed") }
        return count
    }

    private static func checkNotEmpty(_ line: String, number: Int, name: String) throws {
        if line.allSatisfy(\.isWhitespace) {
            throw InputError("\(name) line \(number): empty (give one text per line)")
        }
    }

    private struct Match: Encodable {
        var line: Int
        var score: Float
        var text: String
    }

    /// The lines of --input or standard input; empty lines are errors that name the line.
    private func readInputLines() throws -> [String] {
        let lines = try Console.readLines(path: input)
        let source = input.flatMap { $0 == "-" ? nil : $0 } ?? "standard input"
        if let index = lines.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw InputError("\(source) line \(index + 1): empty (give one text per line)")
        }
        guard !lines.isEmpty else { throw InputError("\(source): no text to embed") }
        return lines
    }

    /// Runs `body` with a sink to standard output, or to --output replaced atomically when it succeeds.
    private func withOutput(_ body: (@escaping (Data) throws -> Void) throws -> Void) throws {
        guard let output else {
            try body { Console.write($0) }
            return
        }
        try AtomicFile.write(to: URL(fileURLWithPath: output)) { file in
            try body { try file.write($0) }
        }
    }
}
