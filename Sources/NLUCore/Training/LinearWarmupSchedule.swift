/// The learning-rate schedule of Hugging Face `Trainer`'s default (`lr_scheduler_type="linear"`,
/// transformers' `get_linear_schedule_with_warmup`): the rate rises linearly from 0 over the warm-up
/// steps, then falls linearly to 0 at the last training step. Optimizer step `s` (0 for the first)
/// uses `base × multiplier(s)`:
/// `s / max(1, warmup)` while `s < warmup`, else `max(0, (total - s) / max(1, total - warmup))`.
///
///     let schedule = try LinearWarmupSchedule(trainingSteps: 100, warmupRatio: 0.1)   // 10 warm-up steps
///     for step in 0..<100 {
///         adamW.learningRate = schedule.learningRate(base: 5e-5, step: step)
///         adamW.step(&parameters, gradients: gradients)
///     }
public struct LinearWarmupSchedule: Sendable, Equatable {
    /// Optimizer steps over which the rate rises from 0.
    public let warmupSteps: Int
    /// All optimizer steps of the training run (Trainer: epochs × ⌈batches per epoch / accumulation steps⌉).
    public let trainingSteps: Int

    /// A schedule over `trainingSteps` optimizer steps, warming up for `warmupSteps` when that is above 0,
    /// else for ⌈trainingSteps × warmupRatio⌉ steps (`TrainingArguments.get_warmup_steps`).
    /// - Throws: ``TrainingSettingError`` for negative step counts or a ratio outside 0...1.
    public init(trainingSteps: Int, warmupSteps: Int = 0, warmupRatio: Double = 0) throws {
        guard trainingSteps >= 0 else {
            throw TrainingSettingError(setting: "trainingSteps", value: "\(trainingSteps)", requirement: "≥ 0")
        }
        guard warmupSteps >= 0 else {
            throw TrainingSettingError(setting: "warmupSteps", value: "\(warmupSteps)", requirement: "≥ 0")
        }
        guard warmupRatio >= 0, warmupRatio <= 1 else {
            throw TrainingSettingError(setting: "warmupRatio", value: "\(warmupRatio)", requirement: "between 0 and 1")
        }
        self.trainingSteps = trainingSteps
        self.warmupSteps = warmupSteps > 0 ? warmupSteps : Int((Double(trainingSteps) * warmupRatio).rounded(.up))
    }

    /// Trainer's schedule over `epochs` epochs of `batchesPerEpoch` micro-batches, `accumulationSteps` of
    /// them to an optimizer step (the last, shorter group of an epoch is a step too).
    /// - Throws: as ``init(trainingSteps:warmupSteps:warmupRatio:)``, and for an accumulation under 1.
    public init(epochs: Int, batchesPerEpoch: Int, accumulationSteps: Int, warmupRatio: Double) throws {
        guard accumulationSteps >= 1 else {
            throw TrainingSettingError(setting: "accumulationSteps", value: "\(accumulationSteps)", requirement: "≥ 1")
        }
        let stepsPerEpoch = (batchesPerEpoch + accumulationSteps - 1) / accumulationSteps
        try self.init(trainingSteps: epochs * stepsPerEpoch, warmupRatio: warmupRatio)
    }

    /// The factor on the base learning rate for optimizer step `step` (0-based), in Double as PyTorch's
    /// `LambdaLR` computes it.
    public func multiplier(step: Int) -> Double {
        if step < warmupSteps { return Double(step) / Double(max(1, warmupSteps)) }
        return max(0, Double(trainingSteps - step) / Double(max(1, trainingSteps - warmupSteps)))
    }

    /// The learning rate for optimizer step `step` (0-based) from the `base` (peak) rate.
    ///
    ///     adamW.learningRate = schedule.learningRate(base: 5e-5, step: 0)   // 0 with warm-up
    public func learningRate(base: Float, step: Int) -> Float {
        Float(Double(base) * multiplier(step: step))
    }
}
