import ArgumentParser
import Foundation
import NLUKit

/// `nlu embed similarity` (formerly `nlu similarity`, still accepted): cosine similarity of two
/// texts' sentence embeddings.
struct EmbedSimilarityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "similarity",
        abstract: "Cosine similarity of two texts with a sentence-transformers model.",
        discussion: """
        Prints the cosine similarity of the two texts' embeddings (-1 to 1), or {"similarity": ...} with --json.

        Example: nlu embed similarity --model sentence-transformers/all-MiniLM-L6-v2 "A man is eating food." "A man eats pasta."
        """)

    @OptionGroup var arguments: EmbedSimilarityArguments

    func run() throws { try arguments.run() }
}

/// What `nlu embed similarity` and its former spelling `nlu similarity` parse and run.
struct EmbedSimilarityArguments: CommandBody {
    @OptionGroup var modelOptions: EmbeddingModelOptions

    @Flag(help: "Print {\"similarity\": ...} on stdout.")
    var json = false

    @Argument(help: "The first text.")
    var first: String

    @Argument(help: "The second text.")
    var second: String

    func validate() throws {
        guard !first.allSatisfy(\.isWhitespace), !second.allSatisfy(\.isWhitespace) else {
            throw ValidationError("both texts must be non-empty")
        }
    }

    private struct Result: Encodable { var similarity: Float }

    func run() throws {
        let embedder = try modelOptions.loadEmbedder()
        let vectors = try embedder.embed([first, second], options: modelOptions.embeddingOptions)
        let similarity = SentenceEmbedder.similarity(vectors[0], vectors[1])
        Console.print(json ? try Console.json(Result(similarity: similarity)) : String(format: "%.4f", similarity))
    }
}
