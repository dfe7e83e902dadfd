import Foundation
import NLUCore
import NLUEmbeddings
import NLUHub
import NLUIntents
import NLUText
import NLUInputOutput

/// A sentence-transformers model as the intent classifier's sentence features (Rasa's
/// `LanguageModelFeaturizer`) and the slot tagger's contextual word vectors: the glue between
/// NLUEmbeddings and NLUIntents, which do not know each other.
/// The reference it records is the model as given (Hub id, or a directory made absolute), the
/// embedding width, and a fingerprint of the model's files, so a model package refuses to run on
/// a different embedder found under the same name.
///
///     let embeddings = try EmbedderSentenceFeaturizer(model: "sentence-transformers/all-MiniLM-L6-v2")
///     let classifier = try IntentClassifier.train(on: dataset, sentenceFeaturizer: embeddings)
///     let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)   // finds the model again
///
/// A fine-tuned intent model carries its encoder in its package (``SentenceFeaturizerReference/packagedModel``):
/// that folder is loaded here too, giving the pooled vector before any `Normalize` (what its head
/// was trained on), and copied into the package again when the classifier is saved.
public struct EmbedderSentenceFeaturizer: PackagedSentenceFeaturizer, WordVectorFeaturizer {
    public let embedder: SentenceEmbedder
    public private(set) var reference: SentenceFeaturizerReference
    private let options: EmbeddingOptions
    /// Where the model's files are, for comparing them with a recorded fingerprint.
    private let modelDirectory: URL
    /// The sentence embeddings of the last ``wordVectors(for:words:)`` call: the tagger and the intent
    /// classifier ask for the same texts one after the other, and one encoder pass serves both.
    private var lastPass = SentenceMemo()

    /// Loads `model`: a sentence-transformers directory or a Hub id in the Hugging Face cache.
    /// - Throws: ``ModelLocatorError`` (not found; says how to download it) or the model's loading error.
    /// The encoder runs at `precision` (``Precision/int8``: quantized at load).
    /// - Throws: ``ModelLocatorError`` (not found; says how to download it) or the model's loading error.
    public init(model: String, precision: Precision = .f32) throws {
        let directory = try ModelLocator.resolve(model)
        embedder = try SentenceEmbedder(modelDirectory: directory, precision: precision)
        modelDirectory = directory
        options = EmbeddingOptions()
        try options.validate()   // checked once here, so that features(for:) cannot fail
        reference = SentenceFeaturizerReference(model: EmbedderLoading.recordedSource(model),
                                                revision: SentenceIndexEmbedder.fingerprint(of: directory),
                                                dimension: embedder.dimension)
    }

    /// The fine-tuned encoder in `package`'s folder `reference.packagedModel`, its pooled vectors unnormalized
    /// unless the reference says `normalized` (a few-shot model's head reads unit-length vectors).
    private init(packaged reference: SentenceFeaturizerReference, folder: String, package: URL, precision: Precision) throws {
        // The manifest is a file like any other: its folder must be one the package holds, not a path out of it.
        guard folder == ModelPackage.encoderFolderName else {
            throw IntentClassifierError.invalidModel("\(package.appendingPathComponent(ModelPackage.manifestFileName).path): field config.sentenceEmbeddings.packagedModel is '\(folder)'; expected '\(ModelPackage.encoderFolderName)'")
        }
        let directory = package.appendingPathComponent(folder)
        guard ExistingPath(directory) == .directory else {
            throw ModelPackageError.missingFile(package: package, file: folder + "/")
        }
        embedder = try SentenceEmbedder(modelDirectory: directory, precision: precision)
        modelDirectory = directory
        options = EmbeddingOptions(normalize: reference.normalized ?? false)
        try options.validate()
        self.reference = reference
    }

    /// Loads the model `reference` names and checks that it is the same (fingerprint and width); a
    /// fine-tuned encoder from `package` itself. The encoder runs at `precision`.
    /// - Throws: ``IntentClassifierError/sentenceFeaturizerRequired(model:needed:reason:)`` naming the difference.
    public init(reference needed: SentenceFeaturizerReference, for package: URL, precision: Precision = .f32) throws {
        if let folder = needed.packagedModel {
            self = try EmbedderSentenceFeaturizer(packaged: needed, folder: folder, package: package, precision: precision)
            guard embedder.dimension == needed.dimension else {
                throw IntentClassifierError.invalidModel("\(modelDirectory.path): the encoder gives \(embedder.dimension) values; the package's head reads \(needed.dimension)")
            }
            return
        }
        let found: EmbedderSentenceFeaturizer
        do {
            found = try EmbedderSentenceFeaturizer(model: needed.model, precision: precision)
        } catch {
            throw IntentClassifierError.sentenceFeaturizerRequired(model: package.path, needed: needed, reason: "\(error)")
        }
        var same = found
        if let revision = needed.revision {
            guard let current = found.reference.revision,
                  ModelFingerprint.matches(revision, current: current, directory: found.modelDirectory) else {
                throw IntentClassifierError.sentenceFeaturizerRequired(model: package.path, needed: needed,
                    reason: "the model found there has other files (fingerprint \(found.reference.revision ?? "-"), trained with \(revision)); retrain, or restore that model")
            }
            // A package trained before the whole weights were hashed records the older fingerprint:
            // the featurizer carries the recorded one, which the slot tagger compares with its own record.
            same.reference.revision = revision
        }
        self = same
    }

    public func features(for texts: [String]) -> [[Float]] {
        if let known = lastPass.vectors(for: texts) { return known }
        do {
            return try embedder.embed(texts, options: options)
        } catch {
            // Unreachable: embedding fails only for invalid options, validated in init.
            preconditionFailure("sentence embedding failed with validated options: \(error)")
        }
    }

    /// Copies the model's folder (a fine-tuned encoder loaded from a package) to `folder`.
    public func writeModel(to folder: URL) throws {
        try FileManager.default.copyItem(at: modelDirectory, to: folder)
    }

    /// The encoder's hidden size.
    public var wordVectorDimension: Int { embedder.encoder.configuration.hiddenSize }

    /// The mean of the encoder's last hidden states over each word's pieces
    /// (``SentenceEmbedder/embedWithWordVectors(_:words:options:)``); keeps the sentence embeddings of
    /// the same pass for ``features(for:)``.
    public func wordVectors(for texts: [String], words: [[Range<Int>]]) -> [[[Float]]] {
        precondition(texts.count == words.count, "one list of word ranges per text")
        do {
            let results = try embedder.embedWithWordVectors(texts, words: words, options: options)
            lastPass.keep(texts: texts, vectors: results.map(\.sentence))
            return results.map(\.words)
        } catch {
            // Unreachable: fails only for invalid options (validated in init) or counts (checked above).
            preconditionFailure("word vectors failed with validated options: \(error)")
        }
    }
}

/// The encoder of a joint intent + slot model loaded from its package: the slot tagger's pass also
/// gives the pooled vector, which the intent head then reads without a second pass.
extension EmbedderSentenceFeaturizer: TokenStateFeaturizer {
    public var tokenizer: any EncoderTokenizer { embedder.tokenizer }
    public var hiddenSize: Int { embedder.encoder.configuration.hiddenSize }
    public var maxSequenceLength: Int { embedder.maxSequenceLength }

    public func pooledAndTokenStates(text: String, tokenIDs: [Int32], positions: [Int]) -> (pooled: [Float], states: [[Float]]) {
        do {
            let pass = try embedder.pooledAndTokenStates(tokenIDs: tokenIDs, positions: positions)
            lastPass.keep(texts: [text], vectors: [pass.pooled])
            return pass
        } catch {
            // Unreachable: the ids come from this encoder's tokenizer within its length, the positions from among them.
            preconditionFailure("the encoder refused its own tokens: \(error)")
        }
    }
}

/// The sentence embeddings of one encoder pass, by text (thread-safe; each pass replaces the last).
private final class SentenceMemo: @unchecked Sendable {
    private let lock = NSLock()
    private var byText: [String: [Float]] = [:]

    func keep(texts: [String], vectors: [[Float]]) {
        let table = Dictionary(zip(texts, vectors), uniquingKeysWith: { first, _ in first })
        lock.lock()
        byText = table
        lock.unlock()
    }

    /// The vectors of all `texts`, or `nil` when one of them was not in the last pass.
    func vectors(for texts: [String]) -> [[Float]]? {
        lock.lock()
        defer { lock.unlock() }
        var result: [[Float]] = []
        result.reserveCapacity(texts.count)
        for text in texts {
            guard let vector = byText[text] else { return nil }
            result.append(vector)
        }
        return result
    }
}

extension IntentClassifier {
    /// Loads an intent model package and, when it was trained with sentence embeddings, the
    /// sentence-transformers model it records (``EmbedderSentenceFeaturizer``).
    ///
    /// A fine-tuned model's encoder is read from the package itself. The encoder runs at `precision`.
    ///
    ///     let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: "car.nlumodel"))
    public static func loadWithSentenceFeatures(from url: URL, precision: Precision = .f32) throws -> IntentClassifier {
        try load(from: url) { try EmbedderSentenceFeaturizer(reference: $0, for: url, precision: precision) }
    }
}
