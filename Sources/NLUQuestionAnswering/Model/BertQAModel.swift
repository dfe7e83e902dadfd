import Foundation
import NLUCore
import NLUTransformers

/// An extractive question-answering model loaded from a Hugging Face checkpoint directory
/// (`BertForQuestionAnswering`, `DistilBertForQuestionAnswering`, or the same head on any other encoder
/// family): an encoder plus the `qa_outputs` head that scores each token as the start and the end of the answer.
///
/// It is a ``Model`` with the feature names of Apple's Core ML BERT sample: inputs `wordIDs` and
/// `wordTypes` (Int32 [batch, sequence]; `wordTypes` optional) and an optional `attentionMask`,
/// outputs `startLogits` and `endLogits` (Float [batch, sequence]).
///
///     let model = try BertQAModel(modelDirectory: URL(fileURLWithPath: "distilbert-base-cased-distilled-squad"))
///     let ids = Tensor<Int32>(shape: [1, 5], scalars: [101, 2040, 102, 3899, 102])
///     let out = try model.prediction(from: DictionaryFeatureProvider(["wordIDs": .int32Tensor(ids)]))
///     let start = out.featureValue(for: "startLogits")?.floatTensorValue
public struct BertQAModel: Model {
    /// The checkpoint's architecture hyper-parameters.
    public let configuration: BertConfiguration
    /// The arithmetic of the encoder's dense layers (the 2-output head stays F32).
    public let precision: Precision
    let encoder: any WorkspaceEncoder
    let head: LinearWeights
    /// Keeps the memory map alive for the embeddings and norms, used in place.
    let weightsFile: SafeTensors

    /// The head's tensors in a `*ForQuestionAnswering` checkpoint (`qa_outputs.weight` [2, hidden], `qa_outputs.bias`):
    /// at the file's root, outside the encoder's prefix (`bert.`, `distilbert.`, ...), which the encoder's family gives.
    static let headName = "qa_outputs"

    /// Loads `config.json` and `model.safetensors` (F32, F16 or BF16) from `modelDirectory`, the
    /// encoder's dense layers at `precision` (``Precision/int8``: quantized at load).
    /// - Throws: ``CheckpointError`` or ``BertConfigurationError`` naming the file, field or tensor at fault.
    public init(modelDirectory: URL, precision: Precision = .f32) throws {
        let checkpoint = try CheckpointDirectory(modelDirectory)
        let configuration = try checkpoint.configuration()
        try self.init(configuration: configuration, weights: checkpoint.weights(), precision: precision)
    }

    /// Builds the model from a configuration and an open safetensors file, checking that every
    /// tensor is present with the right shape and that none is left over.
    public init(configuration: BertConfiguration, weights: SafeTensors, precision: Precision = .f32) throws {
        self.configuration = configuration
        self.precision = precision
        weightsFile = weights
        let tensors = CheckpointTensors(file: weights, family: configuration.architecture.family)
        encoder = try makeEncoder(configuration: configuration, tensors: tensors, precision: precision)
        head = try LinearWeights(tensors.root, Self.headName, output: 2, input: configuration.hiddenSize)
        try tensors.verifyAllUsed()
        tensors.releaseResidentPages()
    }

    /// Reads `config.json` in `directory`.
    public static func loadConfiguration(in directory: URL) throws -> BertConfiguration {
        try CheckpointDirectory(directory).configuration()
    }

    /// The encoder (for callers that want hidden states).
    public var transformer: any TransformerEncoder { encoder }

    /// Inputs `wordIDs`, `wordTypes`, `attentionMask`; outputs `startLogits`, `endLogits`.
    public var modelDescription: ModelDescription {
        let sequence = FeatureType.tensor(.int32, shape: [nil, nil])
        let logits = FeatureType.tensor(.float32, shape: [nil, nil])
        return ModelDescription(
            inputs: [
                .init(name: "wordIDs", type: sequence, summary: "token ids, [batch, sequence]"),
                .init(name: "wordTypes", type: sequence, isOptional: true,
                      summary: "token types: 0 question, 1 context (BERT only; default 0)"),
                .init(name: "attentionMask", type: sequence, isOptional: true,
                      summary: "1 for tokens, 0 for padding (default all 1)"),
            ],
            outputs: [
                .init(name: "startLogits", type: logits, summary: "answer-start score of each token"),
                .init(name: "endLogits", type: logits, summary: "answer-end score of each token"),
            ],
            metadata: ["architecture": configuration.architecture.rawValue, "precision": precision.rawValue])
    }

    /// Runs the encoder and QA head on a batch of token ids.
    public func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        try predictions(from: [input])[0]
    }

    /// Runs several inputs in one encoder pass: their rows are stacked and right-padded to the
    /// longest sequence (masked), and each output keeps its input's shape.
    public func predictions(from inputs: [FeatureProvider]) throws -> [FeatureProvider] {
        var rows: [[Int32]] = [], types: [[Int32]] = [], masks: [[Int32]] = [], shapes: [[Int]] = []
        for input in inputs {
            try modelDescription.validate(input)
            guard let ids = input.featureValue(for: "wordIDs")?.int32TensorValue else {
                throw ModelError.missingFeature("wordIDs", expected: .tensor(.int32, shape: [nil, nil]))
            }
            let typeTensor = input.featureValue(for: "wordTypes")?.int32TensorValue
            let maskTensor = input.featureValue(for: "attentionMask")?.int32TensorValue
            for (name, tensor) in [("wordTypes", typeTensor), ("attentionMask", maskTensor)] {
                if let tensor, tensor.shape != ids.shape {
                    throw ModelError.invalidFeatureValue(name, reason: "shape \(tensor.shape) differs from wordIDs \(ids.shape)")
                }
            }
            let (count, length) = (ids.shape[0], ids.shape[1])
            let (idValues, typeValues, maskValues) = (ids.scalars, typeTensor?.scalars, maskTensor?.scalars)
            for row in 0..<count {
                let span = (row * length)..<((row + 1) * length)
                rows.append(Array(idValues[span]))
                types.append(typeValues.map { Array($0[span]) } ?? [Int32](repeating: 0, count: length))
                masks.append(maskValues.map { Array($0[span]) } ?? [Int32](repeating: 1, count: length))
            }
            shapes.append(ids.shape)
        }
        let length = rows.map(\.count).max() ?? 0
        func padded(_ values: [[Int32]], with value: Int32) -> [Int32] {
            values.flatMap { $0 + [Int32](repeating: value, count: length - $0.count) }
        }
        let batch = try EncoderBatch(batchSize: rows.count, sequenceLength: length, tokenIDs: padded(rows, with: 0),
                                     tokenTypeIDs: padded(types, with: 0), attentionMask: padded(masks, with: 0))
        let (start, end) = try logits(batch)
        var firstRow = 0
        return shapes.map { shape in
            defer { firstRow += shape[0] }
            let rowsOfInput = (0..<shape[0]).map { (firstRow + $0) * length }
            func slice(_ values: [Float]) -> Tensor<Float> {
                Tensor(shape: shape, scalars: rowsOfInput.flatMap { values[$0..<($0 + shape[1])] })
            }
            return DictionaryFeatureProvider(["startLogits": .floatTensor(slice(start)), "endLogits": .floatTensor(slice(end))])
        }
    }

    /// Start and end logits for every position of `batch`, row-major [batch · sequence].
    public func logits(_ batch: EncoderBatch) throws -> (start: [Float], end: [Float]) {
        let workspace = try encoder.encode(batch)
        let rows = workspace.rows
        // The head is [2, hidden]: one [rows, 2] product, start and end logits interleaved.
        var logits = [Float](repeating: 0, count: 2 * rows)
        logits.withUnsafeMutableBufferPointer { logits in
            guard let output = logits.baseAddress else { return }
            head.apply(workspace.hidden, rows: rows, into: output)
        }
        let start = (0..<rows).map { logits[2 * $0] }, end = (0..<rows).map { logits[2 * $0 + 1] }
        return (start, end)
    }
}
