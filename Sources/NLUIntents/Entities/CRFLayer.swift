import NLUCore

/// The CRF layer of a neural tagger, as `torchcrf.CRF` defines it: a score for starting with each
/// tag, for ending with each tag and for each pair of neighbouring tags, over emission scores that a
/// network computes per token. A tagging `y` of emissions `E` scores
/// `start[y₀] + Σ_t E[t, y_t] + Σ_{t>0} transitions[y_{t−1}, y_t] + end[y_{T−1}]`.
///
/// The math is ``LinearChainCRF``'s: the start and end scores fold into the first and last rows of
/// the state scores, after which the chain is the feature CRF's, so ``CRFLattice`` computes log Z and
/// the marginals that make the gradient, and `LinearChainCRF.viterbi` decodes.
///
///     var random = SplitMix64(seed: 1)
///     let crf = CRFLayer(tagCount: 5, using: &random)
///     let (loss, gradients) = crf.negativeLogLikelihood(emissions: scores, length: 3, tags: [0, 1, 2])
///     let best = crf.decode(emissions: scores, length: 3)
public struct CRFLayer: Sendable {
    /// `start_transitions`, [tags].
    public private(set) var startTransitions: Tensor<Float>
    /// `end_transitions`, [tags].
    public private(set) var endTransitions: Tensor<Float>
    /// `transitions`, [tags, tags], row = the previous tag.
    public private(set) var transitions: Tensor<Float>

    /// The number of tags.
    public var tagCount: Int { startTransitions.count }

    /// The parameters in `torchcrf`'s order (start, end, pairwise), as the optimizer sees them.
    public var tensors: [Tensor<Float>] {
        get { [startTransitions, endTransitions, transitions] }
        set {
            precondition(newValue.count == 3 && zip(newValue, tensors).allSatisfy { $0.shape == $1.shape },
                         "CRF layer: replacing tensors with other shapes")
            startTransitions = newValue[0]
            endTransitions = newValue[1]
            transitions = newValue[2]
        }
    }

    /// A fresh layer, initialized as `torchcrf` does: every score uniform in ±0.1.
    public init(tagCount: Int, using generator: inout SplitMix64) {
        func uniform(_ count: Int) -> [Float] { (0..<count).map { _ in Float.random(in: -0.1...0.1, using: &generator) } }
        startTransitions = Tensor(shape: [tagCount], scalars: uniform(tagCount))
        endTransitions = Tensor(shape: [tagCount], scalars: uniform(tagCount))
        transitions = Tensor(shape: [tagCount, tagCount], scalars: uniform(tagCount * tagCount))
    }

    /// A layer from stored scores.
    /// - Throws: ``EntityTaggerError/invalidModel(_:)`` when the shapes disagree or a score is not finite.
    public init(startTransitions: Tensor<Float>, endTransitions: Tensor<Float>, transitions: Tensor<Float>) throws {
        let tags = startTransitions.count
        guard tags >= 1, startTransitions.shape == [tags], endTransitions.shape == [tags], transitions.shape == [tags, tags] else {
            throw EntityTaggerError.invalidModel("CRF layer: start \(startTransitions.shape), end \(endTransitions.shape) and transitions "
                                                 + "\(transitions.shape) are not [tags], [tags], [tags, tags]")
        }
        guard (startTransitions.scalars + endTransitions.scalars + transitions.scalars).allSatisfy(\.isFinite) else {
            throw EntityTaggerError.invalidModel("CRF layer: a transition score is not finite")
        }
        self.startTransitions = startTransitions
        self.endTransitions = endTransitions
        self.transitions = transitions
    }

    /// d(loss)/d(each input) of ``negativeLogLikelihood(emissions:length:tags:)``.
    public struct Gradients: Sendable {
        /// [length, tags], row-major.
        public var emissions: [Double]
        /// [tags].
        public var startTransitions: [Double]
        /// [tags].
        public var endTransitions: [Double]
        /// [tags, tags], row = the previous tag.
        public var transitions: [Double]
    }

    /// `−log P(tags | emissions)` of one sequence of `length` tokens (`emissions` is `[length, tags]`,
    /// row-major) and its gradients: the marginal probabilities minus the observed counts.
    /// `torchcrf`'s `reduction="mean"` is the mean of this over the sequences of a batch.
    public func negativeLogLikelihood(emissions: [Double], length: Int, tags: [Int]) -> (loss: Double, gradients: Gradients) {
        let labels = tagCount
        precondition(length >= 1 && emissions.count == length * labels && tags.count == length
                     && tags.allSatisfy { (0..<labels).contains($0) }, "CRF layer: emissions, length and tags disagree")
        let state = stateScores(emissions, length: length)
        let pairwise = transitions.scalars.map(Double.init)
        let lattice = CRFLattice(stateScores: state, transitionScores: pairwise, length: length, labelCount: labels)
        var score = 0.0
        for (t, tag) in tags.enumerated() {
            score += state[t * labels + tag]
            if t > 0 { score += pairwise[tags[t - 1] * labels + tag] }
        }
        var dState = [Double](repeating: 0, count: length * labels)
        for t in 0..<length {
            for j in 0..<labels { dState[t * labels + j] = lattice.marginal(label: j, at: t) }
            dState[t * labels + tags[t]] -= 1
        }
        var dTransitions = [Double](repeating: 0, count: labels * labels)
        for t in 1..<max(length, 1) {
            for i in 0..<labels {
                for j in 0..<labels { dTransitions[i * labels + j] += lattice.transitionMarginal(from: i, to: j, at: t) }
            }
            dTransitions[tags[t - 1] * labels + tags[t]] -= 1
        }
        let gradients = Gradients(emissions: dState, startTransitions: Array(dState[0..<labels]),
                                  endTransitions: Array(dState[((length - 1) * labels)...]), transitions: dTransitions)
        return (lattice.logPartition - score, gradients)
    }

    /// The best tagging of `length` tokens' emissions (`[length, tags]`, row-major): `torchcrf`'s `decode`.
    public func decode(emissions: [Double], length: Int) -> [Int] {
        precondition(emissions.count == length * tagCount, "CRF layer: \(emissions.count) emissions for \(length) × \(tagCount)")
        guard length > 0 else { return [] }
        return LinearChainCRF.viterbi(stateScores: stateScores(emissions, length: length), length: length, labelCount: tagCount,
                                      transitions: transitions.scalars.map(Double.init)).labels
    }

    /// Forward-backward over `length` tokens' emissions: marginals and the probabilities of tag spans.
    public func lattice(emissions: [Double], length: Int) -> CRFLattice {
        precondition(emissions.count == length * tagCount, "CRF layer: \(emissions.count) emissions for \(length) × \(tagCount)")
        return CRFLattice(stateScores: length > 0 ? stateScores(emissions, length: length) : [],
                          transitionScores: transitions.scalars.map(Double.init), length: length, labelCount: tagCount)
    }

    /// The emissions with the start scores added to the first row and the end scores to the last.
    private func stateScores(_ emissions: [Double], length: Int) -> [Double] {
        var state = emissions
        let labels = tagCount, start = startTransitions.scalars, end = endTransitions.scalars
        for j in 0..<labels {
            state[j] += Double(start[j])
            state[(length - 1) * labels + j] += Double(end[j])
        }
        return state
    }
}
