import NLUCore

/// The older per-channel layers that work on the last three axes `[C, H, W]` of a blob (every leading axis is a
/// batch): `mvn`, `scale` and `bias`. coremltools' PyTorch converter (neural-network backend) writes LayerNorm as
/// `reshapeStatic → mvn → scale → reshapeStatic`, so a converted BERT needs them.
enum ChannelLayers {
    /// Mean-variance normalization over `[H, W]` of each channel, or over `[C, H, W]` with `acrossChannels`:
    /// `(x - mean) / sqrt(variance + ε)` with the population variance, as PyTorch's LayerNorm (whose ε the
    /// converter copies here) computes it; without `normalizeVariance` only the mean is subtracted.
    static func meanVarianceNormalize(_ params: CoreML_Specification_MeanVarianceNormalizeLayerParams,
                                      _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        guard params.epsilon.isFinite, params.epsilon >= 0 else { throw context.invalid("epsilon \(params.epsilon), expected ≥ 0") }
        // NeuralNetwork.proto: an unset (0) epsilon means 1e-6.
        let epsilon = Double(params.epsilon == 0 ? 1e-6 : params.epsilon)
        let acrossChannels = params.acrossChannels, normalizeVariance = params.normalizeVariance
        return context.unary { x, fail in
            guard x.rank >= 3 else { throw fail("input of rank \(x.rank), expected rank 3 or more") }
            let group = acrossChannels ? x.shape[(x.rank - 3)...].reduce(1, *) : x.shape[(x.rank - 2)...].reduce(1, *)
            guard group > 0 else { return x }
            var result = x
            result.replaceElements { values, normalized in
                var start = 0
                while start < values.count {
                    let slice = start..<(start + group)
                    // Double sums: a group can hold a whole [C, H, W] image.
                    let mean = values[slice].reduce(0.0) { $0 + Double($1) } / Double(group)
                    var scale = 1.0
                    if normalizeVariance {
                        let variance = values[slice].reduce(0.0) { $0 + (Double($1) - mean) * (Double($1) - mean) } / Double(group)
                        scale = 1 / (variance + epsilon).squareRoot()
                    }
                    for index in slice { normalized[index] = Float((Double(values[index]) - mean) * scale) }
                    start += group
                }
            }
            return result
        }
    }

    /// `x · scale (+ bias)`, each broadcast over `[C, H, W]`.
    static func scale(_ params: CoreML_Specification_ScaleLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let scale = try ChannelParameter(shape: params.shapeScale, weights: params.scale, field: "scale", context)
        let bias = params.hasBias_p ? try ChannelParameter(shape: params.shapeBias, weights: params.bias, field: "bias", context) : nil
        return context.unary { x, fail in
            var result = try scale.apply(to: x, fail: fail, *)
            if let bias { result = try bias.apply(to: result, fail: fail, +) }
            return result
        }
    }

    /// `x + bias`, broadcast over `[C, H, W]`.
    static func bias(_ params: CoreML_Specification_BiasLayerParams, _ context: LayerContext) throws -> CompiledLayer {
        try context.expect(inputs: 1...1, outputs: 1...1)
        let bias = try ChannelParameter(shape: params.shape, weights: params.bias, field: "bias", context)
        return context.unary { x, fail in try bias.apply(to: x, fail: fail, +) }
    }
}

/// A `scale` or `bias` parameter of shape `[1]`, `[C]`, `[1, H, W]` or `[C, H, W]`, held as `[c, h, w]`.
struct ChannelParameter: Sendable {
    let shape: [Int]
    let values: [Float]

    init(shape stored: [UInt64], weights: CoreML_Specification_WeightParams, field: String, _ context: LayerContext) throws {
        guard [1, 3].contains(stored.count), stored.allSatisfy({ $0 > 0 && $0 <= 1 << 28 }) else {
            throw context.invalid("\(field) shape \(stored), expected [1], [C], [1, H, W] or [C, H, W]")
        }
        let dimensions = stored.map(Int.init)
        shape = dimensions.count == 1 ? [dimensions[0], 1, 1] : dimensions
        guard let count = Shapes.checkedCount(shape) else { throw context.invalid("\(field) shape \(stored) is too large") }
        values = try context.weights.floats(weights, field: field, count: count, channels: shape[0])
    }

    /// `x ∘ parameter`, the parameter broadcast over the last three axes of `x`.
    func apply(to x: Blob, fail: (String) -> CoreMLError, _ operation: (Float, Float) -> Float) throws -> Blob {
        guard x.rank >= 3 else { throw fail("input of rank \(x.rank), expected rank 3 or more") }
        let trailing = Array(x.shape[(x.rank - 3)...])
        guard zip(shape, trailing).allSatisfy({ $0 == $1 || $0 == 1 }) else {
            throw fail("parameter of shape \(shape) does not broadcast to the input's [C, H, W] \(trailing)")
        }
        let indices = Shapes.broadcastIndices(from: shape, to: trailing)
        let group = indices.count
        var result = x
        result.replaceElements { source, destination in
            for start in stride(from: 0, to: source.count, by: max(group, 1)) {
                for (offset, index) in indices.enumerated() {
                    destination[start + offset] = operation(source[start + offset], values[index])
                }
            }
        }
        return result
    }
}
