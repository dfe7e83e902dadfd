import Foundation
import NLUCore

/// A linear classification head fitted as scikit-learn's `LogisticRegression()` fits one (the head
/// SetFit puts on its fine-tuned encoder): L2-regularised logistic regression with an unpenalised
/// intercept, minimising `mean cross-entropy + ‖W‖² / (2 C n)` by L-BFGS. With two classes it is the
/// binary model scikit-learn fits (one weight vector; class 0's logit fixed at 0), with more the
/// multinomial one. It runs to convergence (a relative gradient of 1e-7, at most 1000 iterations)
/// where scikit-learn stops at 100 iterations; the minimum is unique, and the two agree within 1e-4 in
/// probability when scikit-learn converges (`scripts/fixtures/setfit_finetune.py`).
///
///     let head = LogisticRegressionHead.fit(features: [[0, 1], [1, 0]], labels: [0, 1], classes: 2)
///     head.weight   // [2, 2]: the rows of an `nn.Linear` over the features
struct LogisticRegressionHead {
    /// `[classes, features]`.
    var weight: Tensor<Float>
    /// `[classes]`.
    var bias: Tensor<Float>
    /// L-BFGS iterations taken.
    var iterations: Int
    /// The objective at the end (mean cross-entropy plus the penalty).
    var loss: Double

    static let maxIterations = 1000

    /// Fits the head on `features` (one row per example, all of one width) and `labels` (in `0..<classes`)
    /// with scikit-learn's `C` = `inverseRegularization`; `progress(iteration, loss)` after each iteration.
    /// `start` (the parameters of an earlier fit on the same width and classes) only shortens the way to
    /// the same minimum, as scikit-learn's warm start does.
    /// - Precondition: at least one example, rows of one width, labels in range, `classes` ≥ 2.
    static func fit(features: [[Float]], labels: [Int], classes: Int, inverseRegularization: Double = 1,
                    start: LogisticRegressionHead? = nil,
                    progress: (Int, Double) -> Void = { _, _ in }) -> LogisticRegressionHead {
        precondition(!features.isEmpty, "examples")
        let width = features[0].count
        return fit(features: features.map { row in
            precondition(row.count == width, "rows of one width")
            return SparseVector(dense: row)
        }, width: width, labels: labels, classes: classes, inverseRegularization: inverseRegularization, start: start, progress: progress)
    }

    /// ``fit(features:labels:classes:inverseRegularization:start:progress:)`` on sparse rows of `width`
    /// features (a bag of words with the sentence vector after it): each step costs the rows' non-zero
    /// entries times the classes, not their full width.
    /// - Precondition: at least one example, indices below `width`, labels in range, `classes` ≥ 2.
    static func fit(features: [SparseVector], width d: Int, labels: [Int], classes: Int, inverseRegularization: Double = 1,
                    start: LogisticRegressionHead? = nil,
                    progress: (Int, Double) -> Void = { _, _ in }) -> LogisticRegressionHead {
        precondition(classes >= 2 && !features.isEmpty && features.count == labels.count, "examples and labels for 2 or more classes")
        precondition(features.allSatisfy { row in row.indices.allSatisfy { $0 >= 0 && Int($0) < d } }, "indices below the width")
        let n = features.count
        // Binary: one row of weights (class 1's logit; class 0's is 0), as scikit-learn's binary model.
        let rows = classes == 2 ? 1 : classes
        let penalty = 1 / (2 * inverseRegularization * Double(n))
        let minimizer = LBFGSMinimizer(options: .init(memory: 10, epsilon: 1e-7, period: 10, delta: 1e-12,
                                                      maxIterations: maxIterations))
        // The parameters feature by feature, each feature's `rows` weights side by side (the inner loops
        // run over them), then the `rows` biases.
        let biases = d * rows
        let indices = features.map { $0.indices.map(Int.init) }, values = features.map { $0.values.map(Double.init) }
        var errors = [Double](repeating: 0, count: rows)
        let result = minimizer.minimize(start: start.map { $0.parameters(rows: rows) } ?? [Double](repeating: 0, count: rows * (d + 1)),
                                        progress: progress) { parameters, gradient in
            gradient = [Double](repeating: 0, count: parameters.count)
            var total = 0.0
            parameters.withUnsafeBufferPointer { w in
                gradient.withUnsafeMutableBufferPointer { g in
                    errors.withUnsafeMutableBufferPointer { e in
                        for i in 0..<n {
                            // The example's logits, then d(loss)/d(logit) in their place.
                            for r in 0..<rows { e[r] = w[biases + r] }
                            for (j, v) in zip(indices[i], values[i]) {
                                for r in 0..<rows { e[r] += v * w[j * rows + r] }
                            }
                            if rows == 1 {
                                let z = e[0], y = labels[i] == 1 ? 1.0 : 0.0
                                // log(1 + e^z) − y z, computed without overflow.
                                total += max(z, 0) + log1p(exp(-abs(z))) - y * z
                                e[0] = 1 / (1 + exp(-z)) - y
                            } else {
                                var largest = -Double.infinity
                                for r in 0..<rows { largest = max(largest, e[r]) }
                                var sum = 0.0
                                for r in 0..<rows { sum += exp(e[r] - largest) }
                                total += largest + log(sum) - e[labels[i]]
                                for r in 0..<rows { e[r] = exp(e[r] - largest) / sum - (r == labels[i] ? 1 : 0) }
                            }
                            for (j, v) in zip(indices[i], values[i]) {
                                for r in 0..<rows { g[j * rows + r] += v * e[r] }
                            }
                            for r in 0..<rows { g[biases + r] += e[r] }
                        }
                    }
                    var squares = 0.0
                    for index in 0..<biases {
                        squares += w[index] * w[index]
                        g[index] = g[index] / Double(n) + 2 * penalty * w[index]
                    }
                    for r in 0..<rows { g[biases + r] /= Double(n) }
                    total = total / Double(n) + penalty * squares
                }
            }
            return total
        }
        var weight = [Float](repeating: 0, count: classes * d), bias = [Float](repeating: 0, count: classes)
        for r in 0..<rows {
            let target = rows == 1 ? 1 : r
            for j in 0..<d { weight[target * d + j] = Float(result.x[j * rows + r]) }
            bias[target] = Float(result.x[biases + r])
        }
        return LogisticRegressionHead(weight: Tensor(shape: [classes, d], scalars: weight), bias: Tensor(shape: [classes], scalars: bias),
                                      iterations: result.iterations, loss: result.value)
    }

    /// The minimizer's layout of this head: feature by feature, the `rows` weights of each (the
    /// binary model's one row is class 1's), then the `rows` biases.
    func parameters(rows: Int) -> [Double] {
        let d = weight.shape[1], first = rows == 1 ? 1 : 0
        let weights = weight.scalars, biases = bias.scalars
        var result = [Double](repeating: 0, count: rows * (d + 1))
        for r in 0..<rows {
            for j in 0..<d { result[j * rows + r] = Double(weights[(first + r) * d + j]) }
            result[d * rows + r] = Double(biases[first + r])
        }
        return result
    }
}
