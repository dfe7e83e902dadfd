import NLUCore

/// The trainable tensors of a BERT-family encoder: each an F32 tensor under its Hugging Face name
/// (as the bare model's `named_parameters()` spells it: `embeddings.word_embeddings.weight`,
/// `encoder.layer.0.attention.self.query.weight`, ...), with its gradient of the same shape beside it.
///
/// A final class: the encoder's forward and backward passes read and write these tensors in place,
/// and an optimizer updates ``values`` from ``gradients`` between steps.
///
///     let encoder = try TrainableEncoder(checkpoint: url)
///     let gradient = encoder.parameters.gradient("embeddings.LayerNorm.weight")
///     optimizer.step(&encoder.parameters.values, gradients: encoder.parameters.gradients)
public final class EncoderParameters {
    /// The parameters' names, in the order of ``values`` and ``gradients``.
    public let names: [String]
    /// The shapes the configuration gives, in the same order.
    public let shapes: [[Int]]
    /// The parameters themselves. Replacing one with a tensor of another shape makes the next
    /// forward pass throw.
    public var values: [Tensor<Float>]
    /// d(loss)/d(parameter), accumulated by every backward pass until ``zeroGradients()``.
    public var gradients: [Tensor<Float>]
    private let indexByName: [String: Int]

    /// Parameters with the given names and values, gradients zero.
    init(names: [String], values: [Tensor<Float>]) {
        self.names = names
        shapes = values.map(\.shape)
        self.values = values
        gradients = values.map { Tensor(shape: $0.shape) }
        indexByName = Dictionary(uniqueKeysWithValues: names.enumerated().map { ($1, $0) })
    }

    /// The position of `name` in ``names``, or nil.
    public func index(of name: String) -> Int? { indexByName[name] }

    /// The parameter `name`, or nil when the encoder has none of that name.
    public func value(_ name: String) -> Tensor<Float>? { indexByName[name].map { values[$0] } }

    /// The gradient of parameter `name`, or nil when the encoder has none of that name.
    public func gradient(_ name: String) -> Tensor<Float>? { indexByName[name].map { gradients[$0] } }

    /// How many scalars the parameters hold together.
    public var scalarCount: Int { values.reduce(0) { $0 + $1.count } }

    /// Sets every gradient to zero (before a step's first backward pass).
    public func zeroGradients() {
        for index in gradients.indices {
            gradients[index].withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        }
    }

    /// Checks every value and gradient against its shape and makes each contiguous, and each
    /// gradient's storage this store's own, so the passes may read and write them through raw
    /// pointers (a gradient a caller copied out keeps its own values).
    func prepareStorage() throws {
        for index in values.indices {
            guard values[index].shape == shapes[index], gradients[index].shape == shapes[index] else {
                throw ModelError.invalidFeatureValue(
                    names[index], reason: "parameter has shape \(values[index].shape) and gradient \(gradients[index].shape), expected \(shapes[index])")
            }
            if !values[index].isContiguous { values[index] = values[index].contiguous() }
            gradients[index].withUnsafeMutableBufferPointer { _ in }
        }
    }

    /// Parameter `index`'s first element (valid until ``values`` changes; after ``prepareStorage()``).
    func value(at index: Int) -> UnsafePointer<Float> {
        UnsafePointer(values[index].storage.baseAddress + values[index].offset)
    }

    /// Parameter `index`'s gradient's first element (after ``prepareStorage()``).
    func gradient(at index: Int) -> UnsafeMutablePointer<Float> {
        gradients[index].storage.baseAddress + gradients[index].offset
    }
}
