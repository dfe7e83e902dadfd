/// Reduces the token embeddings of each sequence to one vector per ``PoolingMode``, concatenated,
/// with sentence-transformers' arithmetic (right-padded sequences: the first `length` tokens are real).
struct Pooling: Sendable {
    let configuration: PoolingConfiguration
    let hiddenSize: Int

    var outputSize: Int { configuration.modes.count * hiddenSize }

    /// Pools sequence `row` of `tokens` ([rows · sequenceLength, hidden], row-major) into `output`
    /// (`outputSize` floats). `length` ≥ 1 tokens of the row are real.
    func pool(_ tokens: UnsafePointer<Float>, row: Int, sequenceLength: Int, length: Int,
              into output: UnsafeMutablePointer<Float>) {
        let h = hiddenSize
        let first = tokens + row * sequenceLength * h
        for (index, mode) in configuration.modes.enumerated() {
            let target = output + index * h
            switch mode {
            case .cls:
                target.update(from: first, count: h)
            case .lastToken:
                target.update(from: first + (length - 1) * h, count: h)
            case .max:
                target.update(from: first, count: h)
                for t in 1..<max(length, 1) {
                    let token = first + t * h
                    for c in 0..<h where token[c] > target[c] { target[c] = token[c] }
                }
            case .mean, .meanSqrtLength, .weightedMean:
                target.initialize(repeating: 0, count: h)
                var weightSum: Float = 0
                for t in 0..<length {
                    let weight: Float = mode == .weightedMean ? Float(t + 1) : 1
                    let token = first + t * h
                    for c in 0..<h { target[c] += weight * token[c] }
                    weightSum += weight
                }
                let denominator = mode == .meanSqrtLength ? weightSum.squareRoot() : weightSum
                let scale = 1 / Swift.max(denominator, 1e-9)
                for c in 0..<h { target[c] *= scale }
            }
        }
    }
}
