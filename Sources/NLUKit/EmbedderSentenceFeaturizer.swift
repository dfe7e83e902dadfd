import Foundation
import NLUCore
import NLUEmbeddings
import NLUIntents

/// A sentence-transformers model as the intent classifier's sentence features (Rasa's
/// `LanguageModelFeaturizer`): the glue between NLUEmbeddings and NLUIntents, which do not know each other.
/// The reference it records is the model as given (Hub id, or a directory made absolute), the
/// embedding width, and a fingerprint of the model's files, so a model package refuses to run on
/// a different embedder found under the same name.
///
///     let embeddings = try EmbedderSentenceFeaturizer(model: "sentence-transformers/all-MiniLM-L6-v2")
///     let classifier = try IntentClassifier.train(on: dataset, sentenceFeaturizer: embeddings)
///     let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)   // finds the model again
public struct EmbedderSentenceFeaturizer: SentenceFeaturizer {
    public let embedder: SentenceEmbedder
    public let reference: SentenceFeaturizerReference
    private let options: EmbeddingOptions

    /// Loads `model`: a sentence-transformers directory or a Hub id in the Hugging Face cache.
    /// - Throws: ``ModelLocatorError`` (not found; says how to download it) or the model's loading error.
    public init(model: String) throws {
        let directory = try ModelLocator.resolve(model)
        embedder = try SentenceEmbedder(modelDirectory: directory)
        options = EmbeddingOptions()
        try options.validate()   // checked once here, so that features(for:) cannot fail
        reference = SentenceFeaturizerReference(model: EmbedderLoading.recordedSource(model),
                                                revision: SentenceIndexEmbedder.fingerprint(of: directory),
                                                dimension: embedder.dimension)
    }

    /// Loads the model `reference` names and checks that it is the same (fingerprint and width).
    /// - Throws: ``IntentClassifierError/sentenceFeaturizerRequired(model:needed:reason:)`` naming the difference.
    public init(reference needed: SentenceFeaturizerReference, for package: URL) throws {
        let found: EmbedderSentenceFeaturizer
        do {
            found = try EmbedderSentenceFeaturizer(model: needed.model)
        } catch {
            throw IntentClassifierError.sentenceFeaturizerRequired(model: package.path, needed: needed, reason: "\(error)")
        }
        if let revision = needed.revision, revision != found.reference.revision {
            throw IntentClassifierError.sentenceFeaturizerRequired(model: package.path, needed: needed,
                reason: "the model found there has other files (fingerprint \(found.reference.revision ?? "-"), trained with \(revision)); retrain, or restore that model")
        }
        self = found
    }

    public func features(for texts: [String]) -> [[Float]] {
        do {
            return try embedder.embed(texts, options: options)
        } catch {
            // Unreachable: embedding fails only for invalid options, validated in init.
            preconditionFailure("sentence embedding failed with validated options: \(error)")
        }
    }
}

extension IntentClassifier {
    /// Loads an intent model package and, when it was trained with sentence embeddings, the
    /// sentence-transformers model it records (``EmbedderSentenceFeaturizer``).
    ///
    ///     let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: "car.nlumodel"))
    public static func loadWithSentenceFeatures(from url: URL) throws -> IntentClassifier {
        try load(from: url) { try EmbedderSentenceFeaturizer(reference: $0, for: url) }
    }
}
