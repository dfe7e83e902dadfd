import Foundation
import Testing
@testable import NLUCore

/// Hugging Face Trainer's optimizer semantics: the weight-decay groups of `get_decay_parameter_names`,
/// AdamW, `get_linear_schedule_with_warmup`, `clip_grad_norm_` and gradient accumulation, step by step
/// against torch on the same gradients (Tests/Fixtures/training/trainer-adamw.json, written by
/// scripts/fixtures/training_heads.py), one case with a head group of its own learning rate. Tolerance:
/// 1e-5 relative plus 1e-6 absolute.
@Suite struct TrainerOptimizerReferenceTests {
    typealias StoredTensor = TrainingReferenceTests.StoredTensor

    struct DecayRule: Decodable {
        var name: String
        var insideLayerNorm: Bool
        var decays: Bool
    }

    struct RunCase: Decodable {
        struct Step: Decodable { var learningRate: Double; var gradientNorm: Float; var parameters: [StoredTensor] }
        var name: String
        var lr: Float
        /// The `classifier.*` parameters' own rate, when the case gives them one.
        var headLr: Float?
        var weightDecay: Float
        var warmupRatio: Double
        var maxGradNorm: Float
        var accumulationSteps: Int
        var batchesPerEpoch: Int
        var epochs: Int
        var warmupSteps: Int
        var totalSteps: Int
        var parameterNames: [String]
        var initial: [StoredTensor]
        var microBatchGradients: [[StoredTensor]]
        var steps: [Step]
    }

    struct Fixture: Decodable {
        var decayRule: [DecayRule]
        var cases: [RunCase]
    }

    static func fixture() throws -> Fixture { try TrainingReferenceTests.load("trainer-adamw", as: Fixture.self) }

    @Test func decayGroupsMatchGetDecayParameterNames() throws {
        for rule in try Self.fixture().decayRule {
            #expect(AdamOptimizer.trainerDecays(parameterNamed: rule.name, insideLayerNorm: rule.insideLayerNorm) == rule.decays,
                    "\(rule.name)")
        }
        #expect(AdamOptimizer.trainerDecays(parameterNamed: "bert.encoder.layer.11.output.LayerNorm.gamma") == false)
        #expect(AdamOptimizer.trainerDecays(parameterNamed: "bert.encoder.layer.11.output.dense.weight"))
    }

    @Test func trainerStepsMatchTorchAdamWWithWarmupClippingAndAccumulation() throws {
        let fixture = try Self.fixture()
        let layerNormParameters = Set(fixture.decayRule.filter(\.insideLayerNorm).map(\.name))
        #expect(fixture.cases.count == 3)
        #expect(fixture.cases.contains { $0.headLr != nil })
        for reference in fixture.cases {
            let scales = reference.headLr.map { headRate in
                reference.parameterNames.map { $0.hasPrefix("classifier.") ? headRate / reference.lr : 1 }
            }
            let adamW = try AdamOptimizer.trainerAdamW(parameterNames: reference.parameterNames, layerNormParameters: layerNormParameters,
                                                       learningRate: reference.lr, weightDecay: reference.weightDecay,
                                                       learningRateScales: scales)
            let schedule = try LinearWarmupSchedule(trainingSteps: reference.totalSteps, warmupRatio: reference.warmupRatio)
            #expect(schedule.warmupSteps == reference.warmupSteps, "\(reference.name): warm-up steps")
            var accumulator = try GradientAccumulator(accumulationSteps: reference.accumulationSteps,
                                                      batchesPerEpoch: reference.batchesPerEpoch)
            #expect(accumulator.optimizerStepsPerEpoch * reference.epochs == reference.totalSteps)
            var parameters = reference.initial.map(\.tensor)
            var step = 0
            for gradients in reference.microBatchGradients {
                guard var summed = accumulator.add(gradients.map(\.tensor)) else { continue }
                let expected = reference.steps[step]
                let name = "\(reference.name) step \(step + 1)"
                adamW.learningRate = schedule.learningRate(base: reference.lr, step: step)
                #expect(firstMismatch([adamW.learningRate], [Float(expected.learningRate)], relative: 1e-6, absolute: 0) == nil,
                        "\(name): learning rate")
                let norm = GradientClipping.clipByGlobalNorm(&summed, maxNorm: reference.maxGradNorm)
                #expect(firstMismatch([norm], [expected.gradientNorm]) == nil, "\(name): gradient norm")
                adamW.step(&parameters, gradients: summed)
                for (index, (parameter, stored)) in zip(parameters, expected.parameters).enumerated() {
                    #expect(firstMismatch(parameter.scalars, stored.values) == nil, "\(name): \(reference.parameterNames[index])")
                }
                step += 1
            }
            #expect(step == reference.steps.count, "\(reference.name): optimizer steps")
        }
    }

    @Test func scheduleRisesThenFallsLinearly() throws {
        let schedule = try LinearWarmupSchedule(trainingSteps: 10, warmupSteps: 2)
        #expect((0...11).map { schedule.multiplier(step: $0) } == [0, 0.5, 1, 0.875, 0.75, 0.625, 0.5, 0.375, 0.25, 0.125, 0, 0])
        #expect(try LinearWarmupSchedule(trainingSteps: 25, warmupRatio: 0.1).warmupSteps == 3)   // ⌈2.5⌉
        #expect(try LinearWarmupSchedule(trainingSteps: 25, warmupSteps: 4, warmupRatio: 0.5).warmupSteps == 4)
    }

    @Test func accumulationGroupsEndEachEpochWithWhatIsLeft() throws {
        var accumulator = try GradientAccumulator(accumulationSteps: 3, batchesPerEpoch: 7)
        var sizes: [Int] = [], completed: [[Float]] = []
        for batch in 0..<14 {
            sizes.append(accumulator.groupSize)
            if let summed = accumulator.add([Tensor([Float(batch)])]) { completed.append(summed[0].scalars) }
        }
        #expect(sizes == [3, 3, 3, 3, 3, 3, 1, 3, 3, 3, 3, 3, 3, 1])
        // Each group's mean: (0+1+2)/3, (3+4+5)/3, 6/1, then the next epoch.
        #expect(maxAbsoluteDifference(completed.map { $0[0] }, [1, 4, 6, 8, 11, 13]) <= 1e-6)
    }

    @Test func settingsOutOfRangeAreNamed() {
        #expect(throws: TrainingSettingError(setting: "warmupRatio", value: "1.5", requirement: "between 0 and 1")) {
            try LinearWarmupSchedule(trainingSteps: 10, warmupRatio: 1.5)
        }
        #expect(throws: TrainingSettingError(setting: "accumulationSteps", value: "0", requirement: "≥ 1")) {
            try GradientAccumulator(accumulationSteps: 0, batchesPerEpoch: 3)
        }
        #expect(throws: TrainingSettingError(setting: "learningRate", value: "-0.1", requirement: "a finite number ≥ 0")) {
            try AdamOptimizer.trainerAdamW(parameterNames: ["w"], learningRate: -0.1)
        }
        #expect(throws: TrainingSettingError(setting: "learningRateScales", value: "1 scales", requirement: "one per parameter (2)")) {
            try AdamOptimizer.trainerAdamW(parameterNames: ["w", "b"], learningRateScales: [2])
        }
        for bad: Float in [0, -1, .nan, .infinity] {
            #expect(throws: TrainingSettingError(setting: "learningRateScales", value: "\(bad)", requirement: "a finite number above 0")) {
                try AdamOptimizer.trainerAdamW(parameterNames: ["w", "b"], learningRateScales: [1, bad])
            }
        }
    }
}
