import Foundation
import NLUCore
import NLUCoreML
import NLUQuestionAnswering
import NLUText
import NLUTransformers

/// A Core ML BERT question-answering model with the feature names of Apple's BERT-SQuAD sample — inputs `wordIDs`
/// and `wordTypes` of one fixed length (`[L]` or `[1, L]`, Int32 or Float32), outputs `startLogits` and
/// `endLogits` — behind ``QuestionAnsweringModel``, so that its logits go through the same windows and span
/// decoding as a checkpoint's.
///
/// Such a model has no attention mask: each window is right-padded to `L` with the pad id and type 0, as the sample
/// app does, and the padding takes part in attention. Answers equal a masked checkpoint's when windows fill `L`.
///
///     let model = try CoreMLQuestionAnsweringModel(contentsOf: URL(fileURLWithPath: "BERTSQUADFP16.mlmodel"))
///     let qa = QuestionAnswerer(model: model, tokenizer: try BertTokenizer(vocabulary: Vocabulary(contentsOf: vocab)))
public struct CoreMLQuestionAnsweringModel: QuestionAnsweringModel {
    /// The file's model.
    public let model: CoreMLModel
    /// The fixed window length `L` of the inputs.
    public let sequenceLength: Int
    /// The id that pads each window to ``sequenceLength``: the tokenizer's `[PAD]`.
    public let padID: Int32
    let idsType: FeatureType
    let typesType: FeatureType?

    /// Loads `url` and checks it has the sample's inputs and outputs; `padID` is the tokenizer's `[PAD]` id.
    /// - Throws: ``CoreMLError`` for a file that cannot be read, ``CoreMLQuestionAnsweringError`` when the features
    ///   are not those of a BERT QA model.
    public init(contentsOf url: URL, padID: Int32 = 0) throws {
        try self.init(model: CoreMLModel(contentsOf: url), padID: padID, file: url.path)
    }

    /// Adapts a loaded model; `file` names it in errors.
    public init(model: CoreMLModel, padID: Int32 = 0, file: String = "the model") throws {
        self.model = model
        self.padID = padID
        let description = model.modelDescription
        func fixedShape(_ name: String) throws -> (FeatureType, Int)? {
            guard let feature = description.inputs.first(where: { $0.name == name }) else { return nil }
            guard case let .tensor(_, shape) = feature.type, let dimensions = shape as? [Int],
                  dimensions.count == 1 || (dimensions.count == 2 && dimensions[0] == 1), let length = dimensions.last, length >= 4 else {
                throw CoreMLQuestionAnsweringError.unsupportedInput(file: file, feature: name, type: "\(feature.type)")
            }
            // Every window is padded to this length before the model runs: a file declaring [1073741824] made each
            // question allocate gigabytes of padding. Encoders' position tables are bounded the same way.
            guard length <= BertConfiguration.sizeLimits.positions else {
                throw CoreMLQuestionAnsweringError.unsupportedInput(
                    file: file, feature: name, type: "a sequence of \(length) positions (at most \(BertConfiguration.sizeLimits.positions) are read)")
            }
            return (feature.type, length)
        }
        guard let (idsType, length) = try fixedShape("wordIDs") else {
            throw CoreMLQuestionAnsweringError.missingFeature(file: file, feature: "wordIDs", inputs: description.inputs.map(\.name))
        }
        let types = try fixedShape("wordTypes")
        if let types, types.1 != length {
            throw CoreMLQuestionAnsweringError.unsupportedInput(file: file, feature: "wordTypes", type: "\(types.0) (wordIDs has \(length) positions)")
        }
        for output in ["startLogits", "endLogits"] where !description.outputs.contains(where: { $0.name == output }) {
            throw CoreMLQuestionAnsweringError.missingFeature(file: file, feature: output, inputs: description.outputs.map(\.name))
        }
        let required = description.inputs.filter { !$0.isOptional && !["wordIDs", "wordTypes"].contains($0.name) }.map(\.name)
        if let extra = required.first {
            throw CoreMLQuestionAnsweringError.unsupportedInput(file: file, feature: extra, type: "an input we cannot fill (only wordIDs and wordTypes)")
        }
        self.idsType = idsType
        self.typesType = types?.0
        self.sequenceLength = length
    }

    public var maxPositions: Int { sequenceLength }

    public var summary: String {
        let layers = model.layerCounts.values.reduce(0, +)
        return "Core ML \(model.modelType), \(layers) layers, \(sequenceLength) positions"
    }

    /// Runs each window of `batch` on its own (the file's inputs hold one), padded to ``sequenceLength``.
    public func logits(_ batch: EncoderBatch) throws -> (start: [Float], end: [Float]) {
        let length = batch.sequenceLength
        guard length <= sequenceLength else {
            throw CoreMLQuestionAnsweringError.windowTooLong(length, positions: sequenceLength)
        }
        var start = [Float](), end = [Float]()
        start.reserveCapacity(batch.batchSize * length)
        end.reserveCapacity(batch.batchSize * length)
        for row in 0..<batch.batchSize {
            let span = (row * length)..<((row + 1) * length)
            // Padding, the batch's own and up to the fixed length: `[PAD]` with type 0.
            var ids = Array(batch.tokenIDs[span]), types = Array(batch.tokenTypeIDs[span])
            for position in ids.indices where batch.attentionMask[span.lowerBound + position] == 0 {
                ids[position] = padID
                types[position] = 0
            }
            ids += [Int32](repeating: padID, count: sequenceLength - length)
            types += [Int32](repeating: 0, count: sequenceLength - length)
            var input = DictionaryFeatureProvider(["wordIDs": Self.feature(ids, as: idsType)])
            if let typesType { input["wordTypes"] = Self.feature(types, as: typesType) }
            let output = try model.prediction(from: input)
            start += try logitRow(output, "startLogits").prefix(length)
            end += try logitRow(output, "endLogits").prefix(length)
        }
        return (start, end)
    }

    /// `values` as the declared input type: Int32 or Float32, in the declared shape.
    static func feature(_ values: [Int32], as type: FeatureType) -> FeatureValue {
        guard case let .tensor(dataType, shape) = type else { return .int32Tensor(Tensor(values)) }
        let dimensions = shape.map { $0 ?? values.count }
        switch dataType {
        case .int32: return .int32Tensor(Tensor(shape: dimensions, scalars: values))
        case .float32: return .floatTensor(Tensor(shape: dimensions, scalars: values.map(Float.init)))
        }
    }

    func logitRow(_ output: FeatureProvider, _ name: String) throws -> [Float] {
        guard let tensor = output.featureValue(for: name)?.floatTensorValue, tensor.scalars.count == sequenceLength else {
            throw CoreMLQuestionAnsweringError.badOutput(feature: name, expected: sequenceLength)
        }
        return tensor.scalars
    }
}

/// Why a Core ML file cannot serve as a question-answering model.
public enum CoreMLQuestionAnsweringError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case missingFeature(file: String, feature: String, inputs: [String])
    case unsupportedInput(file: String, feature: String, type: String)
    case windowTooLong(Int, positions: Int)
    case badOutput(feature: String, expected: Int)
    case noVocabulary(file: String, looked: String)

    public var description: String {
        switch self {
        case let .missingFeature(file, feature, present):
            return "\(file): not a BERT question-answering model: no feature '\(feature)' (it has \(present.joined(separator: ", "))); "
                + "expected inputs wordIDs and wordTypes and outputs startLogits and endLogits, as in Apple's BERT-SQuAD sample"
        case let .unsupportedInput(file, feature, type):
            return "\(file): input '\(feature)' is \(type), expected a fixed-length token sequence [L] or [1, L]"
        case let .windowTooLong(length, positions):
            return "a window of \(length) tokens is longer than the model's \(positions) positions (lower --max-seq-length)"
        case let .badOutput(feature, expected):
            return "the model's output '\(feature)' does not hold one logit per position (\(expected))"
        case let .noVocabulary(file, looked):
            return "\(file): a Core ML model carries no vocabulary and there is no \(looked): give the WordPiece vocab.txt it was trained with (--vocab)"
        }
    }

    public var errorDescription: String? { description }
}
