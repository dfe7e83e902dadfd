import Foundation
import NLUCore

/// Model packages: `NAME.nlumodel/` with `manifest.json` (kind `language-model`, `config` =
/// ``LanguageModelConfiguration``) and `weights.safetensors` named as a PyTorch module with attributes
/// `embedding` (`nn.Embedding`), `rnn` (`nn.LSTM`/`nn.GRU`) and `decoder` (`nn.Linear`).
extension LanguageModel {
    /// The package `kind` of language models.
    public static let packageKind = "language-model"

    /// Loads a model package (weights stay memory-mapped).
    ///
    ///     let model = try LanguageModel(contentsOf: URL(fileURLWithPath: "tiny.nlumodel"))
    ///
    /// - Throws: ``NLUCore/ModelPackageError`` for a missing or malformed package, and
    ///   ``LanguageModelError`` naming the field or tensor that does not match the configuration.
    public init(contentsOf url: URL) throws {
        let (configuration, metadata, weights) = try ModelPackage.load(
            from: url, kind: Self.packageKind, config: LanguageModelConfiguration.self)
        do {
            try configuration.validate()
        } catch LanguageModelError.invalidConfiguration(let message) {
            // The messages start with the field they are about ("hiddenSize must be…"): name it as in the manifest.
            let fields = ["embeddingSize", "hiddenSize", "layers", "vocabulary", "unknownToken", "endToken"]
            guard let field = fields.first(where: { message.hasPrefix($0 + " ") }) else {
                throw ModelPackageError.invalidManifest(package: url, field: "config", reason: message)
            }
            throw ModelPackageError.invalidManifest(package: url, field: "config." + field,
                                                    reason: String(message.dropFirst(field.count + 1)))
        }
        do {
            try self.init(configuration: configuration, names: weights.names) { name in
                weights.info(name) == nil ? nil : try weights.finiteFloatTensor(name)
            }
        } catch let error as LanguageModelError {
            throw LanguageModelError.file(url.path, error.description)
        }
        self.metadata = metadata
    }

    /// Writes the model as a package at `url`, atomically (an existing package is replaced only once
    /// the new one is complete). Only a language-model package is replaced (any package with
    /// `replacing: .anyModelPackage`); a file or another folder at `url` is refused.
    public func save(to url: URL, metadata: [String: String]? = nil, replacing: ModelPackage.Replacement = .sameKind) throws {
        try ModelPackage.save(to: url, kind: Self.packageKind, config: configuration,
                              metadata: metadata ?? self.metadata, weights: namedWeights, replacing: replacing)
    }
}
