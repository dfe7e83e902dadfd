import Foundation
import NLUCore
import NLUEmbeddings
@testable import NLUIntents
import Testing

/// Few-shot training in SetFit's way against its references (scripts/fixtures/setfit_finetune.py):
/// stage 1 against sentence-transformers' `CosineSimilarityLoss` run from setfit's own pairs, stage 2
/// against scikit-learn's `LogisticRegression`; then the whole mode on a small dataset, its default
/// rule and its bad input.
@Suite struct SetFitIntentTrainerTests {
    struct Reference: Decodable {
        struct Encoder: Decodable {
            var sentences: [String]
            var labels: [Int]
            var batchSize: Int
            var epochs: Int
            var learningRate: Float
            var weightDecay: Float
            var warmupRatio: Double
            var pairs: [[Reference.Item]]
            var losses: [Float]
            var embeddings: [[Float]]
        }
        struct Head: Decodable {
            var features: [[Float]]
            var labels: [Int]
            var classes: Int
            var coefficients: [[Double]]
            var intercepts: [Double]
            var probabilities: [[Double]]
        }
        /// A pair's text or score, as the fixture lists them.
        enum Item: Decodable, Equatable {
            case text(String), score(Float)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) { self = .text(text) } else { self = .score(try container.decode(Float.self)) }
            }
        }
        var model: String
        var encoder: Encoder
        var heads: [Head]
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures")

    static func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: fixtures.appendingPathComponent("training/setfit-finetune.json")))
    }

    /// 20 steps from setfit's pairs, in order, in batches of 4: each step's loss within 1e-5 relative
    /// (or 1e-6 absolute) of PyTorch's, and the sentences' embeddings after them within 1e-5.
    @Test func encoderStageMatchesSentenceTransformersCosineLoss() throws {
        let reference = try Self.reference().encoder
        var options = SetFitOptions()
        options.iterations = 1
        options.epochs = reference.epochs
        options.batchSize = reference.batchSize
        options.learningRate = reference.learningRate
        options.weightDecay = reference.weightDecay
        options.warmupRatio = reference.warmupRatio
        options.dropout = 0
        let trainer = try SetFitIntentTrainer(checkpoint: Self.fixtures.appendingPathComponent(try Self.reference().model), options: options)
        let pairs = try SetFitPairs.make(sentences: reference.sentences, labels: reference.labels, iterations: 1)
        #expect(pairs.map { [Reference.Item.text($0.first), .text($0.second), .score($0.score)] } == reference.pairs)
        let (stage, outcome) = try trainer.trainEncoder(
            sentences: reference.sentences, labels: reference.labels,
            batches: { _, count in stride(from: 0, to: count, by: reference.batchSize).map { Array($0..<min($0 + reference.batchSize, count)) } },
            progress: { _ in })
        #expect(outcome.steps.count == reference.losses.count)
        for (step, expected) in zip(outcome.steps, reference.losses) {
            #expect(abs(step.loss - expected) <= max(1e-6, 1e-5 * abs(expected)), "step \(step.step): \(step.loss) vs \(expected)")
        }
        let embeddings = try stage.embeddings(reference.sentences.map(trainer.tokenIDs))
        let worst = zip(embeddings.scalars, reference.embeddings.flatMap { $0 }).map { abs($0 - $1) }.max() ?? .infinity
        #expect(worst <= 1e-5, "largest embedding difference \(worst)")
    }

    /// Multinomial (3 classes) and binary: probabilities within 1e-4 of scikit-learn's at its minimum.
    @Test func headMatchesScikitLearnLogisticRegression() throws {
        for head in try Self.reference().heads {
            let fitted = LogisticRegressionHead.fit(features: head.features, labels: head.labels, classes: head.classes)
            let network = try IntentNetwork(inputWeight: nil, inputBias: nil, hiddenWeights: [], hiddenBiases: [],
                                            outputWeight: fitted.weight, outputBias: fitted.bias)
            var worst = 0.0
            for (row, expected) in zip(head.features, head.probabilities) {
                let ours = network.probabilities(forDense: row)
                worst = max(worst, zip(ours, expected).map { abs(Double($0) - $1) }.max() ?? .infinity)
            }
            #expect(worst <= 1e-4, "\(head.classes) classes: largest probability difference \(worst)")
            print("logistic regression, \(head.classes) classes: \(fitted.iterations) iterations, largest probability difference \(worst)")
        }
    }

    /// Six intents of eight utterances and six of the sample's counterexamples: the model trained in
    /// SetFit's way answers at least three quarters of its training utterances.
    @Test func fewShotModelLearnsTheTrainingSet() throws {
        var dataset = try IntentFineTunerTests.dashboardSubset()
        dataset.counterexamples = Array(dataset.counterexamples.prefix(6))
        #expect(SetFitOptions.suits(dataset))
        // The 2-layer, 32-wide encoder with a 303-token vocabulary needs more than SetFit's defaults:
        // untrained (learning rate 1e-9) its head gets 18 of the 48 right, with these 43 (measured).
        var options = SetFitOptions()
        options.iterations = 8
        options.epochs = 3
        options.learningRate = 5e-3
        options.seed = 7
        var stages: Set<String> = []
        let classifier = try IntentClassifier.fewShotFineTune(on: dataset, checkpoint: IntentFineTunerTests.checkpoint, options: options,
                                                              entities: nil, progress: { stages.insert($0.stage.rawValue) })
        #expect(stages == ["contrastive", "head-selection", "head"])
        // The package records the C cross-validation chose, one of the grid's.
        let chosen = try #require(classifier.fewShot?.headRegularization)
        #expect(LogisticRegressionHead.regularizationGrid.contains(chosen))
        var recorded = options
        recorded.headRegularization = chosen
        #expect(classifier.hasNoneClass && classifier.fewShot == recorded && classifier.sentenceFeaturizer?.reference.normalized == true)
        let texts = dataset.intents.flatMap { intent in intent.utterances.map { (intent.name, $0.text) } }
        let right = texts.filter { classifier.predict($0.1).intent == $0.0 }.count
        #expect(Double(right) >= 0.75 * Double(texts.count), "\(right) of \(texts.count) training utterances right")
        print("few-shot model: \(right) of \(texts.count) training utterances right")
    }

    /// Validation after each contrastive epoch: a head fitted on the encoder as it stands scores the held-out
    /// utterances without changing the run (the same steps and head as without it); with keepBest the run
    /// ends on the best epoch's encoder, and the model it gives answers the held-out set exactly as that
    /// epoch's score says.
    @Test func validationScoresEachEpochAndKeepBestKeepsTheBestEncoder() throws {
        let dataset = try IntentFineTunerTests.dashboardSubset()
        var heldOut = dataset, training = dataset
        for index in dataset.intents.indices {
            heldOut.intents[index].utterances = Array(dataset.intents[index].utterances.suffix(3))
            training.intents[index].utterances = Array(dataset.intents[index].utterances.dropLast(3))
        }
        heldOut.counterexamples = []
        training.counterexamples = []
        var options = SetFitOptions()
        options.iterations = 4
        options.epochs = 4
        options.learningRate = 5e-3
        options.seed = 11
        let plain = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options).train(training)
        #expect(plain.validations.isEmpty && plain.keptEpoch == 4)
        var heard: [FineTuningValidation] = []
        let scored = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options)
            .train(training, validation: heldOut, validated: { heard.append($0) })
        #expect(scored.validations == heard && heard.map(\.epoch) == [1, 2, 3, 4] && heard.allSatisfy { $0.isBest == nil })
        #expect(heard.allSatisfy { $0.utterances == 18 && $0.loss != nil && $0.unknownIntentUtterances == 0 })
        #expect(scored.encoderSteps == plain.encoderSteps && scored.keptEpoch == 4)
        #expect(scored.head.weight.scalars == plain.head.weight.scalars && scored.headBias.scalars == plain.headBias.scalars)
        print("few-shot validation by epoch: \(heard.map { String(format: "%.3f / %.4f", $0.intentAccuracy, $0.loss ?? .nan) })")

        // Kept by the loss (it moves from epoch to epoch where 18 utterances' accuracy may not).
        options.keepBest = .loss
        heard = []
        let kept = try IntentClassifier.fewShotFineTune(on: training, checkpoint: IntentFineTunerTests.checkpoint, options: options, entities: nil,
                                                        validation: heldOut, validated: { heard.append($0) })
        let losses = heard.map { $0.loss ?? .infinity }
        let best = try #require(losses.indices.min { losses[$0] < losses[$1] })
        #expect(heard.map(\.isBest) == heard.indices.map { index in losses[index] < (losses[..<index].min() ?? .infinity) })
        let texts = heldOut.intents.flatMap { intent in intent.utterances.map { (intent.name, $0.text) } }
        let right = texts.filter { kept.predict($0.1).intent == $0.0 }.count
        #expect(Double(right) / Double(texts.count) == heard[best].intentAccuracy,
                "kept epoch \(best + 1): \(right) of \(texts.count) right, its validation \(heard[best].intentAccuracy)")

        options.keepBest = .accuracy
        let trainer = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        let unscored = try #require(throws: TrainingSettingError.self) { try trainer.train(training) }
        #expect(unscored.setting == "keepBest")
        options.keepBest = .slotF1
        let slots = try #require(throws: TrainingSettingError.self) { try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options) }
        #expect(slots.setting == "keepBest")
        options.keepBest = nil
        options.earlyStoppingPatience = 2
        let patience = try #require(throws: TrainingSettingError.self) { try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options) }
        #expect(patience.setting == "earlyStoppingPatience")
    }

    @Test func theDefaultRuleIsTheMedianIntentSizeAndTheTotal() {
        func dataset(_ sizes: [Int]) -> IntentDataset {
            IntentDataset(intents: sizes.enumerated().map { index, size in
                Intent(name: "i\(index)", utterances: (0..<size).map { Utterance(stringLiteral: "u\(index) \($0)") })
            })
        }
        #expect(SetFitOptions.suits(dataset([10, 10, 200])))     // median 10
        #expect(SetFitOptions.suits(dataset([16, 17])) == false)   // median 16.5
        #expect(SetFitOptions.suits(dataset([5, 16, 40, 90])) == false)   // median 28
        #expect(SetFitOptions.suits(dataset([2, 16, 16, 90])))  // median 16
        #expect(SetFitOptions.suits(dataset([])) == false)
        // Few per intent but many utterances in all: the softmax head gets enough steps.
        #expect(SetFitOptions.suits(dataset(Array(repeating: 10, count: 40))))    // 400
        #expect(SetFitOptions.suits(dataset(Array(repeating: 10, count: 41))) == false)   // 410
        #expect(SetFitOptions.suits(dataset(Array(repeating: 10, count: 64))) == false)   // HWU64, 10 per intent
        #expect(SetFitOptions.suits(dataset([10, 10, 390])) == false)   // median 10, 410 in all
    }

    /// 20 pairs of each kind per utterance while that makes at most 6,400 pairs, then fewer, not below 5.
    @Test func defaultIterationsKeepThePairsWithinTheBudget() {
        #expect(SetFitOptions.defaultIterations(utterances: 70) == 40)      // Snips, 10 per intent: 5,600 pairs
        #expect(SetFitOptions.defaultIterations(utterances: 80) == 40)      // 6,400 exactly
        #expect(SetFitOptions.defaultIterations(utterances: 88) == 37)      // the car-dashboard sample at 8 per intent
        #expect(SetFitOptions.defaultIterations(utterances: 160) == 20)     // 6,400 exactly
        #expect(SetFitOptions.defaultIterations(utterances: 161) == 20)     // ceil(6400 / 322) = 20
        #expect(SetFitOptions.defaultIterations(utterances: 170) == 19)
        #expect(SetFitOptions.defaultIterations(utterances: 320) == 10)
        #expect(SetFitOptions.defaultIterations(utterances: 640) == 5)      // HWU64, 10 per intent
        #expect(SetFitOptions.defaultIterations(utterances: 4_096) == 5)
        #expect(SetFitOptions.defaultIterations(utterances: 0) == 40)
    }

    /// One intent has no negative pair: refused by name. An intent of one utterance is trained (its only
    /// positive pair is the utterance with itself, as in setfit; it learns from its negative pairs).
    @Test func oneIntentIsRefusedAndAOneUtteranceIntentIsTrained() throws {
        var options = SetFitOptions()
        options.iterations = 2
        options.learningRate = 5e-3
        let trainer = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: options)
        let one = IntentDataset(intents: [Intent(name: "greet", utterances: ["hello", "hi"])])
        let error = try #require(throws: TrainingSettingError.self) { try trainer.train(one) }
        #expect(error.setting == "dataset" && error.value == "1 intent")
        let single = IntentDataset(intents: [Intent(name: "greet", utterances: ["hello", "hi", "good morning"]),
                                             Intent(name: "bye", utterances: ["see you later"])])
        let result = try trainer.train(single)
        #expect(result.intents == ["greet", "bye"] && result.head.outputSize == 2)
        let bad = SetFitOptions.with { $0.iterations = 0 }
        #expect(throws: TrainingSettingError.self) { _ = try SetFitIntentTrainer(checkpoint: IntentFineTunerTests.checkpoint, options: bad) }
    }
}

extension SetFitOptions {
    static func with(_ change: (inout SetFitOptions) -> Void) -> SetFitOptions {
        var options = SetFitOptions()
        change(&options)
        return options
    }
}
