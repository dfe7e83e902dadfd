import Foundation
import NLUCore
import NLUInputOutput

/// Trains a ``LinearChainCRF`` by minimizing crfsuite's objective: the negative log-likelihood of the
/// training labellings plus `c2 · ‖w‖²` (L-BFGS), and `c1 · ‖w‖₁` when `c1 > 0` (OWL-QN).
///
/// As crfsuite by default, the state features are the (attribute, label) pairs seen in training; all
/// `labels²` transitions are features (crfsuite's `feature.possible_transitions`).
///
///     let crf = try CRFTrainer(sequences: [(attributes: [["w=radio"]], labels: ["B-device"])]).train(options: .init())
struct CRFTrainer {
    /// Regularization and stopping.
    struct Options: Sendable {
        var c1 = 0.0
        var c2 = 0.1
        var maxIterations = 1000
        var epsilon = 1e-5
        var delta = 1e-5
        var period = 10
    }

    /// Sequences sharing a length bucket, laid out for the batched forward-backward.
    private struct Batch {
        /// Sequence indices, longest first.
        var members: [Int]
        var maxLength: Int
        /// The tokens of all members.
        var tokenCount: Int
    }

    let crfTemplate: LinearChainCRF
    private let sequences: [[[Int32]]]
    private let goldLabels: [[Int]]
    /// Empirical feature counts: the gradient's constant part.
    private let observed: [Double]
    private let batches: [Batch]

    /// Collects attributes, labels and the observed state features of the training sequences
    /// (token attributes by name, one label name per token). Empty sequences are skipped.
    init(sequences examples: [(attributes: [[String]], labels: [String])]) throws {
        var attributeIndex: [String: Int32] = [:], attributes: [String] = []
        var labelIndex: [String: Int] = [:], labels: [String] = []
        var sequences: [[[Int32]]] = [], goldLabels: [[Int]] = []
        var pairs = Set<Int64>()
        for example in examples where !example.attributes.isEmpty {
            guard example.attributes.count == example.labels.count else {
                throw EntityTaggerError.invalidModel("a training sequence has \(example.attributes.count) tokens but \(example.labels.count) labels")
            }
            var sequence: [[Int32]] = [], gold: [Int] = []
            for (names, labelName) in zip(example.attributes, example.labels) {
                let label: Int
                if let known = labelIndex[labelName] { label = known } else {
                    label = labels.count
                    labelIndex[labelName] = label
                    labels.append(labelName)
                }
                var ids: [Int32] = []
                for name in names {
                    let id: Int32
                    if let known = attributeIndex[name] { id = known } else {
                        id = Int32(attributes.count)
                        attributeIndex[name] = id
                        attributes.append(name)
                    }
                    ids.append(id)
                    pairs.insert(Int64(id) << 20 | Int64(label))
                }
                sequence.append(ids)
                gold.append(label)
            }
            sequences.append(sequence)
            goldLabels.append(gold)
        }
        guard !labels.isEmpty else { throw EntityTaggerError.noTrainingData("no training sequence has a token") }
        guard labels.count < (1 << 20) else { throw EntityTaggerError.invalidModel("too many labels (\(labels.count))") }
        try Self.checkMemory(labelCount: labels.count)
        let features = pairs.map { (Int($0 >> 20), Int($0 & 0xFFFFF), 0.0) }
        let crf = try LinearChainCRF(labels: labels, attributes: attributes, stateFeatures: features,
                                     transitions: [Double](repeating: 0, count: labels.count * labels.count))
        // Empirical counts, in the CRF's parameter layout.
        var observed = [Double](repeating: 0, count: crf.weights.count)
        let labelCount = labels.count
        for (sequence, gold) in zip(sequences, goldLabels) {
            for (t, ids) in sequence.enumerated() {
                for a in ids {
                    for k in Int(crf.attributeOffsets[Int(a)])..<Int(crf.attributeOffsets[Int(a) + 1]) where Int(crf.featureLabels[k]) == gold[t] {
                        observed[k] += 1
                    }
                }
                if t > 0 { observed[crf.stateFeatureCount + gold[t - 1] * labelCount + gold[t]] += 1 }
            }
        }
        // Longest first, in batches of similar lengths: at step t the sequences still running are a prefix.
        let order = sequences.indices.sorted { sequences[$0].count != sequences[$1].count ? sequences[$0].count > sequences[$1].count : $0 < $1 }
        var batches: [Batch] = []
        var start = 0
        // Batches small enough that a GEMM of batch × labels × labels stays on the calling thread in
        // OpenBLAS (at most 2^18 multiply-adds, its multithreading threshold): the thread groups of
        // negativeLogLikelihood then do not contend for OpenBLAS's threads (Snips, 79 labels: 42 sequences).
        let batchSize = max(8, min(256, (1 << 18) / max(1, labels.count * labels.count)))
        while start < order.count {
            let members = Array(order[start..<min(order.count, start + batchSize)])
            batches.append(Batch(members: members, maxLength: sequences[members[0]].count,
                                 tokenCount: members.reduce(0) { $0 + sequences[$1].count }))
            start += batchSize
        }
        self.crfTemplate = crf
        self.sequences = sequences
        self.goldLabels = goldLabels
        self.observed = observed
        self.batches = batches
    }

    /// How many vectors of all the weights training holds at once, about: the weights, the observed
    /// counts, a gradient per thread, L-BFGS's current and previous point, gradient and direction and its
    /// history of 6 pairs.
    static let weightVectorsInTraining = 24

    /// Refuses, before allocating them, tag-pair weights that training could not hold in half of the
    /// memory: every pair of the `labelCount` tags has a weight, so a dataset whose annotations name 10,000
    /// entities (20,001 tags) asks for 4·10⁸ weights, 77 GB in training, and the process was killed.
    static func checkMemory(labelCount: Int) throws {
        let budget = InputLimits.physicalMemory / 2
        let bytes = InputLimits.product([labelCount, labelCount, weightVectorsInTraining, MemoryLayout<Double>.size])
        guard let bytes, bytes <= budget else {
            throw EntityTaggerError.tooManyTags(file: nil, count: labelCount, neededMiB: (bytes ?? Int.max) >> 20, budgetMiB: budget >> 20)
        }
    }

    /// The number of training sequences (empty ones not counted).
    var sequenceCount: Int { sequences.count }

    /// Minimizes the regularized negative log-likelihood; `progress(iteration, loss)` after each iteration.
    func train(options: Options, progress: (Int, Double) -> Void = { _, _ in }) -> (crf: LinearChainCRF, loss: Double, iterations: Int) {
        var minimizerOptions = LBFGSMinimizer.Options()
        minimizerOptions.l1 = options.c1
        minimizerOptions.maxIterations = options.maxIterations
        minimizerOptions.epsilon = options.epsilon
        minimizerOptions.delta = options.delta
        minimizerOptions.period = options.period
        let result = LBFGSMinimizer(options: minimizerOptions).minimize(start: crfTemplate.weights, progress: progress) { w, gradient in
            var value = negativeLogLikelihood(w, gradient: &gradient)
            if options.c2 > 0 {
                for i in w.indices {
                    value += options.c2 * w[i] * w[i]
                    gradient[i] += 2 * options.c2 * w[i]
                }
            }
            return value
        }
        var crf = crfTemplate
        crf.weights = result.x
        return (crf, result.value, result.iterations)
    }

    /// The objective (regularization included) at `weights`, for tests.
    func objective(_ weights: [Double], options: Options) -> Double {
        var gradient = [Double](repeating: 0, count: weights.count)
        var value = negativeLogLikelihood(weights, gradient: &gradient)
        for w in weights { value += options.c2 * w * w + options.c1 * abs(w) }
        return value
    }

    /// `Σ_i (log Z(x_i) − score(y_i))` and its gradient (expected minus observed feature counts), by a
    /// forward-backward batched over sequences: each step of α and β is one GEMM over the batch's
    /// running sequences, and the expected transition counts one GEMM per step. The batches are split
    /// into one group per kernel thread (``Kernels/threadCount``, `NLUKIT_THREADS`), each with its own
    /// buffers and partial gradient, summed at the end: on 2 cores the objective takes about half the time.
    func negativeLogLikelihood(_ weights: [Double], gradient: inout [Double]) -> Double {
        let labelCount = crfTemplate.labelCount
        let stateCount = crfTemplate.stateFeatureCount
        var crf = crfTemplate
        crf.weights = weights
        let expTransition = weights[stateCount...].map { Foundation.exp($0) }
        for i in gradient.indices { gradient[i] = -observed[i] }
        var loss = 0.0
        for k in observed.indices where observed[k] != 0 { loss -= observed[k] * weights[k] }
        // Contiguous groups of batches with about the same number of tokens each.
        let groupCount = max(1, min(Kernels.threadCount, batches.count))
        let totalTokens = batches.reduce(0) { $0 + $1.tokenCount }
        var groups = [[Int]](repeating: [], count: groupCount)
        var cumulative = 0
        for (index, batch) in batches.enumerated() {
            groups[min(groupCount - 1, cumulative * groupCount / max(1, totalTokens))].append(index)
            cumulative += batch.tokenCount
        }
        var partials = [(loss: Double, gradient: [Double], pairs: [Double])](repeating: (0, [], []), count: groupCount)
        partials.withUnsafeMutableBufferPointer { partials in
            // Each task writes only its own slot.
            Kernels.parallelFor(groupCount) { group in
                var partialGradient = [Double](repeating: 0, count: gradient.count)
                var pairs = [Double](repeating: 0, count: labelCount * labelCount)
                let partialLoss = accumulate(batches: groups[group], crf: crf, expTransition: expTransition,
                                             gradient: &partialGradient, pairCounts: &pairs)
                partials[group] = (partialLoss, partialGradient, pairs)
            }
        }
        var pairCounts = [Double](repeating: 0, count: labelCount * labelCount)
        for partial in partials {
            loss += partial.loss
            for i in gradient.indices where partial.gradient[i] != 0 { gradient[i] += partial.gradient[i] }
            for i in pairCounts.indices { pairCounts[i] += partial.pairs[i] }
        }
        for i in 0..<(labelCount * labelCount) { gradient[stateCount + i] += expTransition[i] * pairCounts[i] }
        return loss
    }

    /// The forward-backward of `batchIndices`: adds their `log Z` and shifts to the returned loss, their
    /// expected state-feature counts to `gradient`, and their expected transition counts (before the
    /// `⊙ Ψ`) to `pairCounts`.
    private func accumulate(batches batchIndices: [Int], crf: LinearChainCRF, expTransition: [Double],
                            gradient: inout [Double], pairCounts: inout [Double]) -> Double {
        let labelCount = crf.labelCount
        var loss = 0.0
        let maxBatch = batchIndices.map { batches[$0].members.count }.max() ?? 0
        let maxLength = batchIndices.map { batches[$0].maxLength }.max() ?? 0
        let capacity = maxBatch * maxLength * labelCount
        var expState = [Double](repeating: 0, count: capacity)
        var alpha = [Double](repeating: 0, count: capacity)
        var beta = [Double](repeating: 0, count: capacity)
        var carried = [Double](repeating: 0, count: capacity)   // φ_t ⊙ β̂_t
        var scale = [Double](repeating: 0, count: maxBatch * maxLength)

        for batch in batchIndices.map({ batches[$0] }) {
            let size = batch.members.count, length = batch.maxLength
            let step = size * labelCount
            // active[t]: how many sequences (a prefix) have a token at t.
            var active = [Int](repeating: 0, count: length)
            for (b, member) in batch.members.enumerated() { for t in 0..<sequences[member].count { active[t] = max(active[t], b + 1) } }
            // Potentials, shifted by each row's maximum (the shift is part of log Z).
            for (b, member) in batch.members.enumerated() {
                let scores = crf.stateScores(sequences[member])
                for t in 0..<sequences[member].count {
                    let base = t * step + b * labelCount
                    var shift = -Double.infinity
                    for j in 0..<labelCount { shift = max(shift, scores[t * labelCount + j]) }
                    loss += shift
                    for j in 0..<labelCount { expState[base + j] = Foundation.exp(scores[t * labelCount + j] - shift) }
                }
            }
            expState.withUnsafeMutableBufferPointer { phi in
            alpha.withUnsafeMutableBufferPointer { alpha in
            beta.withUnsafeMutableBufferPointer { beta in
            carried.withUnsafeMutableBufferPointer { carried in
            expTransition.withUnsafeBufferPointer { psi in
            pairCounts.withUnsafeMutableBufferPointer { pairs in
                guard let phi = phi.baseAddress, let alpha = alpha.baseAddress, let beta = beta.baseAddress,
                      let carried = carried.baseAddress, let psi = psi.baseAddress, let pairs = pairs.baseAddress else { return }
                // Forward.
                for t in 0..<length {
                    let rows = active[t], base = t * step
                    if t == 0 {
                        alpha.update(from: phi, count: rows * labelCount)
                    } else {
                        BLAS.dgemm(.none, .none, m: rows, n: labelCount, k: labelCount, a: alpha + (base - step), lda: labelCount,
                                   b: psi, ldb: labelCount, c: alpha + base, ldc: labelCount)
                        for i in 0..<(rows * labelCount) { alpha[base + i] *= phi[base + i] }
                    }
                    for b in 0..<rows {
                        var sum = 0.0
                        for j in 0..<labelCount { sum += alpha[base + b * labelCount + j] }
                        let c = sum > 0 ? 1 / sum : 1
                        scale[t * size + b] = c
                        for j in 0..<labelCount { alpha[base + b * labelCount + j] *= c }
                    }
                }
                // Backward; sequences ending at t start with β̂ = c_t.
                for t in stride(from: length - 1, through: 0, by: -1) {
                    let rows = active[t], base = t * step
                    let continuing = t + 1 < length ? active[t + 1] : 0
                    if continuing > 0 {
                        let next = base + step
                        for i in 0..<(continuing * labelCount) { carried[next + i] = phi[next + i] * beta[next + i] }
                        BLAS.dgemm(.none, .transpose, m: continuing, n: labelCount, k: labelCount, a: carried + next, lda: labelCount,
                                   b: psi, ldb: labelCount, c: beta + base, ldc: labelCount)
                        for b in 0..<continuing {
                            let c = scale[t * size + b]
                            for j in 0..<labelCount { beta[base + b * labelCount + j] *= c }
                        }
                        // Expected transition counts before the ⊙ Ψ: Σ_b α̂_t[b]ᵀ (φ_{t+1} ⊙ β̂_{t+1})[b].
                        BLAS.dgemm(.transpose, .none, m: labelCount, n: labelCount, k: continuing, a: alpha + base, lda: labelCount,
                                   b: carried + next, ldb: labelCount, beta: 1, c: pairs, ldc: labelCount)
                    }
                    for b in continuing..<rows {
                        let c = scale[t * size + b]
                        for j in 0..<labelCount { beta[base + b * labelCount + j] = c }
                    }
                }
            }}}}}}
            // log Z and expected state-feature counts from the marginals α̂β̂/c.
            for (b, member) in batch.members.enumerated() {
                let sequence = sequences[member]
                for t in 0..<sequence.count {
                    let c = scale[t * size + b]
                    loss -= Foundation.log(c)
                    let base = t * step + b * labelCount
                    crf.attributeOffsets.withUnsafeBufferPointer { offsets in
                        crf.featureLabels.withUnsafeBufferPointer { labelOf in
                            gradient.withUnsafeMutableBufferPointer { g in
                                for a in sequence[t] {
                                    for k in Int(offsets[Int(a)])..<Int(offsets[Int(a) + 1]) {
                                        let j = base + Int(labelOf[k])
                                        g[k] += alpha[j] * beta[j] / c
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return loss
    }
}
