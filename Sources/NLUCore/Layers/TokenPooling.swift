/// Reduces the token embeddings of each sequence to one vector per ``PoolingMode``, concatenated in
/// the order of `modes`, with sentence-transformers' `Pooling` arithmetic; and the backward pass, which
/// hands d(loss)/d(pooled) back to the tokens. Inference (``pool(_:row:sequenceLength:length:into:)``,
/// right-padded rows) and training (``callAsFunction(_:attentionMask:)`` and
/// ``backward(outputGradient:hiddenStates:attentionMask:)``, any 0/1 mask) run the same loops.
///
/// What each mode does with padding, as sentence-transformers 5.1.2 does it:
/// - `mean`: Σ attended tokens / max(attended count, 1e-9); `meanSqrtLength` divides by the square root
///   of that count, `weightedMean` weights position `t` by `t + 1` and divides by the sum of the weights.
/// - `cls`: the first position, whatever the mask says.
/// - `max`: element-wise maximum over the attended tokens (a row with none gives -1e9, the value
///   sentence-transformers writes into padding); the gradient goes to the first position holding the
///   maximum, as `torch.max(dim:)` picks it.
/// - `lastToken`: the last attended token (zero for a row with none).
///
///     let pooling = TokenPooling(modes: [.mean], hiddenSize: 384)
///     let sentences = pooling(hidden, attentionMask: batch.attentionMask)       // [batch, 384]
///     let dHidden = pooling.backward(outputGradient: dSentences, hiddenStates: hidden,
///                                    attentionMask: batch.attentionMask)      // [batch, seq, 384]
public struct TokenPooling: Sendable, Equatable {
    /// The modes, concatenated in this order.
    public let modes: [PoolingMode]
    /// The width of each token embedding.
    public let hiddenSize: Int

    /// The width of each pooled vector: one `hiddenSize` block per mode.
    public var outputSize: Int { modes.count * hiddenSize }

    /// Pooling of `hiddenSize`-wide token embeddings by `modes`.
    public init(modes: [PoolingMode], hiddenSize: Int) {
        precondition(hiddenSize >= 0, "TokenPooling: hidden size \(hiddenSize)")
        self.modes = modes
        self.hiddenSize = hiddenSize
    }

    /// Pools sequence `row` of `tokens` (`[rows · sequenceLength, hiddenSize]`, row-major) into `output`
    /// (``outputSize`` floats). The row is right-padded: its first `length` tokens are real.
    ///
    ///     pooling.pool(hidden, row: 2, sequenceLength: 16, length: 9, into: sentence)
    public func pool(_ tokens: UnsafePointer<Float>, row: Int, sequenceLength: Int, length: Int,
                     into output: UnsafeMutablePointer<Float>) {
        precondition(length >= 0 && length <= sequenceLength, "TokenPooling: length \(length) of a \(sequenceLength)-token row")
        forward(tokens + row * sequenceLength * hiddenSize, AttendedTokens(mask: nil, positions: length), into: output)
    }

    /// The pooled vectors `[batch, outputSize]` of `hiddenStates` (`[batch, sequence, hiddenSize]`);
    /// `attentionMask` (`batch × sequence`, row-major, as `EncoderBatch.attentionMask` holds it) is 1
    /// for real tokens and 0 for padding.
    ///
    ///     let sentences = pooling(hidden, attentionMask: [1, 1, 1, 1, 1, 0])   // two rows of 3
    public func callAsFunction(_ hiddenStates: Tensor<Float>, attentionMask: [Int32]) -> Tensor<Float> {
        let (batch, sequence) = checkShapes(hiddenStates, attentionMask, "TokenPooling")
        let hidden = hiddenStates.contiguous()
        var pooled = Tensor<Float>(shape: [batch, outputSize])
        hidden.withUnsafeBufferPointer { tokens in
            attentionMask.withUnsafeBufferPointer { mask in
                pooled.withUnsafeMutableBufferPointer { output in
                    guard let tokens = tokens.baseAddress, let mask = mask.baseAddress, let output = output.baseAddress else { return }
                    for row in 0..<batch {
                        forward(tokens + row * sequence * hiddenSize, AttendedTokens(mask: mask + row * sequence, positions: sequence),
                                into: output + row * outputSize)
                    }
                }
            }
        }
        return pooled
    }

    /// d(loss)/d(hiddenStates) (`[batch, sequence, hiddenSize]`, zero on padding except where `cls` reads
    /// it) from d(loss)/d(pooled) (`[batch, outputSize]`), for the `hiddenStates` and `attentionMask`
    /// of the forward pass (max pooling finds its positions again from them).
    ///
    ///     let dHidden = pooling.backward(outputGradient: dSentences, hiddenStates: hidden, attentionMask: mask)
    public func backward(outputGradient: Tensor<Float>, hiddenStates: Tensor<Float>, attentionMask: [Int32]) -> Tensor<Float> {
        let (batch, sequence) = checkShapes(hiddenStates, attentionMask, "TokenPooling.backward")
        precondition(outputGradient.shape == [batch, outputSize],
                     "TokenPooling.backward: output gradient \(outputGradient.shape) for [\(batch), \(outputSize)]")
        let hidden = hiddenStates.contiguous(), dPooled = outputGradient.contiguous()
        var dHidden = Tensor<Float>(shape: hiddenStates.shape)
        hidden.withUnsafeBufferPointer { tokens in
            attentionMask.withUnsafeBufferPointer { mask in
                dPooled.withUnsafeBufferPointer { dPooled in
                    dHidden.withUnsafeMutableBufferPointer { dTokens in
                        guard let tokens = tokens.baseAddress, let mask = mask.baseAddress, let dPooled = dPooled.baseAddress,
                              let dTokens = dTokens.baseAddress else { return }
                        for row in 0..<batch {
                            let offset = row * sequence * hiddenSize
                            backward(dPooled + row * outputSize, tokens: tokens + offset,
                                     AttendedTokens(mask: mask + row * sequence, positions: sequence), into: dTokens + offset)
                        }
                    }
                }
            }
        }
        return dHidden
    }

    /// The real tokens of one row: all of its first `positions` when there is no mask (right padding),
    /// else those among them whose mask is not 0.
    struct AttendedTokens {
        let mask: UnsafePointer<Int32>?
        let positions: Int

        @inline(__always) func contains(_ position: Int) -> Bool { mask.map { $0[position] != 0 } ?? true }

        var first: Int? { (0..<positions).first(where: contains) }
        var last: Int? { (0..<positions).last(where: contains) }
    }

    /// The value padding takes in max pooling: a row without real tokens pools to it.
    static let maskedMaximum: Float = -1e9

    /// The weight of position `t` in the mean modes' sum.
    @inline(__always) private static func weight(_ mode: PoolingMode, position: Int) -> Float {
        mode == .weightedMean ? Float(position + 1) : 1
    }

    /// 1 / the mean modes' denominator: the weight sum (its square root for `meanSqrtLength`), at least 1e-9.
    private func meanScale(_ mode: PoolingMode, _ attended: AttendedTokens) -> Float {
        var weightSum: Float = 0
        for t in 0..<attended.positions where attended.contains(t) { weightSum += Self.weight(mode, position: t) }
        let denominator = mode == .meanSqrtLength ? weightSum.squareRoot() : weightSum
        return 1 / Swift.max(denominator, 1e-9)
    }

    /// Pools one row (`first` points at its first token) into `output`.
    private func forward(_ first: UnsafePointer<Float>, _ attended: AttendedTokens, into output: UnsafeMutablePointer<Float>) {
        let h = hiddenSize
        for (index, mode) in modes.enumerated() {
            let target = output + index * h
            switch mode {
            case .cls:
                target.update(from: first, count: h)
            case .lastToken:
                if let last = attended.last { target.update(from: first + last * h, count: h) } else { target.update(repeating: 0, count: h) }
            case .max:
                guard let start = attended.first else {
                    target.update(repeating: Self.maskedMaximum, count: h)
                    break
                }
                target.update(from: first + start * h, count: h)
                // Strictly greater: the first position holding the maximum wins, as torch.max's index.
                for t in (start + 1)..<Swift.max(attended.positions, start + 1) where attended.contains(t) {
                    let token = first + t * h
                    for c in 0..<h where token[c] > target[c] { target[c] = token[c] }
                }
            case .mean, .meanSqrtLength, .weightedMean:
                target.initialize(repeating: 0, count: h)
                for t in 0..<attended.positions where attended.contains(t) {
                    let weight = Self.weight(mode, position: t)
                    let token = first + t * h
                    for c in 0..<h { target[c] += weight * token[c] }
                }
                let scale = meanScale(mode, attended)
                for c in 0..<h { target[c] *= scale }
            }
        }
    }

    /// Adds one row's token gradients (`dTokens`, zeroed by the caller) from its pooled gradient `dPooled`.
    private func backward(_ dPooled: UnsafePointer<Float>, tokens first: UnsafePointer<Float>, _ attended: AttendedTokens,
                          into dTokens: UnsafeMutablePointer<Float>) {
        let h = hiddenSize
        for (index, mode) in modes.enumerated() {
            let gradient = dPooled + index * h
            switch mode {
            case .cls:
                for c in 0..<h { dTokens[c] += gradient[c] }
            case .lastToken:
                guard let last = attended.last else { break }
                let target = dTokens + last * h
                for c in 0..<h { target[c] += gradient[c] }
            case .max:
                guard let start = attended.first else { break }
                for c in 0..<h {
                    var best = start
                    for t in (start + 1)..<Swift.max(attended.positions, start + 1)
                    where attended.contains(t) && first[t * h + c] > first[best * h + c] { best = t }
                    dTokens[best * h + c] += gradient[c]
                }
            case .mean, .meanSqrtLength, .weightedMean:
                let scale = meanScale(mode, attended)
                for t in 0..<attended.positions where attended.contains(t) {
                    let factor = Self.weight(mode, position: t) * scale
                    let target = dTokens + t * h
                    for c in 0..<h { target[c] += factor * gradient[c] }
                }
            }
        }
    }

    private func checkShapes(_ hiddenStates: Tensor<Float>, _ attentionMask: [Int32], _ caller: String) -> (batch: Int, sequence: Int) {
        precondition(hiddenStates.rank == 3 && hiddenStates.shape[2] == hiddenSize,
                     "\(caller): hidden states \(hiddenStates.shape) for [batch, sequence, \(hiddenSize)]")
        let (batch, sequence) = (hiddenStates.shape[0], hiddenStates.shape[1])
        precondition(attentionMask.count == batch * sequence,
                     "\(caller): \(attentionMask.count) mask values for [\(batch), \(sequence)] tokens")
        return (batch, sequence)
    }
}
