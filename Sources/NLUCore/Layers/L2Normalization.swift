/// Scales vectors to unit Euclidean length, as `torch.nn.functional.normalize(x, p: 2, dim: -1)`:
/// `x / max(‖x‖, epsilon)`; and its backward pass. Sentence embedders normalize their output with it, and
/// cosine similarity is the dot product of two normalized vectors (`torch.cosine_similarity` clamps
/// each norm at 1e-8, `normalize` at 1e-12).
///
///     var vector: [Float] = [3, 4]
///     L2Normalization().normalize(&vector)                              // [0.6, 0.8]
///     let unit = L2Normalization()(embeddings)                            // each row of [batch, dim]
///     let dEmbeddings = L2Normalization().backward(outputGradient: dUnit, input: embeddings)
public struct L2Normalization: Sendable, Equatable {
    /// The smallest norm divided by: vectors shorter than it are scaled by `1 / epsilon`.
    public var epsilon: Float

    /// Normalization with `torch.nn.functional.normalize`'s default floor of 1e-12.
    public init(epsilon: Float = 1e-12) {
        precondition(epsilon > 0, "L2Normalization: epsilon \(epsilon) must be positive")
        self.epsilon = epsilon
    }

    /// Normalizes one vector in place.
    ///
    ///     var v: [Float] = [0, 2]; L2Normalization().normalize(&v)   // [0, 1]
    public func normalize(_ vector: inout [Float]) {
        _ = vector.withUnsafeMutableBufferPointer { normalize($0) }
    }

    /// Normalizes one vector in place; returns the norm it had.
    @discardableResult
    public func normalize(_ vector: UnsafeMutableBufferPointer<Float>) -> Float {
        let norm = Self.norm(UnsafeBufferPointer(vector))
        let scale = 1 / max(norm, epsilon)
        for i in vector.indices { vector[i] *= scale }
        return norm
    }

    /// Each row (the last dimension) of `x` normalized.
    public func callAsFunction(_ x: Tensor<Float>) -> Tensor<Float> {
        var y = x.contiguous().reshaped(x.shape)
        let width = x.shape.last ?? 1
        y.withUnsafeMutableBufferPointer { values in
            guard let base = values.baseAddress, width > 0 else { return }
            for row in 0..<(values.count / width) { normalize(UnsafeMutableBufferPointer(start: base + row * width, count: width)) }
        }
        return y
    }

    /// d(loss)/d(x) from d(loss)/d(y) for `y = x / max(‖x‖, epsilon)` row by row, given the forward pass's
    /// input `x`: `(dy - y·(y·dy)) / ‖x‖`, or `dy / epsilon` where the floor was taken.
    ///
    ///     let dx = L2Normalization().backward(outputGradient: dy, input: x)
    public func backward(outputGradient: Tensor<Float>, input x: Tensor<Float>) -> Tensor<Float> {
        precondition(outputGradient.shape == x.shape, "L2Normalization.backward: output gradient \(outputGradient.shape) for input \(x.shape)")
        let width = x.shape.last ?? 1
        let input = x.contiguous()
        var dx = outputGradient.contiguous().reshaped(x.shape)
        input.withUnsafeBufferPointer { input in
            dx.withUnsafeMutableBufferPointer { dx in
                guard let xBase = input.baseAddress, let dBase = dx.baseAddress, width > 0 else { return }
                for row in 0..<(input.count / width) {
                    let x = xBase + row * width, d = dBase + row * width
                    let norm = Self.norm(UnsafeBufferPointer(start: x, count: width))
                    // torch's clamp_min passes the gradient where the norm reaches the floor.
                    guard norm >= epsilon else {
                        for c in 0..<width { d[c] /= epsilon }
                        continue
                    }
                    let scale = 1 / norm
                    var projection: Float = 0  // y·dy
                    for c in 0..<width { projection += x[c] * scale * d[c] }
                    for c in 0..<width { d[c] = (d[c] - x[c] * scale * projection) * scale }
                }
            }
        }
        return dx
    }

    /// ‖v‖, summed in order in Float (the embedder's output is defined by this arithmetic).
    private static func norm(_ vector: UnsafeBufferPointer<Float>) -> Float {
        vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
    }
}
