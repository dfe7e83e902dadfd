import ArgumentParser
import Foundation
import NLUKit

/// `nlu lm predict`: feeds tokens one at a time, carrying the state, and prints the next-token
/// probabilities after each.
struct LanguageModelPredictCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "predict",
        abstract: "Feed tokens one at a time (carrying the state) and print the most probable next tokens after each.",
        discussion: """
        Each TOKEN argument is split with the model's tokenizer (a word-level model reads "cat" as one token, a \
        character-level model reads "cat" as three) and each token is one step. --state-in starts from a saved \
        state and --state-out saves the final one, as JSON {"shape": [layers, components, hidden], "values": [...]} \
        (components: h, c for LSTM; h for GRU). An existing --state-out file is replaced only when it is such a \
        state (or empty) unless --force. --json prints one object per step: \
        {"input": TOKEN, "next": [{"token": ..., "probability": ...}]}.
        """)

    @Option(name: .shortAndLong, help: "The model package (.nlumodel).")
    var model: String

    @Option(name: [.customLong("top-k"), .customShort("k"), .customLong("top")],
            help: ArgumentHelp("How many next tokens to list per step (--top: the former spelling).", valueName: "n"))
    var topK: Int = 5

    @Option(help: "Start from this saved state (JSON) instead of a new sequence.")
    var stateIn: String?

    @Option(help: "Save the state after the last token here (JSON).")
    var stateOut: String?

    @Flag(help: "Replace an existing file at --state-out even when it is not a state nlu wrote.")
    var force = false

    @Flag(help: "Print one JSON object per step (JSON lines).")
    var json = false

    @Argument(help: "The tokens to feed, in order.")
    var tokens: [String]

    func validate() throws {
        guard topK >= 1 else { throw ValidationError("--top-k must be at least 1, got \(topK)") }
        guard !tokens.isEmpty else { throw ValidationError("give at least one TOKEN to feed") }
        guard !force || stateOut != nil else { throw ValidationError("--force applies to --state-out") }
    }

    struct Candidate: Encodable {
        var token: String
        var probability: Double
    }

    func run() throws {
        // --state-in and --state-out may be the same file (carry a state forward); the model may not be overwritten.
        if let stateOut {
            try Console.checkOutput(stateOut, flag: "--state-out", inputs: [model])
            // Before any work: a file nlu did not write (the user's notes) is never replaced unasked.
            try LanguageModelStateFile.output.checkReplaceable(URL(fileURLWithPath: stateOut), force: force,
                                                               remedy: "choose another path, move it away, or pass --force to replace it")
        }
        var languageModel = try LanguageModelOutput.loadModel(model)
        languageModel.probabilityCount = topK
        var state: FeatureValue? = nil
        if let stateIn {
            let data: Data
            do { data = try InputFile.readModelFile(URL(fileURLWithPath: stateIn), name: stateIn) } catch is InputReadError {
                throw LanguageModelError.file(stateIn, "cannot read the state file")
            }
            let saved: LanguageModelStateFile
            do { saved = try JSONDecoder().decode(LanguageModelStateFile.self, from: data) } catch {
                throw LanguageModelError.file(stateIn, "expected {\"shape\": [...], \"values\": [...]}")
            }
            guard saved.shapeCount == saved.values.count else {
                throw LanguageModelError.file(stateIn, "shape \(saved.shape) does not hold \(saved.values.count) values")
            }
            guard saved.shape == languageModel.configuration.stateShape else {
                throw LanguageModelError.file(stateIn, LanguageModelError.invalidState(
                    expected: languageModel.configuration.stateShape, actual: saved.shape).description)
            }
            state = .floatTensor(Tensor(shape: saved.shape, scalars: saved.values))
        }
        let steps = tokens.flatMap { languageModel.tokenizer.tokens(in: $0) }
        guard !steps.isEmpty else { throw ValidationError("the TOKEN arguments hold no tokens") }
        for token in steps {
            var input = DictionaryFeatureProvider([LanguageModel.FeatureName.previousWord: .string(token)])
            input[LanguageModel.FeatureName.stateIn] = state
            let output = try languageModel.prediction(from: input)
            state = output.featureValue(for: LanguageModel.FeatureName.stateOut)
            let entries = output.featureValue(for: LanguageModel.FeatureName.nextWordProbabilities)?.dictionaryValue ?? [:]
            let next = entries.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key < $1.key) }
                .map { Candidate(token: $0.key, probability: $0.value) }
            if json {
                // Built by hand so the keys keep the documented order (input, next; token, probability).
                let candidates = try next.map { "{\"token\":\(try Console.json($0.token)),\"probability\":\($0.probability)}" }
                Console.print("{\"input\":\(try Console.json(token)),\"next\":[\(candidates.joined(separator: ","))]}")
            } else {
                Console.print("\(token) → " + next.map { String(format: "%@ %.4f", $0.token, $0.probability) }.joined(separator: ", "))
            }
        }
        if let stateOut, let tensor = state?.floatTensorValue {
            let data = Data(try Console.json(LanguageModelStateFile(shape: tensor.shape, values: tensor.scalars)).utf8)
            // AtomicFile, not Foundation's `.atomic`: it follows symbolic links, writes FIFOs and devices
            // in place, refuses a directory and reports errors without Foundation's error text.
            try AtomicFile.write(to: URL(fileURLWithPath: stateOut)) { try $0.write(data) }
        }
    }
}
