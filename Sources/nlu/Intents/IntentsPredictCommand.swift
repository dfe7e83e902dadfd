import ArgumentParser
import Foundation
import NLUKit

/// `nlu intents predict`: classifies utterances with a trained model.
struct IntentsPredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Classify utterances: the intent, its confidence and the top N intents.",
        discussion: """
        Utterances come from the arguments, or one per line from stdin when none is given. The answer is no \
        intent when the "none" class wins or the best confidence is under --threshold. --json prints one object \
        per utterance: {"text", "intent" (null for no intent), "confidence", "ranking": [{"intent", "confidence"}], \
        "entities": [{"entity", "start", "end", "text", "value", "confidence", "extractor", "role"?, "group"?, \
        "builtin"?, "resolution"?}]} (offsets in Unicode scalars, end exclusive; extractor crf, dictionary, regex or \
        builtin). Built-in entities (numbers, amounts, dates... when the training data used the platform's system \
        entities) carry their kind and resolution; relative dates resolve against --reference-time (default: now).
        """)

    @Option(name: .shortAndLong, help: "The model package (.nlumodel).")
    var model: String

    @Option(name: [.customLong("top-k"), .customShort("k"), .customLong("top")],
            help: ArgumentHelp("How many intents to rank (--top: the former spelling).", valueName: "n"))
    var topK: Int = 3

    @Option(help: "Confidence under which the answer is no intent (default: the model's).")
    var threshold: Float?

    @Option(help: "The \"now\" of relative dates (\"tomorrow\"), ISO 8601 YYYY-MM-DD[THH:MM[:SS]] (default: the local time now).")
    var referenceTime: String?

    @Flag(help: "Print one JSON object per utterance.")
    var json = false

    @Flag(help: "Say on stderr when an utterance is written in a script the model's language does not use.")
    var verbose = false

    @Argument(help: "Utterances (default: one per line from stdin).")
    var texts: [String] = []

    @OptionGroup var inputSize: InputSizeOption
    @OptionGroup var precision: PrecisionOption

    func validate() throws {
        guard topK >= 1 else { throw ValidationError("--top-k must be at least 1, got \(topK)") }
        if let index = texts.firstIndex(where: { $0.allSatisfy(\.isWhitespace) }) {
            throw ValidationError("TEXT argument \(index + 1) is empty")
        }
        if let threshold, !(0...1).contains(threshold) {
            throw ValidationError("--threshold must be between 0 and 1, got \(threshold)")
        }
        _ = try reference()
    }

    /// The parsed --reference-time (nil: now).
    private func reference() throws -> ReferenceTime? {
        guard let referenceTime else { return nil }
        do {
            return try ReferenceTime(iso8601: referenceTime)
        } catch let error as ReferenceTimeError {
            throw ValidationError("--reference-time: \(error.description)")
        }
    }

    func run() throws {
        let reference = try reference()
        let classifier = try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: model), precision: precision.precision)
        if texts.isEmpty {
            try Console.forEachLine(path: nil) { line in
                let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
                if !text.isEmpty { try answer(text, classifier, reference) }
            }
        } else {
            for text in texts { try answer(text, classifier, reference) }
        }
    }

    private func answer(_ text: String, _ classifier: IntentClassifier, _ reference: ReferenceTime?) throws {
        let prediction = classifier.predict(text, top: topK, threshold: threshold, reference: reference)
        if verbose { ScriptNotes.note(on: text, language: classifier.featurizer.options.language ?? "en", reader: "the model's words and built-ins") }
        if json {
            Console.print(try Self.jsonLine(prediction))
            return
        }
        func percent(_ value: Float) -> String { String(format: "%.1f%%", value * 100) }
        let headline = prediction.intent.map { "\($0) (\(percent(prediction.confidence)))" }
            ?? "no intent (best \(percent(prediction.confidence)))"
        Console.print("\(text) → \(headline)")
        Console.print("    " + prediction.ranking.map { "\($0.intent) \(percent($0.confidence))" }.joined(separator: "   "))
        for entity in prediction.entities {
            var line = "    \(entity.entity) = \(entity.value) \"\(entity.text)\" " + SpanNotation.text(start: entity.start, end: entity.end)
            if let role = entity.role { line += " role \(role)" }
            if let group = entity.group { line += " group \(group)" }
            if let builtin = entity.builtin { line += " (\(builtin.rawValue))" }
            line += " \(entity.extractor.rawValue) \(percent(Float(entity.confidence)))"
            Console.print(line)
        }
        for warning in prediction.warnings { Console.print("    warning: \(warning)") }
    }

    /// The prediction as one JSON object with the keys in the documented order (text, intent,
    /// confidence, ranking, entities, and warnings when there are some), which JSONEncoder does not promise.
    static func jsonLine(_ prediction: IntentPrediction) throws -> String {
        func encode<T: Encodable>(_ value: T) throws -> String { try Console.json(value, sortedKeys: false) }
        let ranking = try prediction.ranking.map { "{\"intent\":\(try encode($0.intent)),\"confidence\":\(try encode($0.confidence))}" }
        let entities = try prediction.entities.map { entity in
            var fields = ["\"entity\":\(try encode(entity.entity))", "\"start\":\(entity.start)", "\"end\":\(entity.end)",
                          "\"text\":\(try encode(entity.text))", "\"value\":\(try encode(entity.value))",
                          "\"confidence\":\(try encode(entity.confidence))", "\"extractor\":\(try encode(entity.extractor.rawValue))"]
            if let role = entity.role { fields.append("\"role\":\(try encode(role))") }
            if let group = entity.group { fields.append("\"group\":\(try encode(group))") }
            if let builtin = entity.builtin { fields.append("\"builtin\":\(try encode(builtin.rawValue))") }
            if let resolution = entity.resolution { fields.append("\"resolution\":\(try Console.json(resolution))") }
            return "{" + fields.joined(separator: ",") + "}"
        }
        return "{\"text\":\(try encode(prediction.text)),\"intent\":\(try prediction.intent.map(encode) ?? "null"),"
            + "\"confidence\":\(try encode(prediction.confidence)),\"ranking\":[\(ranking.joined(separator: ","))],"
            + "\"entities\":[\(entities.joined(separator: ","))]"
            + (prediction.warnings.isEmpty ? "" : ",\"warnings\":\(try encode(prediction.warnings))") + "}"
    }
}
