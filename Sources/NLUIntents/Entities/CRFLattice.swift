import Foundation

/// Forward-backward of one sequence under a ``LinearChainCRF``, in scaled probability space as crfsuite
/// does it: `α̂_t = c_t · (α̂_{t−1} Ψ) ⊙ φ_t` with `c_t` normalizing each row, `β̂` likewise, so that
/// `P(y_t = j) = α̂_t[j] β̂_t[j] / c_t`. State potentials are shifted by their row maximum and transition
/// potentials by theirs before `exp` (the shifts go into `log Z`), so no score overflows.
///
///     let lattice = crf.lattice(sequence)
///     lattice.marginal(label: 3, at: 0)          // P(y_0 = 3 | x)
///     lattice.probability(of: [1, 2], from: 4)    // P(y_4 = 1, y_5 = 2 | x): an entity's confidence
public struct CRFLattice: Sendable {
    /// The number of tokens.
    public let length: Int
    /// The number of labels.
    public let labelCount: Int
    /// `log Z(x)`.
    public let logPartition: Double
    let expState: [Double]
    let expTransition: [Double]
    let alpha: [Double]
    let beta: [Double]
    let scale: [Double]
    let stateScores: [Double]
    let transitionScores: [Double]

    init(crf: LinearChainCRF, stateScores: [Double], length: Int) {
        self.init(stateScores: stateScores, transitionScores: Array(crf.weights[crf.stateFeatureCount...]),
                  length: length, labelCount: crf.labelCount)
    }

    /// The lattice of `length × labelCount` state scores (row-major) under `labelCount²` transition
    /// scores (row = previous label): any linear-chain CRF, whatever computes its state scores.
    init(stateScores: [Double], transitionScores: [Double], length: Int, labelCount: Int) {
        self.length = length
        self.labelCount = labelCount
        self.stateScores = stateScores
        self.transitionScores = transitionScores
        // Transitions are shifted by their maximum too: a weight above 709 (finite in a model file)
        // made exp infinite and every confidence NaN. Every path crosses length − 1 transitions.
        let transitionShift = transitionScores.max() ?? 0
        expTransition = transitionScores.map { Foundation.exp($0 - transitionShift) }
        var expState = [Double](repeating: 0, count: length * labelCount)
        var logPartition = Double(max(length - 1, 0)) * transitionShift
        for t in 0..<length {
            let row = stateScores[(t * labelCount)..<((t + 1) * labelCount)]
            let shift = row.max() ?? 0
            logPartition += shift
            for j in 0..<labelCount { expState[t * labelCount + j] = Foundation.exp(stateScores[t * labelCount + j] - shift) }
        }
        var alpha = [Double](repeating: 0, count: length * labelCount)
        var beta = [Double](repeating: 0, count: length * labelCount)
        var scale = [Double](repeating: 1, count: length)
        for t in 0..<length {
            var sum = 0.0
            for j in 0..<labelCount {
                var value = expState[t * labelCount + j]
                if t > 0 {
                    var incoming = 0.0
                    for i in 0..<labelCount { incoming += alpha[(t - 1) * labelCount + i] * expTransition[i * labelCount + j] }
                    value *= incoming
                }
                alpha[t * labelCount + j] = value
                sum += value
            }
            scale[t] = sum > 0 ? 1 / sum : 1
            for j in 0..<labelCount { alpha[t * labelCount + j] *= scale[t] }
            logPartition -= Foundation.log(scale[t])
        }
        if length > 0 {
            for j in 0..<labelCount { beta[(length - 1) * labelCount + j] = scale[length - 1] }
            for t in stride(from: length - 2, through: 0, by: -1) {
                for i in 0..<labelCount {
                    var sum = 0.0
                    for j in 0..<labelCount {
                        sum += expTransition[i * labelCount + j] * expState[(t + 1) * labelCount + j] * beta[(t + 1) * labelCount + j]
                    }
                    beta[t * labelCount + i] = sum * scale[t]
                }
            }
        }
        self.expState = expState
        self.alpha = alpha
        self.beta = beta
        self.scale = scale
        self.logPartition = logPartition
    }

    /// `P(y_t = label | x)`.
    public func marginal(label: Int, at t: Int) -> Double {
        alpha[t * labelCount + label] * beta[t * labelCount + label] / scale[t]
    }

    /// `P(y_{t−1} = previous, y_t = label | x)`, for `t` in `1 ..< length`.
    public func transitionMarginal(from previous: Int, to label: Int, at t: Int) -> Double {
        alpha[(t - 1) * labelCount + previous] * expTransition[previous * labelCount + label]
            * expState[t * labelCount + label] * beta[t * labelCount + label]
    }

    /// `P(y = path | x)` for a whole labelling.
    public func probability(of path: [Int]) -> Double {
        var score = 0.0
        for (t, label) in path.enumerated() {
            score += stateScores[t * labelCount + label]
            if t > 0 { score += transitionScores[path[t - 1] * labelCount + label] }
        }
        return Foundation.exp(score - logPartition)
    }

    /// `P(y_start ..< y_{start + labels.count} = labels | x)`: the probability that the span carries
    /// exactly these labels, whatever the rest (crfsuite's `marginal_path`).
    public func probability(of labels: [Int], from start: Int) -> Double {
        guard let first = labels.first, start >= 0, start + labels.count <= length else { return 0 }
        let end = start + labels.count - 1
        var value = alpha[start * labelCount + first]
        for t in (start + 1)..<(end + 1) where t <= end {
            value *= expTransition[labels[t - start - 1] * labelCount + labels[t - start]] * expState[t * labelCount + labels[t - start]]
            if t < end { value *= scale[t] }
        }
        value *= beta[end * labelCount + labels[labels.count - 1]]
        if start == end { value /= scale[start] }
        return value
    }
}
