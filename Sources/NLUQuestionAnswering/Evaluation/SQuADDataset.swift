import Foundation
import NLUTransformers

/// A question-answering dataset in the SQuAD v1.1 / v2.0 JSON format:
/// `{"version": ..., "data": [{"title": ..., "paragraphs": [{"context": ..., "qas": [...]}]}]}`.
///
///     let dataset = try SQuADDataset(contentsOf: URL(fileURLWithPath: "dev-v2.0.json"))
///     print(dataset.questions.count, dataset.isVersion2)
public struct SQuADDataset: Decodable, Sendable {
    /// One question with its context and gold answers.
    public struct Question: Sendable, Equatable {
        /// The question id (`qas[].id`).
        public var id: String
        /// The question text.
        public var question: String
        /// The paragraph the question is about.
        public var context: String
        /// Gold answer texts (empty for an unanswerable SQuAD 2.0 question).
        public var answers: [String]
        /// Whether the question has no answer in its context (SQuAD 2.0).
        public var isImpossible: Bool
    }

    /// The file's `version` field ("v2.0", "1.1"), if any.
    public var version: String?
    /// Every question of every paragraph, in file order.
    public var questions: [Question]

    /// Whether the file is SQuAD 2.0 (a "v2" version or any question marked impossible): then "no
    /// answer" is a valid prediction.
    public var isVersion2: Bool {
        (version?.hasPrefix("v2") ?? false) || questions.contains(where: \.isImpossible)
    }

    private struct File: Decodable {
        var version: String?
        var data: [Article]
    }
    private struct Article: Decodable { var paragraphs: [Paragraph] }
    private struct Paragraph: Decodable {
        var context: String
        var qas: [QA]
    }
    private struct QA: Decodable {
        var id: String
        var question: String
        var answers: [GoldAnswer]?
        var is_impossible: Bool?
    }
    private struct GoldAnswer: Decodable { var text: String }

    /// Decodes the SQuAD layout, flattening articles and paragraphs into ``questions``.
    public init(from decoder: Decoder) throws {
        let file = try File(from: decoder)
        version = file.version
        questions = file.data.flatMap { article in
            article.paragraphs.flatMap { paragraph in
                paragraph.qas.map { qa in
                    Question(id: qa.id, question: qa.question, context: paragraph.context,
                             answers: (qa.answers ?? []).map(\.text), isImpossible: qa.is_impossible ?? false)
                }
            }
        }
    }

    /// Reads and decodes a SQuAD JSON file.
    /// - Throws: ``CheckpointError/unreadableFile(path:reason:)`` saying what is wrong where.
    public init(contentsOf url: URL) throws {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CheckpointError.missingFile(path: url.path, expected: "a SQuAD JSON file")
        }
        do {
            self = try JSONDecoder().decode(SQuADDataset.self, from: data)
        } catch let DecodingError.keyNotFound(key, context) {
            let path = (context.codingPath + [key]).map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            throw CheckpointError.unreadableFile(path: url.path, reason: "not SQuAD JSON: missing field '\(path)'")
        } catch {
            throw CheckpointError.unreadableFile(path: url.path, reason: "not SQuAD JSON: \(error.localizedDescription)")
        }
    }
}
