import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench dialogue`: the in-process latency of a conversation turn — parsing the user's text (an intents
/// model's prediction, or a Rasa payload such as `/inform{"cuisine": "thai"}`) and the dialogue's step — over
/// scripted conversations replayed many times; prints JSON. Issue 43's target: a turn ≤ 1 ms at p99.
struct DialogueBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dialogue",
        abstract: "Per-turn latency (parse + dialogue step) of a dialogue in process; prints JSON.")

    @Option(help: "The dialogue: an NLUKit dialogue JSON, a Watson workspace, or a Rasa project folder.")
    var dialogue: String

    @Option(name: .shortAndLong, help: "An intents model (.nlumodel) that parses lines that are not payloads.")
    var model: String?

    @Option(help: "The conversations: one user line per line, an empty line between conversations.")
    var conversations: String

    @Option(help: "How many times every conversation is replayed (each from a new state).") var passes: Int = 200

    func run() throws {
        guard (1...100_000).contains(passes) else { throw ValidationError("--passes must be 1 to 100000, got \(passes)") }
        let running = try Dialogue(try Self.load(dialogue))
        let classifier = try model.map { try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: $0)) }
        let text = try BenchmarkInput.text(conversations)
        let scripts = text.components(separatedBy: "\n\n").map {
            $0.split(separator: "\n").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }.filter { !$0.isEmpty }
        guard !scripts.isEmpty else { throw ValidationError("\(conversations) holds no conversation") }
        let reader = MessageReader(knownIntents: classifier.map { Set($0.intents) })
        func parse(_ line: String) throws -> ParsedMessage {
            try reader.read(line) { text in
                guard let classifier else { throw ValidationError("'\(text)' is no payload: give --model to parse text") }
                return ParsedMessage(prediction: classifier.predict(text, top: 10))
            }.message
        }
        let clock = ContinuousClock()
        var turns: [Double] = [], steps: [Double] = [], parses: [Double] = []
        turns.reserveCapacity(passes * scripts.reduce(0) { $0 + $1.count })
        var said = 0
        for _ in 0..<passes {
            for script in scripts {
                var state = try running.respond(to: ParsedMessage(text: ""), state: running.newState()).state
                for line in script {
                    let begin = clock.now
                    let message = try parse(line)
                    let parsed = clock.now
                    let turn = try running.respond(to: message, state: state)
                    let end = clock.now
                    state = turn.state
                    said &+= turn.responses.count
                    turns.append((end - begin).seconds)
                    parses.append((parsed - begin).seconds)
                    steps.append((end - parsed).seconds)
                }
            }
        }
        withExtendedLifetime(said) {}
        func percentile(_ values: [Double], _ fraction: Double) -> Double {
            let sorted = values.sorted()
            return sorted[min(sorted.count - 1, Int((fraction * Double(sorted.count - 1)).rounded()))] * 1e6
        }
        let result: [String: Any] = [
            "dialogue": dialogue, "model": model ?? "(payloads only)", "conversations": scripts.count,
            "turns": turns.count,
            "turnP50Microseconds": percentile(turns, 0.5), "turnP99Microseconds": percentile(turns, 0.99),
            "turnMaxMicroseconds": percentile(turns, 1),
            "parseP50Microseconds": percentile(parses, 0.5), "parseP99Microseconds": percentile(parses, 0.99),
            "stepP50Microseconds": percentile(steps, 0.5), "stepP99Microseconds": percentile(steps, 0.99),
            "targetTurnP99Microseconds": 1000,
        ]
        let data = try JSONSerialization.data(withJSONObject: result, options: [.sortedKeys])
        print(String(decoding: data, as: UTF8.self))
    }

    /// A Rasa project folder, else a dialogue JSON or a Watson workspace.
    static func load(_ path: String) throws -> DialogueModel {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
            return try RasaDialogueImporter.read(project: url).model
        }
        return try DialogueImporter.read(try BenchmarkInput.data(path), file: path).model
    }
}
