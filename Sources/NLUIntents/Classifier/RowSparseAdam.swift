import Foundation

/// Adam (PyTorch `torch.optim.Adam` semantics: bias correction, L2 `weightDecay` added to the
/// gradient) over one parameter matrix, updating only the rows a mini-batch touched, as
/// `torch.optim.SparseAdam` / lazy Adam do. The intent network's first layer has one row per
/// vocabulary term and a batch touches a few hundred of tens of thousands, so this keeps a step
/// proportional to the batch, not to the vocabulary. (Dense layers use NLUCore's `AdamOptimizer`;
/// on rows that are touched, both compute the same update.)
final class RowSparseAdam {
    let rowLength: Int
    let learningRate: Float
    let weightDecay: Float
    let beta1: Float = 0.9
    let beta2: Float = 0.999
    let epsilon: Float = 1e-8
    private var moment: [Float]
    private var squared: [Float]
    private var step = 0

    init(count: Int, rowLength: Int, learningRate: Float, weightDecay: Float) {
        self.rowLength = rowLength
        self.learningRate = learningRate
        self.weightDecay = weightDecay
        moment = [Float](repeating: 0, count: count)
        squared = [Float](repeating: 0, count: count)
    }

    /// Advances the step counter (once per mini-batch, before the updates of that batch).
    func beginStep() { step += 1 }

    /// Updates `rows` of `parameters` with `gradients` (`rows.count × rowLength`, in the order of `rows`).
    func update(_ parameters: inout [Float], rows: [Int32], gradients: UnsafePointer<Float>) {
        let correction1 = 1 - powf(beta1, Float(step))
        let correction2 = 1 - powf(beta2, Float(step))
        let stepSize = learningRate / correction1
        let inverseCorrection2 = 1 / correction2
        let (b1, b2, eps, decay, length) = (beta1, beta2, epsilon, weightDecay, rowLength)
        parameters.withUnsafeMutableBufferPointer { p in
            moment.withUnsafeMutableBufferPointer { m in
                squared.withUnsafeMutableBufferPointer { v in
                    for (slot, row) in rows.enumerated() {
                        let base = Int(row) * length
                        let g = gradients + slot * length
                        for i in 0..<length {
                            let gradient = g[i] + decay * p[base + i]
                            let mi = b1 * m[base + i] + (1 - b1) * gradient
                            let vi = b2 * v[base + i] + (1 - b2) * gradient * gradient
                            m[base + i] = mi
                            v[base + i] = vi
                            p[base + i] -= stepSize * mi / ((vi * inverseCorrection2).squareRoot() + eps)
                        }
                    }
                }
            }
        }
    }
}
