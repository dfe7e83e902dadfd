import ArgumentParser
import Foundation
import NLUKit

/// `nlu qa ask --input`: answers a JSONL file line by line with one loaded model, reporting bad
/// lines (with their number) and going on with the rest.
struct QABatch {
    let answerer: QuestionAnswerer
    let options: AnswerOptions

    private struct Request: Decodable {
        var id: JSONValue?
        var question: String
        var context: String
    }

    func run(input: String, output: String?) throws {
        let data = try Console.readData(path: input)
        let lines = data.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { $0.last == 0x0D ? $0.dropLast() : $0 }
        let numbered = lines.enumerated().filter { !$0.element.allSatisfy { $0 == 0x20 || $0 == 0x09 } }
        var results: [String] = []
        var failures = 0
        var lastReport = Date()
        for (done, (index, line)) in numbered.enumerated() {
            let number = index + 1
            do {
                let request: Request
                do {
                    request = try JSONDecoder().decode(Request.self, from: Data(line))
                } catch {
                    // Name the field at fault (a missing "context", a number for "question") when there is one.
                    let (field, reason) = JSONFile.describe(anyError: error, decoding: Request.self, from: Data(line))
                    throw InputError((field.isEmpty ? "" : "\"\(field)\" \(reason): ")
                        + "expected a JSON object {\"id\": ..., \"question\": \"...\", \"context\": \"...\"}")
                }
                let answers = try answerer.answers(to: request.question, in: request.context, options: options)
                results.append(QAJSON.string(QAJSON.Result(id: request.id, answers: answers.map(QAJSON.Answer.init))))
            } catch {
                failures += 1
                let named = QAReadingOptions.naming(error)  // a window too small names its flags, as in single mode
                let message = (named as? LocalizedError)?.errorDescription ?? "\(named)"
                Console.log("\(input) line \(number): \(message)")
                let id = (try? JSONDecoder().decode(IDOnly.self, from: Data(line)))?.id
                results.append(QAJSON.string(QAJSON.Failure(id: id, line: number, error: message)))
            }
            if Date().timeIntervalSince(lastReport) > 1 || done + 1 == numbered.count {
                if numbered.count > 1 {
                    Console.log("qa: \(done + 1)/\(numbered.count) lines" + (failures > 0 ? " (\(failures) failed)" : ""))
                }
                lastReport = Date()
            }
        }
        let text = results.map { $0 + "\n" }.joined()
        if let output {
            try writeAtomically(text, to: URL(fileURLWithPath: output))
        } else {
            Console.write(text)
        }
        if failures > 0 {
            Console.log("qa: \(failures) of \(numbered.count) lines failed")
            throw ExitCode.failure
        }
    }

    private struct IDOnly: Decodable { var id: JSONValue? }

    private func writeAtomically(_ text: String, to url: URL) throws {
        try AtomicFile.write(to: url) { try $0.write(Data(text.utf8)) }
    }
}

/// An `id` as given in the input (string or number), echoed back unchanged.
enum JSONValue: Codable, Equatable {
    case string(String), number(Double), integer(Int)

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) { self = .integer(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else { self = .string(try container.decode(String.self)) }
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        }
    }
}

/// The JSON shapes `nlu qa` prints.
enum QAJSON {
    struct Answer: Encodable {
        var answer: String
        var score: Double
        var start: Int
        var end: Int

        init(_ answer: NLUKit.Answer) {
            self.answer = answer.text
            score = answer.score
            start = answer.start
            end = answer.end
        }
    }

    struct AnswerList: Encodable { var answers: [Answer] }

    /// An answer from `qa ask --index`: offsets are into the document it names.
    struct CollectionAnswer: Encodable {
        var answer: String
        var score: Double
        var document: String
        var start: Int
        var end: Int

        init(_ found: NLUKit.CollectionAnswer) {
            answer = found.answer.text
            score = found.answer.score
            document = found.documentID
            start = found.start
            end = found.end
        }
    }

    struct CollectionAnswerList: Encodable {
        /// True when the question's vector is zero (retrieved by keyword alone); absent otherwise.
        var zeroQueryVector: Bool?
        var answers: [CollectionAnswer]
    }

    struct Result: Encodable {
        var id: JSONValue?
        var answers: [Answer]
    }

    struct Failure: Encodable {
        var id: JSONValue?
        var line: Int
        var error: String
    }

    static func string(_ value: some Encodable) -> String {
        (try? Console.json(value)) ?? "{}"
    }
}
