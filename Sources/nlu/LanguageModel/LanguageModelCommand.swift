import ArgumentParser
import Foundation
import NLUKit

/// `nlu lm`: stateful LSTM/GRU language models — train, generate, predict, perplexity.
struct LanguageModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lm",
        abstract: "Train LSTM/GRU language models on plain text, generate text, predict next tokens, measure perplexity.",
        discussion: """
        Models are .nlumodel packages (kind "language-model"): manifest.json plus weights.safetensors named as a \
        PyTorch module with attributes embedding, rnn and decoder (see docs/language-models.md, "Model package").
        """,
        subcommands: [
            LanguageModelTrainCommand.self,
            LanguageModelGenerateCommand.self,
            LanguageModelPredictCommand.self,
            LanguageModelPerplexityCommand.self,
        ]
    )
}

extension RecurrentCell: ExpressibleByArgument {}
extension LanguageModelConfiguration.Level: ExpressibleByArgument {}

/// Shared output helpers of the `nlu lm` subcommands.
enum LanguageModelOutput {
    /// Loads a model package, labelling errors with the path.
    static func loadModel(_ path: String) throws -> LanguageModel {
        try LanguageModel(contentsOf: URL(fileURLWithPath: path))
    }
}
