/// A blob's shape as far as it is known before a layer runs: `nil` when even the rank is unknown (a layer whose
/// output shape depends on values, such as `reshapeDynamic`), a `nil` dimension when only its size is open (the
/// `[Seq, Batch]` axes of the rank-5 layout, a flexible input dimension). An open dimension holds at least 1, so
/// the product of the known ones is a lower bound of the element count.
typealias PartialShape = [Int?]?

/// What a layer makes from the shapes of its inputs, and in words how (`concatenating 65 inputs along axis 2`) for
/// the message that refuses it.
struct InferredShapes: Sendable {
    var outputs: [PartialShape]
    var how: String?
}

/// Computes each layer's output shapes from its parameters and its inputs' shapes, without any values: at load from
/// the declared input shapes, and again at prediction from the given ones, so that a layer whose output would pass
/// the budget (``BlobBudget``) is refused before anything is allocated — a file of a few kilobytes can concatenate
/// a blob with itself until it asks for gigabytes. Layers whose output size depends on values, or that never
/// grow what they read, may leave their outputs unknown: each layer that can grow still checks its own output
/// before allocating it (``Shapes/checkOutput(_:fail:)``).
enum ShapeInference {
    typealias Rule = @Sendable (_ inputs: [PartialShape]) -> InferredShapes

    /// The rule of `layer`, holding only the few numbers it needs (not the layer's weights).
    static func rule(for layer: CoreML_Specification_NeuralNetworkLayer, rank5: Bool) -> Rule {
        let outputCount = layer.output.count
        let unknown = InferredShapes(outputs: [PartialShape](repeating: nil, count: outputCount))
        func each(_ shape: @escaping @Sendable ([PartialShape]) -> PartialShape) -> Rule {
            { inputs in InferredShapes(outputs: [PartialShape](repeating: shape(inputs), count: outputCount)) }
        }
        switch layer.layer {
        case .activation, .softmax, .unary, .gelu, .erf, .softmaxNd, .layerNormalization, .mvn, .scale, .bias:
            return each { $0.first ?? nil }
        case .loadConstant(let p):
            let shape = p.shape.map { Int(clamping: $0) as Int? }
            return each { _ in rank5 ? [1, 1] + shape : shape }
        case .loadConstantNd(let p):
            let shape = p.shape.map { Int(clamping: $0) as Int? }
            return each { _ in shape }
        case .innerProduct(let p):
            let width = Int(clamping: p.outputChannels), channels = Int(clamping: p.inputChannels)
            return each { inputs in innerProduct(inputs.first ?? nil, channels: channels, width: width) }
        case .embedding(let p):
            let width = Int(clamping: p.outputChannels)
            return each { inputs in
                guard let ids = inputs.first ?? nil else { return nil }
                return ids.count == 5 ? [ids[0], ids[1], width, 1, 1] : ids.dropLast() + [width]
            }
        case .embeddingNd(let p):
            let width = Int(clamping: p.embeddingSize)
            return each { inputs in (inputs.first ?? nil).map { $0.dropLast() + [width] } }
        case .batchedMatmul(let p):
            if layer.input.count == 1 {
                let width = Int(clamping: p.weightMatrixSecondDimension)
                return each { inputs in (inputs.first ?? nil).map { $0.dropLast() + [width] } }
            }
            let transposeA = p.transposeA, transposeB = p.transposeB
            return each { inputs in
                guard inputs.count == 2, let a = inputs[0], let b = inputs[1], a.count >= 2, b.count >= 2,
                      let batch = broadcast(Array(a.dropLast(2)), Array(b.dropLast(2))) else { return nil }
                return batch + [transposeA ? a[a.count - 1] : a[a.count - 2], transposeB ? b[b.count - 2] : b[b.count - 1]]
            }
        case .add, .multiply, .addBroadcastable, .subtractBroadcastable, .multiplyBroadcastable, .divideBroadcastable:
            return each { inputs in
                guard var result = inputs.first ?? nil else { return nil }
                for next in inputs.dropFirst() {
                    guard let next, let combined = broadcast(result, next) else { return nil }
                    result = combined
                }
                return result
            }
        case .concat(let p):
            let sequence = p.sequenceConcat
            return { inputs in concatenation(inputs, axis: { rank in sequence ? 0 : rank - 3 }, outputCount: outputCount) }
        case .concatNd(let p):
            let axis = Int(clamping: p.axis)
            return { inputs in concatenation(inputs, axis: { rank in Shapes.normalize(axis: axis, rank: rank) }, outputCount: outputCount) }
        case .gather(let p):
            let axis = Int(clamping: p.axis)
            return { inputs in gather(inputs, axis: axis) }
        case .transpose(let p):
            let axes = p.axes.map { Int(clamping: $0) }
            return each { inputs in
                guard let x = inputs.first ?? nil, x.count == axes.count, Set(axes) == Set(x.indices) else { return nil }
                return axes.map { x[$0] }
            }
        case .simpleRecurrent(let p):
            return recurrent(width: Int(clamping: p.outputVectorSize), sequenceOutput: p.sequenceOutput, outputCount: outputCount)
        case .gru(let p):
            return recurrent(width: Int(clamping: p.outputVectorSize), sequenceOutput: p.sequenceOutput, outputCount: outputCount)
        case .uniDirectionalLstm(let p):
            return recurrent(width: Int(clamping: p.outputVectorSize), sequenceOutput: p.params.sequenceOutput, outputCount: outputCount)
        case .biDirectionalLstm(let p):
            return recurrent(width: Int(clamping: p.outputVectorSize), directions: 2, sequenceOutput: p.params.sequenceOutput,
                             outputCount: outputCount)
        default:
            return { _ in unknown }
        }
    }

    /// NumPy broadcasting of two partial shapes, or `nil` when known sizes disagree (the layer reports that when
    /// it runs). An open dimension against a size above 1 must equal it or be 1: either way the result has that size.
    static func broadcast(_ a: [Int?], _ b: [Int?]) -> [Int?]? {
        let rank = max(a.count, b.count)
        let paddedA = [Int?](repeating: 1, count: rank - a.count) + a, paddedB = [Int?](repeating: 1, count: rank - b.count) + b
        var result = [Int?]()
        for (x, y) in zip(paddedA, paddedB) {
            switch (x, y) {
            case let (x?, y?): if x == y || y == 1 { result.append(x) } else if x == 1 { result.append(y) } else { return nil }
            case let (x?, nil): result.append(x == 1 ? nil : x)
            case let (nil, y?): result.append(y == 1 ? nil : y)
            case (nil, nil): result.append(nil)
            }
        }
        return result
    }

    private static func innerProduct(_ x: [Int?]?, channels: Int, width: Int) -> PartialShape {
        guard let x else { return nil }
        // As the layer reads it: rank-5 blobs carry the features in [C, H, W], ND blobs in their last axis.
        if x.count == 5 { return Array(x[..<2]) + [width, 1, 1] }
        if x.last == channels { return x.dropLast() + [width] }
        return nil
    }

    private static func concatenation(_ inputs: [PartialShape], axis: (Int) -> Int?, outputCount: Int) -> InferredShapes {
        let shapes = inputs.compactMap { $0 }
        guard shapes.count == inputs.count, let first = shapes.first, let resolved = axis(first.count), resolved >= 0,
              shapes.allSatisfy({ $0.count == first.count }) else {
            return InferredShapes(outputs: [PartialShape](repeating: nil, count: outputCount))
        }
        var shape = first
        for dimension in shape.indices where dimension != resolved {
            shape[dimension] = shapes.lazy.compactMap { $0[dimension] }.first
        }
        // The joined axis is known when every input's is (and their sum fits an Int).
        var total: Int? = 0
        for input in shapes {
            guard let length = input[resolved], let sum = total, case let (next, false) = sum.addingReportingOverflow(length) else { total = nil; break }
            total = next
        }
        shape[resolved] = total
        return InferredShapes(outputs: [PartialShape](repeating: shape, count: outputCount),
                              how: "concatenating \(inputs.count) inputs along axis \(resolved)")
    }

    private static func gather(_ inputs: [PartialShape], axis: Int) -> InferredShapes {
        guard inputs.count == 2, let x = inputs[0], let indices = inputs[1], let resolved = Shapes.normalize(axis: axis, rank: x.count) else {
            return InferredShapes(outputs: [nil])
        }
        // The indices' own shape replaces the gathered axis.
        let shape = Array(x[..<resolved]) + indices + Array(x[(resolved + 1)...])
        let count = lowerBound(indices)
        return InferredShapes(outputs: [shape], how: "gathering \(indices.contains(nil) ? "at least " : "")\(count) indices "
                                + "(shape \(describe(indices))) along axis \(resolved) of \(describe(x))")
    }

    /// Recurrent layers: `[Seq, Batch, H·directions, 1, 1]` (one step without sequence output), then the final states
    /// `[1, Batch, H, 1, 1]`.
    private static func recurrent(width: Int, directions: Int = 1, sequenceOutput: Bool, outputCount: Int) -> Rule {
        { inputs in
            guard let x = inputs.first ?? nil, x.count == 5 else { return InferredShapes(outputs: [PartialShape](repeating: nil, count: outputCount)) }
            let (wide, overflow) = width.multipliedReportingOverflow(by: directions)
            let sequence: [Int?] = [sequenceOutput ? x[0] : 1, x[1], overflow ? nil : wide, 1, 1]
            let state: [Int?] = [1, x[1], width, 1, 1]
            return InferredShapes(outputs: [sequence] + [PartialShape](repeating: state, count: max(0, outputCount - 1)))
        }
    }

    /// The product of the known dimensions (an open one holds at least 1), saturating at `Int.max`; 0 for an unknown
    /// rank.
    static func lowerBound(_ shape: PartialShape) -> Int {
        guard let shape else { return 0 }
        var count = 1
        for case let dimension? in shape {
            let (product, overflow) = count.multipliedReportingOverflow(by: max(dimension, 0))
            count = overflow ? .max : product
        }
        return count
    }

    /// `[?, ?, 272629760, 1, 1]`: `?` for an open dimension.
    static func describe(_ shape: PartialShape) -> String {
        guard let shape else { return "[unknown]" }
        return "[" + shape.map { $0.map(String.init) ?? "?" }.joined(separator: ", ") + "]"
    }
}
