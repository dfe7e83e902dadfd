import Foundation
import NLUCore
@testable import NLUIntents
import NLUTransformers
import Testing

@Suite struct IntentFineTunerTests {
    static let checkpoint = IntentFineTuneReference.fixtures.appendingPathComponent("embeddings/minilm-tiny")

    /// Six intents of the car dashboard sample, eight utterances each.
    static func dashboardSubset() throws -> IntentDataset {
        var dataset = try IntentImporter.importDataset(from: fixture("../../../Samples/intents/car-dashboard.json")).dataset
        dataset.intents = dataset.intents.filter { $0.utterances.count >= 8 }.prefix(6).map { intent in
            var intent = intent
            intent.utterances = Array(intent.utterances.prefix(8))
            return intent
        }
        return dataset
    }

    static func options() -> IntentFineTuningOptions {
        var options = IntentFineTuningOptions()
        options.epochs = 10
        options.batchSize = 8
        options.learningRate = 5e-3   // a 2-layer, 32-wide encoder with a 303-token vocabulary learns slowly at 5e-5
        options.seed = 7
        return options
    }

    /// The mean loss of the first epoch's steps against the last's.
    @Test func fewEpochsLowerTheTrainingLossAndRepeatForASeed() throws {
        let dataset = try Self.dashboardSubset()
        #expect(dataset.intents.count == 6)
        let tuner = try IntentFineTuner(checkpoint: Self.checkpoint, options: Self.options())
        var reports: [IntentFineTuningProgress] = []
        let first = try tuner.train(dataset) { reports.append($0) }
        let stepsPerEpoch = 6   // 48 utterances in batches of 8
        #expect(first.steps.count == 10 * stepsPerEpoch && reports.count == first.steps.count)
        #expect(reports.last?.totalSteps == first.steps.count && reports.last?.epoch == 10)
        let mean = { (steps: ArraySlice<FineTuningStep>) in steps.map(\.loss).reduce(0, +) / Float(steps.count) }
        let firstEpoch = mean(first.steps.prefix(stepsPerEpoch)), lastEpoch = mean(first.steps.suffix(stepsPerEpoch))
        #expect(lastEpoch < 0.8 * firstEpoch, "first epoch \(firstEpoch), last \(lastEpoch)")
        print("mean step loss: first epoch \(firstEpoch), last epoch \(lastEpoch)")

        let second = try tuner.train(dataset)
        #expect(second.steps == first.steps)
        #expect(second.trainer.head.linear.tensors[0] == first.trainer.head.linear.tensors[0])
    }

    /// Each option set out of its range, with the name the error must give.
    static let badOptions: [(String, IntentFineTuningOptions)] = {
        func changed(_ change: (inout IntentFineTuningOptions) -> Void) -> IntentFineTuningOptions {
            var options = IntentFineTuningOptions()
            change(&options)
            return options
        }
        return [
            ("learningRate", changed { $0.learningRate = 0 }), ("learningRate", changed { $0.learningRate = .nan }),
            ("learningRate", changed { $0.learningRate = 1e30 }), ("batchSize", changed { $0.batchSize = 0 }),
            ("epochs", changed { $0.epochs = 0 }), ("warmupRatio", changed { $0.warmupRatio = 1.5 }),
            ("accumulationSteps", changed { $0.accumulationSteps = 0 }), ("dropout", changed { $0.dropout = 1 }),
            ("maxSequenceLength", changed { $0.maxSequenceLength = 2 }),
            ("headLearningRate", changed { $0.headLearningRate = 0 }), ("headLearningRate", changed { $0.headLearningRate = .infinity }),
            ("headLearningRate", changed { $0.headLearningRate = 2 }),
            ("labelSmoothing", changed { $0.labelSmoothing = 1 }), ("labelSmoothing", changed { $0.labelSmoothing = -0.1 }),
            ("labelSmoothing", changed { $0.labelSmoothing = .nan }),
            ("maxSequenceLength", changed { $0.maxSequenceLength = 65 }),   // minilm-tiny has 64 positions
        ]
    }()

    @Test(arguments: badOptions)
    func optionOutOfRangeIsRefusedByName(setting: String, options: IntentFineTuningOptions) throws {
        let error = try #require(throws: TrainingSettingError.self) { try IntentFineTuner(checkpoint: Self.checkpoint, options: options) }
        #expect(error.setting == setting)
    }

    @Test func datasetWithOneIntentOrAnEmptyIntentIsRefused() throws {
        let tuner = try IntentFineTuner(checkpoint: Self.checkpoint)
        let one = IntentDataset(intents: [Intent(name: "greet", utterances: ["hello", "hi"])])
        let oneError = try #require(throws: TrainingSettingError.self) { try tuner.train(one) }
        #expect(oneError.setting == "dataset" && oneError.value == "1 intent")
        let empty = IntentDataset(intents: [Intent(name: "greet", utterances: ["hello"]), Intent(name: "bye")])
        let emptyError = try #require(throws: TrainingSettingError.self) { try tuner.train(empty) }
        #expect(emptyError.value.contains("'bye'"))
    }
}
