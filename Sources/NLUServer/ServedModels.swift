import Foundation
import NLUCore
import NLUDialogue
import NLUHub
import NLUEmbeddings
import NLUInputOutput
import NLUIntents
import NLUPipelines
import NLUQuestionAnswering

/// The models one server answers with, each loaded once and shared by every request (the task
/// types are immutable `Sendable` values, so concurrent requests read them safely).
///
///     let models = try ServedModels.load(intents: "car.nlumodel", questionAnswering: nil,
///                                        embeddings: "sentence-transformers/all-MiniLM-L6-v2")   // a directory or a cached Hub id
public struct ServedModels: Sendable {
    /// One loaded model: what it is and where it came from (for `/status`).
    public struct Info: Sendable, Equatable, Encodable {
        /// The task it serves: "intents", "question-answering" or "embeddings".
        public var task: String
        /// The file or directory it was loaded from.
        public var path: String
        /// A short description (labels, layers).
        public var detail: String
    }

    /// The intent classifier for `/model/parse`, if served.
    public var intents: IntentClassifier?
    /// The extractive QA model for `/question-answering`, if served.
    public var questionAnswering: QuestionAnswerer?
    /// The sentence embedder for `/embed` and `/v1/embeddings`, if served.
    public var embeddings: SentenceEmbedder?
    /// The dialogue for `/webhooks/rest/webhook` and `/conversations`, if served (its messages parsed by ``intents``).
    public var dialogue: Dialogue?
    /// What the dialogue's import could not map (logged when the server starts).
    public var dialogueWarnings: [String] = []
    /// The embedding model's name for OpenAI responses (its directory's name).
    public var embeddingsName: String = ""
    /// What is loaded, in the order given.
    public private(set) var info: [Info] = []

    /// Serves the given models (tests build them in memory).
    public init(intents: IntentClassifier? = nil, intentsPath: String = "(in memory)",
                questionAnswering: QuestionAnswerer? = nil, questionAnsweringPath: String = "(in memory)",
                embeddings: SentenceEmbedder? = nil, embeddingsPath: String = "(in memory)",
                dialogue: Dialogue? = nil, dialoguePath: String = "(in memory)") {
        self.intents = intents
        self.dialogue = dialogue
        self.questionAnswering = questionAnswering
        self.embeddings = embeddings
        self.embeddingsName = URL(fileURLWithPath: embeddingsPath).lastPathComponent
        if let intents {
            info.append(Info(task: "intents", path: intentsPath,
                             detail: "\(intents.intents.count) intents\(intents.hasNoneClass ? " + none class" : "")"))
        }
        if let questionAnswering {
            info.append(Info(task: "question-answering", path: questionAnsweringPath, detail: questionAnswering.model.summary))
        }
        if let embeddings {
            info.append(Info(task: "embeddings", path: embeddingsPath,
                             detail: "dimension \(embeddings.dimension), pooling \(embeddings.pooling.modes.map { "\($0)" }.joined(separator: "+")), max \(embeddings.maxSequenceLength) tokens"))
        }
        if let dialogue {
            info.append(Info(task: "dialogue", path: dialoguePath, detail: "\(dialogue.model.nodes.count) nodes, fingerprint \(dialogue.fingerprint)"))
        }
    }

    /// Loads the models at the given paths (nil: not served), each the way every `nlu` command loads its
    /// kind: an intents package with the sentence-embedding model it records
    /// (``IntentClassifier/loadWithSentenceFeatures(from:)``); a question-answering checkpoint (a directory or
    /// a cached Hub id) or Core ML `.mlmodel` file (``QuestionAnswererLoading``, where `vocabulary` and
    /// `lowercase` apply); a sentence-transformers model (a directory or a cached Hub id). `precision` is the
    /// arithmetic of the question-answering and embedding encoders. A dialogue is what `nlu dialogue` reads:
    /// NLUKit's dialogue JSON, a Watson workspace, an Alexa model (``DialogueImporter``), a Rasa project, a Lex V2
    /// bot or a Dialogflow ES agent (``DialogueExport/readProject(_:)``).
    /// - Throws: ``ModelLoadError`` naming the task and the file that failed, with the reason.
    public static func load(intents intentsPath: String?, questionAnswering qaPath: String?,
                            embeddings embeddingsPath: String? = nil, dialogue dialoguePath: String? = nil,
                            vocabulary: String? = nil, lowercase: Bool = true,
                            precision: Precision = .f32) throws -> ServedModels {
        func load<T>(_ task: String, _ reference: String, _ body: () throws -> T) throws -> T {
            do { return try body() } catch {
                throw ModelLoadError(task: task, path: reference, reason: "\(error)")
            }
        }
        let intents = try intentsPath.map { path in
            guard FileManager.default.fileExists(atPath: path) else {
                throw ModelLoadError(task: "intents", path: path, reason: "no such file or directory")
            }
            return try load("intents", path) { try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: path), precision: precision) }
        }
        let qa = try qaPath.map { reference in
            try load("question-answering", reference) {
                try QuestionAnswererLoading.load(reference, vocabulary: vocabulary, lowercase: lowercase, precision: precision)
            }
        }
        let embedder = try embeddingsPath.map { reference in
            try load("embeddings", reference) { try SentenceEmbedder(modelDirectory: ModelLocator.resolve(reference), precision: precision) }
        }
        let dialogue = try dialoguePath.map { path in
            try load("dialogue", path) { () throws -> (Dialogue, [String]) in
                let url = URL(fileURLWithPath: path)
                let (model, warnings) = try DialogueExport.readProject(url)
                    ?? DialogueImporter.read(try InputFile.read(url, name: path), file: path)
                return (try Dialogue(model), warnings)
            }
        }
        var models = ServedModels(intents: intents, intentsPath: intentsPath ?? "", questionAnswering: qa,
                                  questionAnsweringPath: qaPath ?? "", embeddings: embedder, embeddingsPath: embeddingsPath ?? "",
                                  dialogue: dialogue?.0, dialoguePath: dialoguePath ?? "")
        models.dialogueWarnings = dialogue?.1 ?? []
        return models
    }

    /// Whether no model at all is served.
    public var isEmpty: Bool { info.isEmpty }
}

/// A model that could not be loaded: which task, which file, and why.
public struct ModelLoadError: Error, CustomStringConvertible, Equatable {
    public var task: String
    public var path: String
    public var reason: String

    public var description: String { "cannot load the \(task) model \(path): \(reason)" }
}
