import Foundation
import NLUCore
import NLUTransformers
import NLUInputOutput

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
        /// Each answer's `answer_start`: the Unicode-scalar offset of its text in ``context`` (as Python
        /// counts characters), nil where the file gives none (evaluation needs none; training does).
        public var answerStarts: [Int?]
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
    private struct GoldAnswer: Decodable {
        var text: String
        var answer_start: Int?
    }

    /// Decodes the SQuAD layout, flattening articles and paragraphs into ``questions``.
    public init(from decoder: Decoder) throws {
        let file = try File(from: decoder)
        version = file.version
        questions = file.data.flatMap { article in
            article.paragraphs.flatMap { paragraph in
                paragraph.qas.map { qa in
                    Question(id: qa.id, question: qa.question, context: paragraph.context,
                             answers: (qa.answers ?? []).map(\.text), answerStarts: (qa.answers ?? []).map(\.answer_start),
                             isImpossible: qa.is_impossible ?? false)
                }
            }
        }
    }

    /// Reads and decodes a SQuAD JSON file.
    /// - Throws: ``CheckpointError/unreadableFile(path:reason:)`` saying what is wrong where.
    public init(contentsOf url: URL) throws {
        let data: Data
        do { data = try InputFile.read(url) } catch let error as InputReadError {
            throw error.isMissing ? CheckpointError.missingFile(path: url.path, expected: "a SQuAD JSON file")
                                  : CheckpointError.unreadableFile(path: url.path, reason: error.reason)
        }
        try self.init(data: data, file: url.path)
    }

    /// Decodes SQuAD JSON read from `file` (a path, or "standard input").
    /// - Throws: ``CheckpointError/unreadableFile(path:reason:)`` naming the field and, inside a
    ///   question, the question's id.
    public init(data: Data, file: String) throws {
        do {
            self = try JSONDecoder().decode(SQuADDataset.self, from: data)
        } catch let error as DecodingError {
            let (field, reason) = JSONFile.describe(error, decoding: SQuADDataset.self, from: data)
            let question = Self.questionID(at: field, in: data).map { "question '\($0)': " } ?? ""
            throw CheckpointError.unreadableFile(
                path: file, reason: "not SQuAD JSON: \(question)\(field.isEmpty ? "" : "field '\(field)': ")\(reason)")
        }
        // What the answerer would refuse at that question, refused here where the file is known.
        for item in questions where item.question.allSatisfy(\.isWhitespace) || item.context.allSatisfy(\.isWhitespace) {
            let what = item.question.allSatisfy(\.isWhitespace) ? "the question is empty" : "its context is empty"
            throw CheckpointError.unreadableFile(path: file, reason: "question '\(item.id)': \(what)")
        }
    }

    /// The `id` of the question that holds `field` (a path such as `data[0].paragraphs[1].qas[2].answers`), if any.
    private static func questionID(at field: String, in data: Data) -> String? {
        let pattern = #/^data\[(\d+)\]\.paragraphs\[(\d+)\]\.qas\[(\d+)\]/#
        guard let match = field.firstMatch(of: pattern), let article = Int(match.1), let paragraph = Int(match.2),
              let qa = Int(match.3),
              let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let articles = root["data"] as? [Any], articles.indices.contains(article),
              let paragraphs = (articles[article] as? [String: Any])?["paragraphs"] as? [Any], paragraphs.indices.contains(paragraph),
              let qas = (paragraphs[paragraph] as? [String: Any])?["qas"] as? [Any], qas.indices.contains(qa),
              let id = (qas[qa] as? [String: Any])?["id"] else { return nil }
        return "\(id)"
    }
}
