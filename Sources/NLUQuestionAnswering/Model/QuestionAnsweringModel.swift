import NLUTransformers

/// What ``QuestionAnswerer`` needs from a model: start and end logits for each token of a batch of windows.
///
/// ``BertQAModel`` (a Hugging Face checkpoint) is one; the `NLUKit` umbrella adapts a Core ML file with the
/// inputs of Apple's BERT-SQuAD sample (`CoreMLQuestionAnsweringModel`). Tokenization, windows and span decoding
/// stay in the answerer, so every model gets the same answers from the same logits.
public protocol QuestionAnsweringModel: Sendable {
    /// The longest window the model reads (its position embeddings, or a fixed input length).
    var maxPositions: Int { get }
    /// One line for listings: architecture and size.
    var summary: String { get }
    /// Start and end logits for every position of `batch`, row-major `[batch · sequence]`.
    func logits(_ batch: EncoderBatch) throws -> (start: [Float], end: [Float])
}

extension BertQAModel: QuestionAnsweringModel {
    public var maxPositions: Int { configuration.maxPositionEmbeddings }

    public var summary: String {
        "\(configuration.architecture), \(configuration.layerCount) layers, hidden \(configuration.hiddenSize)"
    }
}
