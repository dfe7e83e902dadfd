import Foundation
import NLUCore

/// The layers coremltools' `NeuralNetworkBuilder` writes for dense classifiers (Keras-style): innerProduct,
/// activation, softmax, concat, flatten, reshape, add, multiply, embedding, unary, loadConstant.
/// In the rank-5 layout the channel axis is the third from the end (`[Seq, Batch, C, H, W]`).
enum DenseLayers {
    static func innerProduct(_ params: CoreML_Specification_InnerProductLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        if params.int8DynamicQuantize { throw context.unsupported("int8 dynamic quantization") }
        let inputs = try context.checkedSize(params.inputChannels, "inputChannels")
        let dense = try context.linear(params.weights, bias: params.hasBias_p ? params.bias : nil, inputs: inputs,
                                       outputs: try context.checkedSize(params.outputChannels, "outputChannels"))
        let outputs = dense.outputSize
        return context.unary { x, fail in
            // Rank-5 blobs carry the features in [C, H, W]; ND blobs in the last axis.
            let shape: [Int]
            if x.rank >= 3, x.shape[(x.rank - 3)...].reduce(1, *) == inputs, x.shape.last != inputs || x.rank == 5 {
                shape = Array(x.shape[..<(x.rank - 3)]) + [outputs, 1, 1]
            } else if x.shape.last == inputs {
                shape = Array(x.shape.dropLast()) + [outputs]
            } else {
                throw fail("input has shape \(x.shape), expected \(inputs) input channels")
            }
            try Shapes.checkOutput(shape, fail: fail)
            return dense.apply(to: x, shape: shape)
        }
    }

    static func activation(_ params: CoreML_Specification_ActivationParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let function = try Activation(params, context)
        return context.unary { x, _ in function.apply(x) }
    }

    static func softmax(_ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        return context.unary { x, fail in
            // A rank-0 blob (a sliceStatic that squeezes its only axis, an API caller's scalar tensor) has no axis to normalize over.
            guard x.rank >= 1 else { throw fail("input of shape \(x.shape) has no axis, expected rank 1 or more") }
            // Over the channel axis: the third from the end in rank 3 and up, else the last.
            return Elementwise.softmax(x, axis: x.rank >= 3 ? x.rank - 3 : x.rank - 1)
        }
    }

    static func concat(_ params: CoreML_Specification_ConcatLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...Int.max, outputs: 1...1)
        let sequence = params.sequenceConcat
        return context.layer { inputs, fail in
            let rank = inputs[0].rank
            guard rank >= 3 else { throw fail("input of rank \(rank), expected rank 3 or more") }
            return [try Elementwise.concatenate(inputs, axis: sequence ? 0 : rank - 3, fail: fail)]
        }
    }

    static func flatten(_ params: CoreML_Specification_FlattenLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let channelLast = params.mode == .channelLast
        return context.unary { x, fail in
            guard x.rank >= 3 else { throw fail("input of rank \(x.rank), expected rank 3 or more") }
            let leading = Array(x.shape[..<(x.rank - 3)])
            var source = x
            if channelLast {
                // [.., C, H, W] → [.., H, W, C] before flattening.
                let r = x.rank
                source = x.permuted(Array(0..<(r - 3)) + [r - 2, r - 1, r - 3])
            }
            return source.reshaped(leading + [x.shape[(x.rank - 3)...].reduce(1, *), 1, 1])
        }
    }

    static func reshape(_ params: CoreML_Specification_ReshapeLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        guard params.targetShape.count == 3 || params.targetShape.count == 4,
              params.targetShape.allSatisfy({ $0 > 0 && $0 <= 1 << 28 }) else {
            throw context.invalid("targetShape \(params.targetShape), expected 3 or 4 positive sizes")
        }
        let target = params.targetShape.map(Int.init)
        let channelLast = params.mode == .channelLast
        return context.unary { x, fail in
            guard x.rank == 5 else { throw fail("input of rank \(x.rank), expected a rank-5 blob") }
            let shape = target.count == 3 ? [x.shape[0], x.shape[1]] + target : [target[0], x.shape[1]] + Array(target[1...])
            guard Shapes.checkedCount(shape, limit: Int.max) == x.count else {
                throw fail("cannot reshape \(x.shape) (\(x.count) values) to \(shape)")
            }
            if channelLast, x.shape[3] * x.shape[4] > 1 || shape[3] * shape[4] > 1 {
                throw CoreMLError.unsupportedLayerOption(name: context.name, kind: context.kind, option: "CHANNEL_LAST reshape of spatial blobs")
            }
            return x.reshaped(shape)
        }
    }

    static func add(_ params: CoreML_Specification_AddLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...Int.max, outputs: 1...1)
        let alpha = params.alpha
        return context.layer { inputs, fail in
            if inputs.count == 1 { return [inputs[0].mapped { $0 + alpha }] }
            return [try Elementwise.fold(inputs, +, fail: fail)]
        }
    }

    static func multiply(_ params: CoreML_Specification_MultiplyLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...Int.max, outputs: 1...1)
        let alpha = params.alpha
        return context.layer { inputs, fail in
            if inputs.count == 1 { return [inputs[0].mapped { $0 * alpha }] }
            return [try Elementwise.fold(inputs, *, fail: fail)]
        }
    }

    /// Core ML's `embedding` (rank 5: `[Seq, Batch, 1, 1, 1]` indices → `[Seq, Batch, C, 1, 1]`) and `embeddingND`
    /// (`[..., 1]` indices → `[..., C]`) share one table lookup; both store the weights `[C, vocabulary]`.
    static func embedding(vocabulary: UInt64, size: UInt64, hasBias: Bool, weights: CoreML_Specification_WeightParams,
                          bias: CoreML_Specification_WeightParams, nd: Bool, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let vocabularySize = try context.checkedSize(vocabulary, nd ? "vocabSize" : "inputDim")
        let dimension = try context.checkedSize(size, nd ? "embeddingSize" : "outputChannels")
        guard vocabularySize * dimension <= 1 << 30 else { throw context.invalid("\(dimension) × \(vocabularySize) weights are too large") }
        let stored = try context.weights.floats(weights, field: "weights", count: dimension * vocabularySize, channels: dimension)
        let biasValues = hasBias ? try context.weights.floats(bias, field: "bias", count: dimension) : nil
        // Transposed once so that a lookup copies one contiguous row.
        var table = [Float](repeating: 0, count: stored.count)
        for c in 0..<dimension {
            for v in 0..<vocabularySize { table[v * dimension + c] = stored[c * vocabularySize + v] + (biasValues?[c] ?? 0) }
        }
        let rows = table
        return context.unary { ids, fail in
            let shape: [Int]
            if !nd, ids.rank == 5, ids.shape[2...].allSatisfy({ $0 == 1 }) {
                shape = [ids.shape[0], ids.shape[1], dimension, 1, 1]
            } else if ids.shape.last == 1, ids.rank >= 1 {
                shape = Array(ids.shape.dropLast()) + [dimension]
            } else {
                throw fail("indices have shape \(ids.shape), expected \(nd ? "[..., 1]" : "[Seq, Batch, 1, 1, 1]")")
            }
            try Shapes.checkOutput(shape, fail: fail)
            var output = Blob(shape: shape)
            try ids.withUnsafeBufferPointer { ids in
                try rows.withUnsafeBufferPointer { table in
                    try output.withUnsafeMutableBufferPointer { output in
                        for (position, id) in ids.enumerated() {
                            guard id >= 0, id < Float(vocabularySize), id.rounded() == id else {
                                throw fail("index \(id) is not a whole number in 0..<\(vocabularySize)")
                            }
                            (output.baseAddress! + position * dimension).update(from: table.baseAddress! + Int(id) * dimension, count: dimension)
                        }
                    }
                }
            }
            return output
        }
    }

    static func unaryFunction(_ params: CoreML_Specification_UnaryFunctionLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let alpha = params.alpha, epsilon = params.epsilon, shift = params.shift
        // An unset scale (0 in proto3) means 1, as Core ML reads it.
        let scale = params.scale == 0 ? 1 : params.scale
        let function: @Sendable (Float) -> Float
        switch params.type {
        case .sqrt: function = { $0.squareRoot() }
        case .rsqrt: function = { 1 / ($0 + epsilon).squareRoot() }
        case .inverse: function = { 1 / ($0 + epsilon) }
        case .power: function = { Foundation.pow($0, alpha) }
        case .exp: function = { Foundation.exp($0) }
        case .log: function = { Foundation.log($0 + epsilon) }
        case .abs: function = { Swift.abs($0) }
        case .threshold: function = { Swift.max($0, alpha) }
        case .UNRECOGNIZED(let value): throw context.unsupported("unary operation \(value)")
        }
        return context.unary { x, _ in x.mapped { function(scale * $0 + shift) } }
    }

    static func loadConstant(_ params: CoreML_Specification_LoadConstantLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 0...0, outputs: 1...1)
        guard params.shape.count == 3, params.shape.allSatisfy({ $0 > 0 && $0 <= 1 << 28 }) else {
            throw context.invalid("shape \(params.shape), expected [C, H, W]")
        }
        let shape = params.shape.map(Int.init)
        guard let count = Shapes.checkedCount(shape) else { throw context.invalid("shape \(shape) is too large") }
        let values = try context.weights.floats(params.data, field: "data", count: count, channels: shape[0])
        let blob = Blob(shape: context.rank5 ? [1, 1] + shape : shape, values: values)
        return context.layer { _, _ in [blob] }
    }
}

/// An activation function of Core ML's `ActivationParams`, applied element by element.
struct Activation: Sendable {
    let apply: @Sendable (Blob) -> Blob

    /// `inRecurrentLayer`: coremltools writes a recurrent layer's hard sigmoid without parameters, meaning Keras'
    /// `0.2·x + 0.5`; a standalone activation layer always stores them.
    init(_ params: CoreML_Specification_ActivationParams, _ context: LayerContext, inRecurrentLayer: Bool = false) throws {
        switch params.nonlinearityType {
        case .reLu: apply = { $0.applying { Kernels.relu($0, count: $1) } }
        case .tanh: apply = { $0.applying { Kernels.tanh($0, count: $1) } }
        case .sigmoid: apply = { $0.applying { Kernels.sigmoid($0, count: $1) } }
        case .leakyReLu(let p): let alpha = p.alpha; apply = { $0.mapped { $0 >= 0 ? $0 : alpha * $0 } }
        case .linear(let p): let alpha = p.alpha, beta = p.beta; apply = { $0.mapped { alpha * $0 + beta } }
        case .scaledTanh(let p): let alpha = p.alpha, beta = p.beta; apply = { $0.mapped { alpha * Foundation.tanh(beta * $0) } }
        case .sigmoidHard(let p):
            let unset = inRecurrentLayer && p.alpha == 0 && p.beta == 0
            let alpha = unset ? 0.2 : p.alpha, beta = unset ? 0.5 : p.beta
            apply = { $0.mapped { Swift.min(Swift.max(alpha * $0 + beta, 0), 1) } }
        case .elu(let p): let alpha = p.alpha; apply = { $0.mapped { $0 >= 0 ? $0 : alpha * (Foundation.exp($0) - 1) } }
        case .thresholdedReLu(let p): let alpha = p.alpha; apply = { $0.mapped { $0 > alpha ? $0 : 0 } }
        case .softsign: apply = { $0.mapped { $0 / (1 + Swift.abs($0)) } }
        case .softplus: apply = { $0.mapped { Foundation.log(1 + Foundation.exp($0)) } }
        case .preLu: throw context.unsupported("PReLU activation")
        case .parametricSoftplus: throw context.unsupported("parametric softplus activation")
        case nil: throw context.invalid("no activation function set")
        }
    }
}
