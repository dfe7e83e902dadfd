import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUSequence

/// Language models against PyTorch goldens (scripts/fixtures/lm.py → Tests/Fixtures/lm): per-step
/// probabilities and states within 1e-5, whole-sequence logits, and training gradients.
@Suite struct LanguageModelTests {
    struct Step: Decodable {
        var input: String
        var probabilities: [Float]
        var state: [Float]
    }

    struct Golden: Decodable {
        var tokens: [String]
        var steps: [Step]
        var sequenceLogits: [Float]
        var trainingInputs: [Int32]
        var trainingTargets: [Int32]
        var trainingSteps: Int
        var trainingBatch: Int
        var trainingLoss: Float
        var trainingGradients: [String: [Float]]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/lm")
    static let names = ["lstm-1", "lstm-2", "gru-1", "gru-2"]

    static func load(_ name: String) throws -> (LanguageModel, Golden) {
        let model = try LanguageModel(contentsOf: fixtures.appendingPathComponent("\(name).nlumodel"))
        let data = try Data(contentsOf: fixtures.appendingPathComponent("\(name).json"))
        return (model, try JSONDecoder().decode(Golden.self, from: data))
    }

    static func maxDifference(_ a: [Float], _ b: [Float]) -> Float {
        guard a.count == b.count else { return .infinity }
        return zip(a, b).map { abs($0 - $1) }.max() ?? 0
    }

    @Test(arguments: names) func stateAsFeatureMatchesPyTorchPerStep(name: String) throws {
        let (model, golden) = try Self.load(name)
        var state: FeatureValue? = nil
        for step in golden.steps {
            var input = DictionaryFeatureProvider([LanguageModel.FeatureName.previousWord: .string(step.input)])
            input[LanguageModel.FeatureName.stateIn] = state
            let output = try model.prediction(from: input)
            state = output.featureValue(for: LanguageModel.FeatureName.stateOut)
            let stateOut = try #require(state?.floatTensorValue)
            #expect(stateOut.shape == model.configuration.stateShape)
            #expect(Self.maxDifference(stateOut.scalars, step.state) < 1e-5, "\(name) state after '\(step.input)'")
            // nextWord is PyTorch's argmax; the listed probabilities are PyTorch's.
            let best = step.probabilities.indices.max { step.probabilities[$0] < step.probabilities[$1] } ?? 0
            #expect(output.featureValue(for: LanguageModel.FeatureName.nextWord)?.stringValue == model.configuration.vocabulary[best])
            let entries = try #require(output.featureValue(for: LanguageModel.FeatureName.nextWordProbabilities)?.dictionaryValue)
            #expect(entries.count == model.probabilityCount)
            for (token, probability) in entries {
                let id = try #require(model.vocabulary.id(for: token))
                #expect(abs(Float(probability) - step.probabilities[Int(id)]) < 1e-5)
            }
        }
    }

    @Test(arguments: names) func stateObjectMatchesPyTorchPerStep(name: String) throws {
        let (model, golden) = try Self.load(name)
        let state = model.makeState()
        var tensorState = model.zeroState()
        for step in golden.steps {
            _ = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string(step.input)]), using: state)
            #expect(Self.maxDifference(state.tensor.scalars, step.state) < 1e-5)
            let probabilities = try model.nextTokenProbabilities(after: model.tokenID(for: step.input), state: &tensorState)
            #expect(Self.maxDifference(probabilities, step.probabilities) < 1e-5)
        }
    }

    @Test(arguments: names) func wholeSequenceMatchesPyTorchAndSteps(name: String) throws {
        let (model, golden) = try Self.load(name)
        let ids = golden.tokens.map { model.tokenID(for: $0) }
        let (logits, _) = model.logits(for: Tensor(shape: [ids.count, 1], scalars: ids))
        #expect(Self.maxDifference(logits.scalars, golden.sequenceLogits) < 1e-5)
        var state = model.zeroState()
        var stepped: [Float] = []
        for id in ids { stepped += try model.nextTokenLogits(after: id, state: &state) }
        #expect(Self.maxDifference(stepped, logits.scalars) < 1e-5)
    }

    @Test(arguments: names) func trainingGradientsMatchPyTorchAutograd(name: String) throws {
        let (model, golden) = try Self.load(name)
        let batch = LanguageModelBatch(steps: golden.trainingSteps, batch: golden.trainingBatch,
                                       inputs: golden.trainingInputs, targets: golden.trainingTargets)
        var generator = SplitMix64(seed: 0)
        let (loss, gradients, _) = model.lossAndGradients(for: batch, generator: &generator)
        #expect(abs(loss - golden.trainingLoss) < 1e-5)
        for (name, gradient) in zip(LanguageModel.weightNames(for: model.configuration), gradients) {
            let expected = try #require(golden.trainingGradients[name])
            #expect(Self.maxDifference(gradient.scalars, expected) < 1e-5, "\(name)")
        }
    }

    /// Central differences of the LM loss for the embedding, the decoder (linear) and — through the
    /// whole model — the softmax cross-entropy, against the analytic gradients.
    @Test func gradientsMatchNumericalGradients() throws {
        var (model, golden) = try Self.load("lstm-2")
        let batch = LanguageModelBatch(steps: golden.trainingSteps, batch: golden.trainingBatch,
                                       inputs: golden.trainingInputs, targets: golden.trainingTargets)
        var generator = SplitMix64(seed: 0)
        let (_, analytic, _) = model.lossAndGradients(for: batch, generator: &generator)
        let names = LanguageModel.weightNames(for: model.configuration)
        for name in ["embedding.weight", "decoder.weight", "decoder.bias", "rnn.weight_hh_l1"] {
            let index = try #require(names.firstIndex(of: name))
            let original = model.parameters[index]
            let numeric = GradientCheck.numericalGradient(of: { value in
                var parameters = model.parameters
                parameters[index] = value
                var probe = model
                probe.parameters = parameters
                return probe.loss(for: batch).loss
            }, at: original, epsilon: 1e-2)
            #expect(Self.maxDifference(numeric.scalars, analytic[index].scalars) < 1e-3, "\(name)")
        }
        model.probabilityCount = 5
    }

    @Test func resetStateEqualsFreshState() throws {
        let (model, golden) = try Self.load("lstm-2")
        let state = model.makeState()
        for step in golden.steps.prefix(3) {
            _ = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string(step.input)]), using: state)
        }
        state.reset()
        let afterReset = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string("the")]), using: state)
        let fresh = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string("the")]))
        #expect(afterReset.featureValue(for: "stateOut") == fresh.featureValue(for: "stateOut"))
        #expect(afterReset.featureValue(for: "nextWordProbabilities") == fresh.featureValue(for: "nextWordProbabilities"))
        #expect(Self.maxDifference(state.tensor.scalars, golden.steps[0].state) < 1e-5)  // golden step 0 is "the"
    }

    @Test func wrongStateShapeIsAClearError() throws {
        let (model, _) = try Self.load("lstm-2")
        let input = DictionaryFeatureProvider(["previousWord": .string("the"), "stateIn": .floatTensor(Tensor(shape: [2, 8]))])
        #expect(throws: ModelError.self) { try model.prediction(from: input) }
        do {
            _ = try model.prediction(from: input)
        } catch {
            #expect("\(error)".contains("stateIn"))
            #expect("\(error)".contains("[2, 2, 8]"))
        }
        var state = Tensor<Float>(shape: [1, 2, 8])
        #expect(throws: LanguageModelError.invalidState(expected: [2, 2, 8], actual: [1, 2, 8])) {
            try model.nextTokenProbabilities(after: 0, state: &state)
        }
    }

    @Test func seededGenerationIsReproducible() throws {
        let (model, _) = try Self.load("gru-2")
        let options = GenerationOptions(maxTokens: 12, temperature: 1.0, topK: 8, topP: 0.95, seed: 42)
        var streamed: [String] = []
        let first = try model.generate(prompt: "the cat", options: options) { _, token in streamed.append(token) }
        let second = try model.generate(prompt: "the cat", options: options)
        #expect(first == second)
        #expect(streamed == first.tokens)
        #expect(first.promptTokens == ["the", "cat"])
        #expect(!first.tokens.contains("<unk>"))
        var seeds = Set<[String]>()
        for seed in 0..<5 { seeds.insert(try model.generate(prompt: "the", options: .init(maxTokens: 12, seed: UInt64(seed))).tokens) }
        #expect(seeds.count > 1, "different seeds should give different samples")
    }

    @Test func greedyGenerationFollowsTheArgmax() throws {
        let (model, _) = try Self.load("lstm-1")
        let result = try model.generate(prompt: "the", options: .init(maxTokens: 6, temperature: 0))
        var state = model.zeroState()
        var probabilities: [Float] = []
        for id in [model.vocabulary.endID, model.tokenID(for: "the")] {
            probabilities = try model.nextTokenProbabilities(after: id, state: &state)
        }
        var expected: [String] = []
        while expected.count < 6 {
            var candidates = probabilities
            candidates[Int(model.vocabulary.unknownID)] = -1
            let best = candidates.indices.max { candidates[$0] < candidates[$1] } ?? 0
            if best == Int(model.vocabulary.endID) { break }
            expected.append(model.vocabulary.tokens[best])
            probabilities = try model.nextTokenProbabilities(after: Int32(best), state: &state)
        }
        #expect(result.tokens == expected)
    }

    @Test func temperatureTooSmallToInvertIsGreedy() throws {
        // 1 / 1e-40 overflows Float: the best token's weight was 0 × infinity = NaN, and any token could come out.
        let (model, _) = try Self.load("lstm-1")
        let greedy = try model.generate(prompt: "the", options: .init(maxTokens: 6, temperature: 0))
        for temperature: Float in [Float(bitPattern: 0x0001_16C2) /* ≈ 1e-40, subnormal */, .leastNonzeroMagnitude] {
            #expect(try model.generate(prompt: "the", options: .init(maxTokens: 6, temperature: temperature)).tokens == greedy.tokens)
        }
    }

    @Test func maxTokensBeyondTheLimitIsRefusedBeforeGenerating() throws {
        let (model, _) = try Self.load("lstm-1")
        #expect(throws: LanguageModelError.invalidOption("maxTokens", "must be between 0 and 1000000, got 1000000000000")) {
            try model.generate(prompt: "the", options: .init(maxTokens: 1_000_000_000_000))
        }
    }

    @Test func promptOfOnlyUnknownWordsIsAnError() throws {
        let (model, _) = try Self.load("lstm-1")
        #expect(throws: LanguageModelError.unknownPrompt("zebra quokka")) {
            try model.generate(prompt: "zebra quokka")
        }
        #expect(throws: LanguageModelError.self) { try model.generate(options: .init(temperature: -1)) }
    }

    @Test func weightsNotMatchingTheConfigurationNameTheTensor() throws {
        let directory = try TestScratch.folder("nlukit-lm")
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("bad.nlumodel")
        try FileManager.default.copyItem(at: Self.fixtures.appendingPathComponent("lstm-2.nlumodel"), to: package)
        let manifestURL = package.appendingPathComponent("manifest.json")
        let manifest = try String(contentsOf: manifestURL, encoding: .utf8)
        try manifest.replacingOccurrences(of: "\"layers\": 2", with: "\"layers\": 3").write(to: manifestURL, atomically: true, encoding: .utf8)
        #expect { try LanguageModel(contentsOf: package) } throws: { "\($0)".contains("rnn.weight_ih_l2") }
        try manifest.replacingOccurrences(of: "\"layers\": 2", with: "\"layers\": 1").write(to: manifestURL, atomically: true, encoding: .utf8)
        #expect { try LanguageModel(contentsOf: package) } throws: { "\($0)".contains("unexpected tensor 'rnn.bias_hh_l1'") }
        try manifest.replacingOccurrences(of: "\"hiddenSize\": 8", with: "\"hiddenSize\": 9").write(to: manifestURL, atomically: true, encoding: .utf8)
        #expect { try LanguageModel(contentsOf: package) } throws: { "\($0)".contains("rnn.weight_ih_l0") && "\($0)".contains("[36, 6]") }
    }

    /// The README's Swift example, run on a fixture model: the seed's loop (prime with the prompt, then
    /// feed nextWord and stateOut back until the end token) and the in-place state shape agree.
    @Test func readmeLoopMatchesTheStateObject() throws {
        let (model, _) = try Self.load("lstm-2")
        var state: FeatureValue? = nil
        var nextWord = ""
        for word in ["the", "cat"] {
            var input = DictionaryFeatureProvider(["previousWord": .string(word)])
            input["stateIn"] = state
            let output = try model.prediction(from: input)
            state = output.featureValue(for: "stateOut")
            nextWord = output.featureValue(for: "nextWord")?.stringValue ?? ""
        }
        var generated: [String] = []
        while nextWord != model.configuration.endToken && generated.count < 10 {
            generated.append(nextWord)
            var input = DictionaryFeatureProvider(["previousWord": .string(nextWord)])
            input["stateIn"] = state
            let output = try model.prediction(from: input)
            state = output.featureValue(for: "stateOut")
            nextWord = output.featureValue(for: "nextWord")?.stringValue ?? model.configuration.endToken
        }
        let memory = model.makeState()
        var replayed: [String] = []
        for (index, word) in (["the", "cat"] + generated).enumerated() {
            let output = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string(word)]), using: memory)
            if index >= 1 { replayed.append(output.featureValue(for: "nextWord")?.stringValue ?? "") }
        }
        #expect(Array(replayed.prefix(generated.count)) == generated)
        #expect(memory.tensor == state?.floatTensorValue)
        #expect(!generated.isEmpty || nextWord == model.configuration.endToken)
    }

    @Test func savedPackageRoundTrips() throws {
        let (model, golden) = try Self.load("gru-1")
        let url = TestScratch.file("nlukit-lm", extension: "nlumodel")
        defer { try? FileManager.default.removeItem(at: url) }
        try model.save(to: url)
        let loaded = try LanguageModel(contentsOf: url)
        #expect(loaded.configuration == model.configuration)
        var state = loaded.zeroState()
        let probabilities = try loaded.nextTokenProbabilities(after: loaded.tokenID(for: golden.steps[0].input), state: &state)
        #expect(Self.maxDifference(probabilities, golden.steps[0].probabilities) < 1e-5)
    }
}
