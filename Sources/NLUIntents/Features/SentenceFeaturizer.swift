import Foundation

/// Dense sentence features appended to the bag of words (as Rasa's `LanguageModelFeaturizer` adds a
/// language model's sentence embedding): the classifier learns from both. NLUIntents does not know
/// where the vectors come from — the `NLUKit` umbrella provides one backed by a sentence-transformers
/// model (``IntentClassifier`` records its ``reference`` and asks for it again when loading).
///
///     let classifier = try IntentClassifier.train(on: dataset, sentenceFeaturizer: featurizer)
public protocol SentenceFeaturizer: Sendable {
    /// What identifies the features: recorded in the model package, checked when it is loaded.
    var reference: SentenceFeaturizerReference { get }

    /// One vector of ``SentenceFeaturizerReference/dimension`` values per text, in order. Cannot fail:
    /// whatever can go wrong (the model, the options) is checked when the featurizer is made.
    func features(for texts: [String]) -> [[Float]]
}

/// A sentence featurizer whose model is stored inside the intent model package (a fine-tuned
/// encoder, in the folder ``SentenceFeaturizerReference/packagedModel`` names):
/// ``IntentClassifier/save(to:metadata:replacing:)`` asks it to write that folder.
public protocol PackagedSentenceFeaturizer: SentenceFeaturizer {
    /// Writes the model's files into `folder`, which does not exist yet.
    func writeModel(to folder: URL) throws
}

/// The sentence features a model was trained with, as its manifest records them
/// (`config.sentenceEmbeddings`): the model's Hub id or directory, its revision when known, and the
/// width of its vectors; for a fine-tuned encoder, the folder inside the package that holds it.
public struct SentenceFeaturizerReference: Codable, Sendable, Equatable {
    /// A Hub id (`ORG/NAME`) or a directory, as given to `--embeddings` (for a fine-tuned encoder:
    /// the model it was fine-tuned from, for the record).
    public var model: String
    /// The snapshot commit (or another fingerprint) the vectors came from, when known.
    public var revision: String?
    /// The number of values per text.
    public var dimension: Int
    /// The folder, relative to the package, holding the fine-tuned encoder the features come from
    /// (``IntentClassifier/fineTunedEncoderFolder``); nil for a model found by ``model``. Its
    /// features are the pooled vectors before any `Normalize` module (unless ``normalized``): what the head was trained on.
    public var packagedModel: String?
    /// For a fine-tuned encoder: true when its features are scaled to unit length after pooling (a
    /// few-shot model, whose head was fitted on its normalized embeddings, as SetFit's); nil: not.
    public var normalized: Bool?

    public init(model: String, revision: String?, dimension: Int, packagedModel: String? = nil, normalized: Bool? = nil) {
        self.model = model
        self.revision = revision
        self.dimension = dimension
        self.packagedModel = packagedModel
        self.normalized = normalized
    }
}
