import ArgumentParser
import Foundation
import NLUKit

/// The options `nlu embed` and `nlu similarity` share: the model and how it runs.
struct EmbeddingModelOptions: ParsableArguments {
    @Option(name: .shortAndLong, help: ArgumentHelp("""
        A sentence-transformers model: a directory (modules.json, config.json, model.safetensors, \
        tokenizer.json or vocab.txt), or a Hugging Face id such as sentence-transformers/all-MiniLM-L6-v2 \
        found in the Hugging Face cache.
        """, valueName: "model"))
    var model: String

    // Exclusive: both flags at once contradict each other (by default the last one silently won).
    @Flag(inversion: .prefixedNo, exclusivity: .exclusive, help: "Scale embeddings to unit length (default: as the model's modules say).")
    var normalize: Bool?

    @Option(help: ArgumentHelp("Texts per encoder pass (1-4096).", valueName: "n"))
    var batchSize = 32

    @OptionGroup var arithmetic: PrecisionOption

    func validate() throws {
        guard (1...4096).contains(batchSize) else { throw ValidationError("--batch-size must be between 1 and 4096, got \(batchSize)") }
    }

    var embeddingOptions: EmbeddingOptions { EmbeddingOptions(batchSize: batchSize, normalize: normalize) }

    func loadEmbedder() throws -> SentenceEmbedder {
        try SentenceEmbedder(modelDirectory: ModelLocator.resolve(model), precision: arithmetic.precision)
    }
}
