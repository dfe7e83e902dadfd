import Foundation

/// A first-order linear-chain conditional random field with crfsuite's CRF1d semantics: binary
/// attributes per token, a state weight per (attribute, label) pair that occurred in training, and a
/// transition weight per (previous label, label) pair; no start or end transitions.
///
/// A labelling `y` of a sequence scores `Σ_t Σ_{a ∈ x_t} w(a, y_t) + Σ_{t>0} τ(y_{t-1}, y_t)` and has
/// probability `exp(score − log Z)`. ``viterbi(_:)`` finds the best labelling; ``lattice(_:)`` runs
/// forward-backward for marginals.
///
///     let crf = try LinearChainCRF(labels: ["O", "B-device"], attributes: ["w=radio"],
///                                  stateFeatures: [(0, 1, 2.0)], transitions: [0, 0, 0, 0])
///     let path = crf.viterbi(crf.attributeIDs([["w=radio"]])).labels   // [1]
public struct LinearChainCRF: Sendable {
    /// Label names by index.
    public let labels: [String]
    /// Attribute names by index.
    public let attributes: [String]
    let attributeIndex: [String: Int32]
    /// State features of attribute `a` are `attributeOffsets[a] ..< attributeOffsets[a + 1]`.
    let attributeOffsets: [Int32]
    /// The label of each state feature.
    let featureLabels: [Int32]
    /// State weights (one per state feature) followed by the `labels.count²` transition weights,
    /// row = previous label: one contiguous parameter vector, as the optimizer sees it.
    var weights: [Double]

    /// The number of labels.
    public var labelCount: Int { labels.count }
    /// The number of state features (observed (attribute, label) pairs).
    public var stateFeatureCount: Int { featureLabels.count }

    /// Builds a CRF from its parts; `stateFeatures` are (attribute index, label index, weight) in any
    /// order, `transitions` the `labels.count²` transition weights, row = previous label.
    /// - Throws: ``EntityTaggerError/invalidModel(_:)`` for indices out of range or wrong sizes.
    public init(labels: [String], attributes: [String], stateFeatures: [(Int, Int, Double)], transitions: [Double]) throws {
        let labelCount = labels.count
        guard labelCount >= 1 else { throw EntityTaggerError.invalidModel("a CRF needs at least one label") }
        guard transitions.count == labelCount * labelCount else {
            throw EntityTaggerError.invalidModel("expected \(labelCount * labelCount) transition weights for \(labelCount) labels, got \(transitions.count)")
        }
        var perAttribute = [[(Int32, Double)]](repeating: [], count: attributes.count)
        for (attribute, label, weight) in stateFeatures {
            guard attributes.indices.contains(attribute), labels.indices.contains(label) else {
                throw EntityTaggerError.invalidModel("state feature (\(attribute), \(label)) outside \(attributes.count) attributes × \(labelCount) labels")
            }
            perAttribute[attribute].append((Int32(label), weight))
        }
        var offsets: [Int32] = [0]
        var featureLabels: [Int32] = []
        var weights: [Double] = []
        for features in perAttribute {
            for (label, weight) in features.sorted(by: { $0.0 < $1.0 }) {
                featureLabels.append(label)
                weights.append(weight)
            }
            offsets.append(Int32(featureLabels.count))
        }
        try self.init(labels: labels, attributes: attributes, attributeOffsets: offsets, featureLabels: featureLabels,
                      weights: weights + transitions)
    }

    /// Builds a CRF from its flat arrays (as stored), checking them.
    init(labels: [String], attributes: [String], attributeOffsets: [Int32], featureLabels: [Int32], weights: [Double]) throws {
        guard attributeOffsets.count == attributes.count + 1, attributeOffsets.first == 0,
              attributeOffsets.last.map(Int.init) == featureLabels.count,
              zip(attributeOffsets, attributeOffsets.dropFirst()).allSatisfy({ $0 <= $1 }) else {
            throw EntityTaggerError.invalidModel("attribute offsets must rise from 0 to the \(featureLabels.count) state features, one per attribute plus one")
        }
        guard featureLabels.allSatisfy({ $0 >= 0 && Int($0) < labels.count }) else {
            throw EntityTaggerError.invalidModel("a state feature's label is outside the \(labels.count) labels")
        }
        guard weights.count == featureLabels.count + labels.count * labels.count, weights.allSatisfy(\.isFinite) else {
            throw EntityTaggerError.invalidModel("expected \(featureLabels.count + labels.count * labels.count) finite weights, got \(weights.count)")
        }
        var index: [String: Int32] = [:]
        index.reserveCapacity(attributes.count)
        for (position, name) in attributes.enumerated() {
            guard index.updateValue(Int32(position), forKey: name) == nil else {
                throw EntityTaggerError.invalidModel("attribute '\(name)' is listed twice")
            }
        }
        self.labels = labels
        self.attributes = attributes
        self.attributeIndex = index
        self.attributeOffsets = attributeOffsets
        self.featureLabels = featureLabels
        self.weights = weights
    }

    /// This CRF without the state features whose weight is at most `threshold` in magnitude, and
    /// without the attributes left with no state feature: L1 training (OWL-QN) sets most weights to
    /// exactly 0, and a feature of weight 0 adds nothing to any score, so `threshold: 0` changes no
    /// prediction. Transitions are all kept.
    public func pruned(threshold: Double = 0) -> LinearChainCRF {
        var keptAttributes: [String] = []
        var offsets: [Int32] = [0]
        var keptLabels: [Int32] = []
        var keptWeights: [Double] = []
        for (a, name) in attributes.enumerated() {
            let range = Int(attributeOffsets[a])..<Int(attributeOffsets[a + 1])
            let survivors = range.filter { abs(weights[$0]) > threshold }
            guard !survivors.isEmpty else { continue }
            keptAttributes.append(name)
            for k in survivors {
                keptLabels.append(featureLabels[k])
                keptWeights.append(weights[k])
            }
            offsets.append(Int32(keptLabels.count))
        }
        // The parts come from a valid CRF, filtered in order: the checks of the stored form cannot fail.
        guard let result = try? LinearChainCRF(labels: labels, attributes: keptAttributes, attributeOffsets: offsets,
                                               featureLabels: keptLabels,
                                               weights: keptWeights + weights[featureLabels.count...]) else { return self }
        return result
    }

    /// The weight of the transition `previous → label`.
    public func transitionWeight(from previous: Int, to label: Int) -> Double {
        weights[featureLabels.count + previous * labelCount + label]
    }

    /// The weight of state feature (attribute name, label index), 0 when the pair is not a feature.
    public func stateWeight(attribute: String, label: Int) -> Double {
        guard let a = attributeIndex[attribute] else { return 0 }
        for k in Int(attributeOffsets[Int(a)])..<Int(attributeOffsets[Int(a) + 1]) where Int(featureLabels[k]) == label {
            return weights[k]
        }
        return 0
    }

    /// Attribute names per token → attribute indices per token; names the model does not know are dropped.
    public func attributeIDs(_ tokens: [[String]]) -> [[Int32]] {
        tokens.map { names in names.compactMap { attributeIndex[$0] } }
    }

    /// The state scores of a sequence, `T × labelCount` row-major.
    func stateScores(_ sequence: [[Int32]]) -> [Double] {
        let labelCount = self.labelCount
        var scores = [Double](repeating: 0, count: sequence.count * labelCount)
        // Hot in training and tagging: raw pointers, no bounds checks inside the feature loops.
        weights.withUnsafeBufferPointer { w in
            featureLabels.withUnsafeBufferPointer { labelOf in
                attributeOffsets.withUnsafeBufferPointer { offsets in
                    scores.withUnsafeMutableBufferPointer { s in
                        for (t, attributes) in sequence.enumerated() {
                            let row = t * labelCount
                            for a in attributes {
                                for k in Int(offsets[Int(a)])..<Int(offsets[Int(a) + 1]) { s[row + Int(labelOf[k])] += w[k] }
                            }
                        }
                    }
                }
            }
        }
        return scores
    }

    /// The best labelling of a sequence (attribute indices per token) and its score.
    public func viterbi(_ sequence: [[Int32]]) -> (labels: [Int], score: Double) {
        Self.viterbi(stateScores: stateScores(sequence), length: sequence.count, labelCount: labelCount,
                     transitions: weights[featureLabels.count...])
    }

    /// The best labelling and its score given the state scores of a sequence (`length × labelCount`,
    /// row-major) and the `labelCount²` transition weights (row = previous label). Ties go to the
    /// lowest label, as `torch.max` resolves them. Shared by every CRF of the package: the feature CRF
    /// above and the transition layer of the joint model (``CRFLayer``).
    static func viterbi<Transitions: RandomAccessCollection>(stateScores state: [Double], length: Int, labelCount: Int,
                                                             transitions: Transitions) -> (labels: [Int], score: Double)
        where Transitions.Element == Double, Transitions.Index == Int {
        guard length > 0, labelCount > 0 else { return ([], 0) }
        let transitionBase = transitions.startIndex
        var best = Array(state[0..<labelCount])
        var back = [Int32](repeating: 0, count: length * labelCount)
        var next = [Double](repeating: 0, count: labelCount)
        for t in 1..<length {
            for j in 0..<labelCount {
                var bestScore = -Double.infinity, bestPrevious = 0
                for i in 0..<labelCount {
                    let candidate = best[i] + transitions[transitionBase + i * labelCount + j]
                    if candidate > bestScore { bestScore = candidate; bestPrevious = i }
                }
                next[j] = bestScore + state[t * labelCount + j]
                back[t * labelCount + j] = Int32(bestPrevious)
            }
            swap(&best, &next)
        }
        var last = 0
        for j in 1..<labelCount where best[j] > best[last] { last = j }
        var path = [Int](repeating: 0, count: length)
        path[length - 1] = last
        for t in stride(from: length - 1, to: 0, by: -1) { path[t - 1] = Int(back[t * labelCount + path[t]]) }
        return (path, best[last])
    }

    /// The score of labelling `path` for `sequence`.
    public func score(_ sequence: [[Int32]], path: [Int]) -> Double {
        let state = stateScores(sequence)
        var total = 0.0
        for (t, label) in path.enumerated() {
            total += state[t * labelCount + label]
            if t > 0 { total += transitionWeight(from: path[t - 1], to: label) }
        }
        return total
    }

    /// Forward-backward over `sequence`: marginals, path and span probabilities.
    public func lattice(_ sequence: [[Int32]]) -> CRFLattice {
        CRFLattice(crf: self, stateScores: stateScores(sequence), length: sequence.count)
    }
}
