import Foundation
import NLUCore

// Stand-ins with the signatures of the core's training pieces (notes/core-api.md), used until
// NLUCore's AdamOptimizer, GradientClipping and SoftmaxCrossEntropy land; then this file goes.

final class InterimAdam {
    let learningRate: Float, beta1: Float, beta2: Float, epsilon: Float
    private var moments: [[Float]] = []
    private var squares: [[Float]] = []
    private var stepCount = 0

    init(learningRate: Float, beta1: Float = 0.9, beta2: Float = 0.999, epsilon: Float = 1e-8) {
        self.learningRate = learningRate; self.beta1 = beta1; self.beta2 = beta2; self.epsilon = epsilon
    }

    func step(_ parameters: inout [Tensor<Float>], gradients: [Tensor<Float>]) {
        if moments.isEmpty {
            moments = parameters.map { [Float](repeating: 0, count: $0.count) }
            squares = moments
        }
        stepCount += 1
        let correction1 = 1 - powf(beta1, Float(stepCount)), correction2 = 1 - powf(beta2, Float(stepCount))
        let stepSize = learningRate / correction1
        for index in parameters.indices {
            gradients[index].withUnsafeBufferPointer { g in
                parameters[index].withUnsafeMutableBufferPointer { p in
                    moments[index].withUnsafeMutableBufferPointer { m in
                        squares[index].withUnsafeMutableBufferPointer { v in
                            for i in 0..<p.count {
                                m[i] = beta1 * m[i] + (1 - beta1) * g[i]
                                v[i] = beta2 * v[i] + (1 - beta2) * g[i] * g[i]
                                p[i] -= stepSize * m[i] / ((v[i] / correction2).squareRoot() + epsilon)
                            }
                        }
                    }
                }
            }
        }
    }
}

enum InterimGradientClipping {
    static func clipByGlobalNorm(_ gradients: inout [Tensor<Float>], maxNorm: Float) -> Float {
        var sum: Double = 0
        for gradient in gradients {
            gradient.withUnsafeBufferPointer { values in for value in values { sum += Double(value * value) } }
        }
        let norm = Float(sum.squareRoot())
        guard norm > maxNorm, norm > 0 else { return norm }
        let scale = maxNorm / (norm + 1e-6)
        for index in gradients.indices {
            gradients[index].withUnsafeMutableBufferPointer { values in
                for i in values.indices { values[i] *= scale }
            }
        }
        return norm
    }
}

enum InterimSoftmaxCrossEntropy {
    static func lossAndGradient(logits: Tensor<Float>, targets: [Int32]) -> (loss: Float, gradient: Tensor<Float>) {
        let rows = logits.shape[0], columns = logits.shape[1]
        var gradient = Tensor<Float>(shape: [rows, columns], scalars: logits.scalars)
        var total: Double = 0
        gradient.withUnsafeMutableBufferPointer { values in
            for row in 0..<rows {
                let line = UnsafeMutableBufferPointer(rebasing: values[(row * columns)..<((row + 1) * columns)])
                let maximum = line.max() ?? 0
                var sum: Float = 0
                for i in line.indices { line[i] = expf(line[i] - maximum); sum += line[i] }
                let target = Int(targets[row])
                total -= Double(logf(line[target] / sum))
                let scale = 1 / (sum * Float(rows))
                for i in line.indices { line[i] *= scale }
                line[target] -= 1 / Float(rows)
            }
        }
        return (Float(total / Double(rows)), gradient)
    }
}
