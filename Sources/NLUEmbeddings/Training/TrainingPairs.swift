import Foundation
import NLUCore
import NLUInputOutput

/// What a sentence embedder is fine-tuned on, read from a JSON Lines file, one example per line, in the two
/// shapes sentence-transformers' losses take:
///
/// - **contrastive** (MultipleNegativesRankingLoss): `{"anchor": "how do I reset it", "positive": "Resetting
///   the router", "negative": "Router colours"}`, the `negative` (a hard negative) optional; the other
///   examples of a batch serve as negatives too;
/// - **scored** (CosineSimilarityLoss): `{"sentence1": "…", "sentence2": "…", "score": 0.8}`, the score the
///   two texts' cosine similarity should reach, from -1 to 1 (`label` is accepted for `score`, the column
///   name sentence-transformers' datasets use).
///
/// Every line of a file has the same shape; blank lines are skipped. A line that is not such an object,
/// names a field neither shape has, holds an empty text or a score outside -1...1, or has the other shape
/// than the first line is an error naming the file, the line and the field. The file is read through
/// ``InputFile`` (its size limit applies).
///
///     let pairs = try TrainingPairs.read(from: URL(fileURLWithPath: "pairs.jsonl"))
///     if case .contrastive(let examples) = pairs { print(examples.count, examples[0].anchor) }
public enum TrainingPairs: Sendable, Equatable {
    /// An anchor text, a text that belongs with it and, optionally, one that does not.
    public struct ContrastiveExample: Sendable, Equatable {
        public var anchor: String
        public var positive: String
        public var negative: String?

        public init(anchor: String, positive: String, negative: String? = nil) {
            self.anchor = anchor
            self.positive = positive
            self.negative = negative
        }
    }

    /// Two texts and the cosine similarity their embeddings should have.
    public struct ScoredPair: Sendable, Equatable {
        public var first: String
        public var second: String
        public var score: Float

        public init(first: String, second: String, score: Float) {
            self.first = first
            self.second = second
            self.score = score
        }
    }

    case contrastive([ContrastiveExample])
    case scored([ScoredPair])

    /// How many examples the file holds.
    public var count: Int {
        switch self {
        case .contrastive(let examples): examples.count
        case .scored(let pairs): pairs.count
        }
    }

    /// Reads the file at `url` (named `name` in errors, its path by default).
    /// - Throws: ``TrainingPairsError`` naming the line and field, or the reading error.
    public static func read(from url: URL, name: String? = nil) throws -> TrainingPairs {
        let name = name ?? url.path
        return try parse(InputFile.read(url, name: name), file: name)
    }

    /// Parses JSON Lines `data`; `file` names the source in errors.
    /// - Throws: ``TrainingPairsError`` naming the line and field.
    public static func parse(_ data: Data, file: String) throws -> TrainingPairs {
        var contrastive: [ContrastiveExample] = [], scored: [ScoredPair] = []
        var shape: (name: String, line: Int)?
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            let bytes = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            guard bytes.contains(where: { !$0.isJSONWhitespace }) else { continue }
            func fail(_ reason: String) -> TrainingPairsError { TrainingPairsError(file: file, line: lineNumber, reason: reason) }
            // An example is one flat object: deeper nesting is refused before a recursive parser sees it.
            guard JSONNesting.depth(bytes) <= 2 else {
                throw fail("expected a flat JSON object of texts and a score; this line nests arrays or objects")
            }
            let object: [String: Any]
            do {
                guard let decoded = try JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]) as? [String: Any] else {
                    throw fail("expected a JSON object such as {\"anchor\": …, \"positive\": …} or {\"sentence1\": …, \"sentence2\": …, \"score\": …}")
                }
                object = decoded
            } catch let error as TrainingPairsError {
                throw error
            } catch {
                throw fail("not valid JSON (\(JSONFile.syntaxErrorLocation(error, data: Data(bytes))))")
            }
            func text(_ key: String, required: Bool = true) throws -> String? {
                guard let value = object[key] else {
                    if required { throw fail("\"\(key)\" is missing") }
                    return nil
                }
                guard let string = value as? String else { throw fail("\"\(key)\" must be a string") }
                guard string.contains(where: { !$0.isWhitespace }) else { throw fail("\"\(key)\" is empty") }
                return string
            }
            let isScored = object["sentence1"] != nil || object["sentence2"] != nil || object["score"] != nil || object["label"] != nil
            let known: Set<String> = isScored ? ["sentence1", "sentence2", "score", "label"] : ["anchor", "positive", "negative"]
            if let unknown = object.keys.sorted().first(where: { !known.contains($0) }) {
                throw fail("unknown field \"\(unknown)\" (expected \(isScored ? "sentence1, sentence2 and score" : "anchor, positive and optionally negative"))")
            }
            let name = isScored ? "scored (sentence1, sentence2, score)" : "contrastive (anchor, positive)"
            if let shape, shape.name != name {
                throw fail("a \(name) example, but line \(shape.line) began a file of \(shape.name) examples; one file holds one shape")
            }
            shape = shape ?? (name, lineNumber)
            if isScored {
                guard object["score"] == nil || object["label"] == nil else { throw fail("give \"score\" or \"label\", not both") }
                let key = object["score"] != nil ? "score" : "label"
                guard let value = object[key] else { throw fail("\"score\" is missing") }
                // JSONSerialization's true and false are NSNumbers too, of type code "c".
                guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else {
                    throw fail("\"\(key)\" must be a number")
                }
                let score = number.doubleValue
                guard score.isFinite, (-1...1).contains(score) else {
                    throw fail("\"\(key)\" must be a cosine similarity from -1 to 1, got \(score)")
                }
                scored.append(ScoredPair(first: try text("sentence1") ?? "", second: try text("sentence2") ?? "", score: Float(score)))
            } else {
                contrastive.append(ContrastiveExample(anchor: try text("anchor") ?? "", positive: try text("positive") ?? "",
                                                      negative: try text("negative", required: false)))
            }
        }
        guard let shape else { throw TrainingPairsError(file: file, line: nil, reason: "holds no examples") }
        return shape.name.hasPrefix("scored") ? .scored(scored) : .contrastive(contrastive)
    }
}

/// A training-pairs file that cannot be used: the file, the line (when one is at fault) and why.
public struct TrainingPairsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public var file: String
    public var line: Int?
    public var reason: String

    public var description: String { "\(file)\(line.map { " line \($0)" } ?? ""): \(reason)" }
    public var errorDescription: String? { description }
}

private extension UInt8 {
    var isJSONWhitespace: Bool { self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D }
}
