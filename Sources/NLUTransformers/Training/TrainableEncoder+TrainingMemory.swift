import NLUCore
import NLUInputOutput

/// The memory a fine-tuning run needs at its peak, computed before the first step so that a run that
/// would not fit is refused with the figure and what to lower, not killed by the system halfway.
extension TrainableEncoder {
    /// The bytes a run needs at its peak: every parameter of the encoder and of its head four times
    /// (value, gradient, AdamW's two moments; five with `keepingBestWeights`, the best epoch's copy
    /// ``BestEpochKeeper`` holds) and the activations of `sequencesPerBatch` sequences of `longest` tokens;
    /// nil when the figure overflows.
    public func trainingMemoryNeeded(sequencesPerBatch: Int, longest: Int, headParameters: Int, keepingBestWeights: Bool = false) -> Int? {
        let parameters = self.parameters.values.reduce(0) { $0 + $1.count }.addingReportingOverflow(max(headParameters, 0))
        guard !parameters.overflow,
              let activations = EncoderTrainingWorkspace.scalarCount(configuration: configuration, batchSize: sequencesPerBatch,
                                                                     sequenceLength: longest),
              let weights = InputLimits.product([parameters.partialValue, keepingBestWeights ? 5 : 4]) else { return nil }
        let (total, overflow) = weights.addingReportingOverflow(activations)
        return overflow ? nil : InputLimits.product([total, 4])
    }

    /// Refuses a run that would not fit in half of this machine's memory (``InputLimits/checkMemory(elements:bytesPerElement:what:)``).
    /// - Parameter batchSize: the batch size option as the user gave it, for the message.
    /// - Throws: ``TrainingSettingError`` naming the batch size, the figure, and what to lower.
    public func checkTrainingMemory(batchSize: Int, sequencesPerBatch: Int, longest: Int, headParameters: Int,
                                    keepingBestWeights: Bool = false) throws {
        let bytes = trainingMemoryNeeded(sequencesPerBatch: sequencesPerBatch, longest: longest, headParameters: headParameters,
                                         keepingBestWeights: keepingBestWeights)
        do {
            try InputLimits.checkMemory(elements: bytes.map { $0 / 4 }, what: "fine-tuning memory")
        } catch let error as OutOfRangeError {
            throw TrainingSettingError(
                setting: "batchSize",
                value: "\(batchSize) (with texts of up to \(longest) tokens: \(error.value) for weights, gradients, optimizer state and activations)",
                requirement: "\(error.expected): lower the batch size (use gradient accumulation to keep the effective batch) or the maximum sequence length")
        }
    }
}
