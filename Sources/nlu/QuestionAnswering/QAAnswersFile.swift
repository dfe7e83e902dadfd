import Foundation
import NLUKit

/// What `nlu qa ask --input ... --output FILE` may replace without `--force` (``OutputFile``): a
/// JSONL file whose first line is one of the records a batch writes, {"id", "answers": [...]} or
/// {"id", "line", "error"}. JSONL has no room for a header, and a line of exactly these keys (and
/// no others) is not a shape a user's notes, questions file or another tool's output has; checking
/// the first line alone keeps a large file from being read whole.
enum QAAnswersFile {
    static let output = OutputFile(kind: "a qa ask answers file (JSONL)") { isAnswers(at: $0) }

    static func isAnswers(at url: URL) -> Bool {
        guard let object = OutputFile.firstJSONObject(of: url) else { return false }
        let keys = Set(object.keys).subtracting(["id"])
        if keys == ["answers"], let answers = object["answers"] as? [Any] {
            return answers.allSatisfy { element in
                guard let answer = element as? [String: Any] else { return false }
                return Set(answer.keys) == ["answer", "score", "start", "end"] && answer["answer"] is String
            }
        }
        return keys == ["line", "error"] && object["line"] is NSNumber && object["error"] is String
    }
}
