import Foundation
@testable import NLUQuestionAnswering
import NLUTestSupport

/// The committed fixtures of scripts/fixtures/qa.py: tiny random checkpoints and the reference outputs.
enum QAFixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/qa")

    static func model(_ name: String) -> URL { directory.appendingPathComponent(name) }

    struct LogitsCase: Decodable {
        var model: String
        var question: String
        var context: String
        var input_ids: [Int32]
        var token_type_ids: [Int32]
        var start_logits: [Float]
        var end_logits: [Float]
    }

    struct PipelineAnswer: Decodable {
        var answer: String
        var score: Double
        var start: Int
        var end: Int
    }

    struct PipelineOptions: Decodable {
        var top_k: Int?
        var max_seq_len: Int?
        var doc_stride: Int?
        var max_answer_len: Int?
        var handle_impossible_answer: Bool?
        var align_to_words: Bool?

        var answerOptions: AnswerOptions {
            AnswerOptions(topK: top_k ?? 1, maxSequenceLength: max_seq_len, documentStride: doc_stride,
                          maxAnswerLength: max_answer_len ?? 15, handleImpossibleAnswer: handle_impossible_answer ?? false,
                          alignToWords: align_to_words ?? true)
        }
    }

    struct PipelineCase: Decodable {
        var model: String
        var question: String
        var context: String
        var options: PipelineOptions
        var windows: Int
        var answers: [PipelineAnswer]
    }

    struct SQuADCase: Decodable {
        var model: String
        var exact: Double
        var f1: Double
        var count: Int
    }

    struct Goldens: Decodable {
        var logits: [LogitsCase]
        var pipeline: [PipelineCase]
        var squad: [SQuADCase]
    }

    static let goldens: Goldens = {
        do {
            let data = try Data(contentsOf: directory.appendingPathComponent("goldens.json"))
            return try JSONDecoder().decode(Goldens.self, from: data)
        } catch {
            return Goldens(logits: [], pipeline: [], squad: [])
        }
    }()

    /// A copy of fixture model `name` in a fresh scratch folder (for tests that damage it).
    static func temporaryCopy(of name: String) throws -> URL {
        let target = try TestScratch.folder("nlukit-qa").appendingPathComponent(name)
        try FileManager.default.copyItem(at: model(name), to: target)
        return target
    }

    /// Deletes a directory made by ``temporaryCopy(of:)`` (with its unique parent).
    static func remove(_ copy: URL) {
        try? FileManager.default.removeItem(at: copy.deletingLastPathComponent())
    }
}
