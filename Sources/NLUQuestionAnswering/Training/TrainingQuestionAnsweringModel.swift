import NLUTransformers

/// The model under fine-tuning as ``QuestionAnswerer`` reads a model, so that held-out questions are
/// answered between epochs exactly as `nlu qa ask` answers them from the saved checkpoint (same windows,
/// same span decoding).
///
/// Unchecked `Sendable`: the trainer is a mutable class, and this view of it lives only inside the
/// training call, on its thread.
struct TrainingQuestionAnsweringModel: QuestionAnsweringModel, @unchecked Sendable {
    let trainer: QuestionAnsweringTrainer

    var maxPositions: Int { trainer.encoder.configuration.maxPositionEmbeddings }

    var summary: String {
        let configuration = trainer.encoder.configuration
        return "\(configuration.architecture) under fine-tuning, \(configuration.layerCount) layers, hidden \(configuration.hiddenSize)"
    }

    func logits(_ batch: EncoderBatch) throws -> (start: [Float], end: [Float]) {
        try trainer.logits(batch)
    }
}
