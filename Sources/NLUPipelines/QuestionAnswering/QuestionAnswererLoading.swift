import Foundation
import NLUCore
import NLUHub
import NLUCoreML
import NLUQuestionAnswering
import NLUText

/// Finds the question-answering model a `--model` value stands for: a Hugging Face checkpoint (directory or Hub
/// id in the cache) or a Core ML `.mlmodel` file with the features of Apple's BERT-SQuAD sample.
///
///     let qa = try QuestionAnswererLoading.load("BERTSQUADFP16.mlmodel", vocabulary: "bert-base-uncased-vocab.txt")
public enum QuestionAnswererLoading {
    /// Whether `source` names a Core ML file (by its extension), so that tools can check their flags.
    public static func isCoreMLFile(_ source: String) -> Bool {
        URL(fileURLWithPath: source).pathExtension.lowercased() == "mlmodel"
    }

    /// Loads `source`. A Core ML file needs a WordPiece `vocab.txt`: `vocabulary`, or one beside the file;
    /// `lowercase` says whether the model was trained on lower-cased text (Apple's sample is uncased). For a
    /// checkpoint both come from the checkpoint itself. `precision` is the checkpoint encoder's
    /// arithmetic (a Core ML file runs as its layers are written: only `.f32` applies).
    /// - Throws: ``CoreMLQuestionAnsweringError`` or the reader's error, naming the file;
    ///   ``PrecisionError`` for `.int8` with a Core ML file.
    public static func load(_ source: String, vocabulary: String? = nil, lowercase: Bool = true,
                            precision: Precision = .f32) throws -> QuestionAnswerer {
        guard isCoreMLFile(source) else {
            return try QuestionAnswerer(modelDirectory: ModelLocator.resolve(source), precision: precision)
        }
        guard precision == .f32 else { throw PrecisionError.notApplicable(precision, model: source) }
        let file = URL(fileURLWithPath: source)
        // The file first: one that is not a QA model is named as such before any vocabulary is looked for.
        let loaded = try CoreMLQuestionAnsweringModel(contentsOf: file)
        let vocabularyFile = vocabulary.map { URL(fileURLWithPath: $0) }
            ?? file.deletingLastPathComponent().appendingPathComponent("vocab.txt")
        guard FileManager.default.fileExists(atPath: vocabularyFile.path) else {
            throw CoreMLQuestionAnsweringError.noVocabulary(file: source, looked: vocabularyFile.path)
        }
        let tokenizer = try BertTokenizer(vocabulary: Vocabulary(contentsOf: vocabularyFile),
                                          options: BertTokenizer.Options(lowercase: lowercase))
        let model = try CoreMLQuestionAnsweringModel(model: loaded.model, padID: tokenizer.padID, file: source)
        return QuestionAnswerer(model: model, tokenizer: tokenizer)
    }
}
