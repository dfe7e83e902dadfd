import Foundation
import NLUCore
import NLUInputOutput
import NLUTransformers

/// What one epoch of training reports.
///
///     IntentClassifier.train(on: dataset) { print($0.epoch, $0.trainingLoss) }
public struct EpochReport: Sendable {
    /// 1-based epoch number.
    public var epoch: Int
    /// Mean training loss over the epoch's batches.
    public var trainingLoss: Float
    /// Validation accuracy, when a validation split is used.
    public var validationAccuracy: Double?
    /// Mean validation loss, when a validation split is used.
    public var validationLoss: Float?
    /// Whether this epoch is the best so far (the one whose weights are kept).
    public var isBest: Bool
}

/// Trains an ``IntentNetwork`` with mini-batch Adam on sparse inputs: the first layer's forward pass
/// and gradient only visit the rows of the features present in the batch (row-sparse Adam), the
/// dense layers go through `Linear`'s training products. Dropout on hidden activations, L2 weight decay, class-weighted
/// softmax cross-entropy, early stopping on a validation split (the best epoch's weights are kept).
/// Deterministic for a seed: the same data, options and seed give bit-identical weights.
struct NetworkTrainer {
    let inputDimension: Int
    let classCount: Int
    let options: TrainingOptions
    /// Layer widths after the input: hidden sizes, then the classes.
    private let widths: [Int]
    /// `weights[0]` is [features, hidden₀] (rows per feature); `weights[l]` for l ≥ 1 is [out, in].
    private var weights: [[Float]]
    private var biases: [[Float]]
    private var generator: SplitMix64

    init(inputDimension: Int, classCount: Int, options: TrainingOptions) {
        self.inputDimension = inputDimension
        self.classCount = classCount
        self.options = options
        widths = options.hiddenSizes + [classCount]
        generator = SplitMix64(seed: options.seed)
        weights = []
        biases = []
        var fanIn = inputDimension
        for width in widths {
            // Glorot uniform, as scikit-learn's MLP and Keras initialize.
            let limit = Float((6.0 / Double(fanIn + width)).squareRoot())
            weights.append((0..<(fanIn * width)).map { _ in (Self.uniform(&generator) * 2 - 1) * limit })
            biases.append([Float](repeating: 0, count: width))
            fanIn = width
        }
    }

    /// A uniform Float in [0, 1) from 24 random bits.
    static func uniform(_ generator: inout SplitMix64) -> Float {
        Float(generator.next() >> 40) * 0x1p-24
    }

    /// Trains on `examples` (feature vectors with class indices), holding out `validation` to pick the
    /// epoch. Returns the network of the best epoch.
    mutating func train(_ examples: [(SparseVector, Int)], validation: [(SparseVector, Int)], classWeights: [Float],
                        progress: (EpochReport) -> Void) throws -> IntentNetwork {
        let optimizers = makeOptimizers()
        var order = Array(examples.indices)
        // Validation loss picks the epoch: smoother than accuracy on small validation sets.
        var keeper = BestEpochKeeper(greaterIsBetter: false, patience: options.patience)
        var best: (weights: [[Float]], biases: [[Float]])?
        var workspace = Workspace(widths: widths, batchSize: options.batchSize, inputDimension: inputDimension)
        for epoch in 1...max(1, options.epochs) {
            order.shuffle(using: &generator)
            var lossSum: Float = 0
            var batches = 0
            var start = 0
            while start < order.count {
                let batch = order[start..<min(start + options.batchSize, order.count)].map { examples[$0] }
                start += options.batchSize
                let loss = step(batch, classWeights: classWeights, optimizers: optimizers, workspace: &workspace)
                guard loss.isFinite else {
                    throw TrainingDivergedError(epoch: epoch, loss: loss, learningRate: options.learningRate)
                }
                lossSum += loss
                batches += 1
            }
            var report = EpochReport(epoch: epoch, trainingLoss: lossSum / Float(max(1, batches)), isBest: true)
            if !validation.isEmpty {
                let (accuracy, loss) = evaluate(validation, workspace: &workspace)
                report.validationAccuracy = accuracy
                report.validationLoss = loss
                report.isBest = keeper.note(epoch: epoch, score: Double(loss))
                if report.isBest { best = (weights, biases) }
            }
            progress(report)
            if keeper.shouldStop(after: epoch) { break }
            // Ctrl-C during a stoppable run: keep the best epoch so far, as early stopping does.
            if Interruption.isRequested { break }
        }
        if let best {
            weights = best.weights
            biases = best.biases
        }
        return try network()
    }

    /// The optimizers: row-sparse Adam for the first layer's rows, NLUCore's Adam (PyTorch semantics)
    /// for the dense weights and for the biases (no weight decay on biases, as scikit-learn).
    struct Optimizers {
        let inputRows: RowSparseAdam
        let denseWeights: AdamOptimizer
        let biases: AdamOptimizer
    }

    private func makeOptimizers() -> Optimizers {
        Optimizers(inputRows: RowSparseAdam(count: inputDimension * widths[0], rowLength: widths[0],
                                            learningRate: options.learningRate, weightDecay: options.weightDecay),
                   denseWeights: AdamOptimizer(learningRate: options.learningRate, weightDecay: options.weightDecay),
                   biases: AdamOptimizer(learningRate: options.learningRate))
    }

    /// Replaces the initial weights (tests compare steps with PyTorch from the same start).
    mutating func setParameters(weights: [[Float]], biases: [[Float]]) {
        self.weights = weights
        self.biases = biases
    }

    /// The current weights and biases by layer.
    var parameters: (weights: [[Float]], biases: [[Float]]) { (weights, biases) }

    /// Runs `count` training steps on the same batch; returns each step's loss.
    mutating func steps(_ batch: [(SparseVector, Int)], classWeights: [Float], count: Int) -> [Float] {
        let optimizers = makeOptimizers()
        var workspace = Workspace(widths: widths, batchSize: max(options.batchSize, batch.count), inputDimension: inputDimension)
        return (0..<count).map { _ in step(batch, classWeights: classWeights, optimizers: optimizers, workspace: &workspace) }
    }

    /// The current weights as an inference network.
    func network() throws -> IntentNetwork {
        let hiddenCount = widths.count - 2
        var hiddenWeights: [Tensor<Float>] = [], hiddenBiases: [Tensor<Float>] = []
        for layer in 0..<max(0, hiddenCount) {
            hiddenWeights.append(Tensor(shape: [widths[layer + 1], widths[layer]], scalars: weights[layer + 1]))
            hiddenBiases.append(Tensor(shape: [widths[layer + 1]], scalars: biases[layer + 1]))
        }
        let last = widths.count - 1
        return try IntentNetwork(
            inputWeight: Tensor(shape: [inputDimension, widths[0]], scalars: weights[0]),
            inputBias: Tensor(shape: [widths[0]], scalars: biases[0]),
            hiddenWeights: hiddenWeights, hiddenBiases: hiddenBiases,
            outputWeight: Tensor(shape: [classCount, widths[last - 1]], scalars: weights[last]),
            outputBias: Tensor(shape: [classCount], scalars: biases[last]))
    }

    /// Buffers reused from batch to batch (activations, masks, gradients, the feature→slot map).
    struct Workspace {
        var activations: [[Float]]
        var masks: [[Float]]
        var gradients: [[Float]]
        var weightGradients: [[Float]]
        var biasGradients: [[Float]]
        var slotOfFeature: [Int32]
        var touchedFeatures: [Int32] = []
        var inputGradient: [Float] = []

        init(widths: [Int], batchSize: Int, inputDimension: Int) {
            activations = widths.map { [Float](repeating: 0, count: $0 * batchSize) }
            masks = activations
            gradients = activations
            var fanIn = inputDimension
            weightGradients = []
            for width in widths {
                weightGradients.append(fanIn == inputDimension && weightGradients.isEmpty ? [] : [Float](repeating: 0, count: fanIn * width))
                fanIn = width
            }
            biasGradients = widths.map { [Float](repeating: 0, count: $0) }
            slotOfFeature = [Int32](repeating: -1, count: inputDimension)
        }
    }

    /// Forward pass of `batch` into `workspace.activations` (the last holds the logits); with
    /// `training`, dropout masks are drawn and applied.
    private mutating func forward(_ batch: [(SparseVector, Int)], training: Bool, workspace: inout Workspace) {
        let rows = batch.count
        let first = widths[0]
        // Sparse first layer: each row is the bias plus the weighted sum of its features' rows.
        weights[0].withUnsafeBufferPointer { w in
            workspace.activations[0].withUnsafeMutableBufferPointer { a in
                for (row, (x, _)) in batch.enumerated() {
                    let out = a.baseAddress! + row * first
                    for i in 0..<first { out[i] = biases[0][i] }
                    for (feature, value) in zip(x.indices, x.values) {
                        let source = w.baseAddress! + Int(feature) * first
                        for i in 0..<first { out[i] += value * source[i] }
                    }
                }
            }
        }
        for layer in 0..<widths.count {
            if layer > 0 {
                let inWidth = widths[layer - 1], outWidth = widths[layer]
                workspace.activations[layer - 1].withUnsafeBufferPointer { input in
                    weights[layer].withUnsafeBufferPointer { w in
                        biases[layer].withUnsafeBufferPointer { b in
                            workspace.activations[layer].withUnsafeMutableBufferPointer { output in
                                guard let x = input.baseAddress, let w = w.baseAddress, let y = output.baseAddress else { return }
                                Linear.forward(x, rows: rows, weight: w, bias: b.baseAddress, inputSize: inWidth,
                                               outputSize: outWidth, into: y)
                            }
                        }
                    }
                }
            }
            guard layer < widths.count - 1 else { break }
            // ReLU, then inverted dropout; the mask keeps d(output)/d(pre-activation) for backward.
            let count = rows * widths[layer]
            let keepScale = options.dropout < 1 ? 1 / (1 - options.dropout) : 0
            for i in 0..<count {
                var scale: Float = workspace.activations[layer][i] > 0 ? 1 : 0
                if training, options.dropout > 0 {
                    scale *= Self.uniform(&generator) >= options.dropout ? keepScale : 0
                }
                workspace.masks[layer][i] = scale
                workspace.activations[layer][i] *= scale
            }
        }
    }

    /// One mini-batch: forward, class-weighted softmax cross-entropy, backward, Adam. Returns the loss.
    private mutating func step(_ batch: [(SparseVector, Int)], classWeights: [Float],
                               optimizers: Optimizers, workspace: inout Workspace) -> Float {
        forward(batch, training: true, workspace: &workspace)
        let rows = batch.count
        let last = widths.count - 1
        // Weighted mean loss Σ wᵢ·lossᵢ / Σ wᵢ and its gradient (PyTorch's CrossEntropyLoss(weight=)).
        let logits = Tensor(shape: [rows, classCount], scalars: Array(workspace.activations[last][0..<(rows * classCount)]))
        let (loss, gradient) = SoftmaxCrossEntropy.lossAndGradient(logits: logits, targets: batch.map { Int32($0.1) },
                                                                   classWeights: classWeights)
        gradient.withUnsafeBufferPointer { g in
            for i in 0..<(rows * classCount) { workspace.gradients[last][i] = g[i] }
        }
        // Dense layers, from the output down: weight and bias gradients, then the input gradient.
        for layer in stride(from: last, through: 1, by: -1) {
            let inWidth = widths[layer - 1], outWidth = widths[layer]
            workspace.gradients[layer].withUnsafeBufferPointer { dz in
                workspace.activations[layer - 1].withUnsafeBufferPointer { input in
                    weights[layer].withUnsafeBufferPointer { w in
                        workspace.weightGradients[layer].withUnsafeMutableBufferPointer { dw in
                            workspace.biasGradients[layer].withUnsafeMutableBufferPointer { db in
                                workspace.gradients[layer - 1].withUnsafeMutableBufferPointer { da in
                                    guard let dz = dz.baseAddress, let x = input.baseAddress, let w = w.baseAddress,
                                          let dw = dw.baseAddress, let da = da.baseAddress else { return }
                                    Linear.backward(outputGradient: dz, input: x, rows: rows, weight: w, inputSize: inWidth,
                                                    outputSize: outWidth, weightGradient: dw, biasGradient: db.baseAddress,
                                                    inputGradient: da)
                                }
                            }
                        }
                    }
                }
            }
            let count = rows * inWidth
            for i in 0..<count { workspace.gradients[layer - 1][i] *= workspace.masks[layer - 1][i] }
        }
        // First layer: gradient rows only for the features in the batch, gathered into slots.
        let first = widths[0]
        workspace.touchedFeatures.removeAll(keepingCapacity: true)
        for (x, _) in batch {
            for feature in x.indices where workspace.slotOfFeature[Int(feature)] < 0 {
                workspace.slotOfFeature[Int(feature)] = Int32(workspace.touchedFeatures.count)
                workspace.touchedFeatures.append(feature)
            }
        }
        let needed = workspace.touchedFeatures.count * first
        if workspace.inputGradient.count < needed { workspace.inputGradient = [Float](repeating: 0, count: needed) }
        workspace.inputGradient.withUnsafeMutableBufferPointer { g in
            for i in 0..<needed { g[i] = 0 }
            workspace.gradients[0].withUnsafeBufferPointer { dz in
                for (row, (x, _)) in batch.enumerated() {
                    let source = dz.baseAddress! + row * first
                    for (feature, value) in zip(x.indices, x.values) {
                        let target = g.baseAddress! + Int(workspace.slotOfFeature[Int(feature)]) * first
                        for i in 0..<first { target[i] += value * source[i] }
                    }
                }
            }
        }
        for j in 0..<first { workspace.biasGradients[0][j] = 0 }
        for row in 0..<rows {
            for j in 0..<first { workspace.biasGradients[0][j] += workspace.gradients[0][row * first + j] }
        }
        optimizers.inputRows.beginStep()
        workspace.inputGradient.withUnsafeBufferPointer { g in
            optimizers.inputRows.update(&weights[0], rows: workspace.touchedFeatures, gradients: g.baseAddress!)
        }
        // The dense layers are small (at most hidden × hidden): copying them into tensors is cheap.
        var dense = (1...last).map { Tensor(shape: [weights[$0].count], scalars: weights[$0]) }
        optimizers.denseWeights.step(&dense, gradients: (1...last).map {
            Tensor(shape: [workspace.weightGradients[$0].count], scalars: workspace.weightGradients[$0])
        })
        for layer in 1...last { weights[layer] = dense[layer - 1].scalars }
        var biasTensors = biases.map { Tensor($0) }
        optimizers.biases.step(&biasTensors, gradients: workspace.biasGradients.map { Tensor($0) })
        biases = biasTensors.map(\.scalars)
        for feature in workspace.touchedFeatures { workspace.slotOfFeature[Int(feature)] = -1 }
        return loss
    }

    /// Accuracy and mean (unweighted) loss on `examples`, without dropout.
    private mutating func evaluate(_ examples: [(SparseVector, Int)], workspace: inout Workspace) -> (Double, Float) {
        var correct = 0
        var loss: Float = 0
        var start = 0
        let last = widths.count - 1
        while start < examples.count {
            let batch = Array(examples[start..<min(start + options.batchSize, examples.count)])
            start += options.batchSize
            forward(batch, training: false, workspace: &workspace)
            for (row, (_, target)) in batch.enumerated() {
                var logits = Array(workspace.activations[last][(row * classCount)..<((row + 1) * classCount)])
                IntentNetwork.softmax(&logits)
                loss -= logf(max(logits[target], 1e-12))
                if logits.indices.max(by: { logits[$0] < logits[$1] }) == target { correct += 1 }
            }
        }
        return (Double(correct) / Double(examples.count), loss / Float(examples.count))
    }
}
