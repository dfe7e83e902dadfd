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
        precondition(classes >= 2 && !features.isEmpty && features.count == labels.count, "examples and labels for 2 or more classes")
        let n = features.count, d = features[0].count
        let x = features.flatMap { row -> [Double] in
            precondition(row.count == d, "rows of one width")
            return row.map(Double.init)
        }
        // Binary: one row of weights (class 1's logit; class 0's is 0), as scikit-learn's binary model.
        let rows = classes == 2 ? 1 : classes
        let penalty = 1 / (2 * inverseRegularization * Double(n))
        let minimizer = LBFGSMinimizer(options: .init(memory: 10, epsilon: 1e-7, period: 10, delta: 1e-12,
                                                      maxIterations: maxIterations))
        var errors = [Double](repeating: 0, count: n * rows)
        let result = minimizer.minimize(start: start.map { $0.parameters(rows: rows) } ?? [Double](repeating: 0, count: rows * (d + 1)),
                                        progress: progress) { parameters, gradient in
            gradient = [Double](repeating: 0, count: parameters.count)
            var total = 0.0
            parameters.withUnsafeBufferPointer { w in
                x.withUnsafeBufferPointer { x in
                    errors.withUnsafeMutableBufferPointer { e in
                        // Logits [n, rows] = X·Wᵀ (W's rows of width d at a stride of d + 1, the bias last), then
                        // each turns into d(loss)/d(logit) in place.
                        BLAS.dgemm(.none, .transpose, m: n, n: rows, k: d, a: x.baseAddress!, lda: d,
                                   b: w.baseAddress!, ldb: d + 1, c: e.baseAddress!, ldc: rows)
                        for i in 0..<n {
                            let logits = e.baseAddress! + i * rows
                            for r in 0..<rows { logits[r] += w[r * (d + 1) + d] }
                            if rows == 1 {
                                let z = logits[0], y = labels[i] == 1 ? 1.0 : 0.0
                                // log(1 + e^z) − y z, computed without overflow.
                                total += max(z, 0) + log1p(exp(-abs(z))) - y * z
                                logits[0] = 1 / (1 + exp(-z)) - y
                            } else {
                                var largest = -Double.infinity
                                for r in 0..<rows { largest = max(largest, logits[r]) }
                                var sum = 0.0
                                for r in 0..<rows { sum += exp(logits[r] - largest) }
                                total += largest + log(sum) - logits[labels[i]]
                                for r in 0..<rows { logits[r] = exp(logits[r] - largest) / sum - (r == labels[i] ? 1 : 0) }
                            }
                        }
                        gradient.withUnsafeMutableBufferPointer { g in
                            // d(W) = errorsᵀ·X into the weight columns, d(b) = the errors' column sums.
                            BLAS.dgemm(.transpose, .none, m: rows, n: d, k: n, a: e.baseAddress!, lda: rows,
                                       b: x.baseAddress!, ldb: d, c: g.baseAddress!, ldc: d + 1)
                            for i in 0..<n {
                                for r in 0..<rows { g[r * (d + 1) + d] += e[i * rows + r] }
                            }
                        }
                    }
                }
            }
            var squares = 0.0
            for r in 0..<rows {
                for j in 0..<d {
                    let index = r * (d + 1) + j
                    squares += parameters[index] * parameters[index]
                    gradient[index] = gradient[index] / Double(n) + 2 * penalty * parameters[index]
                }
                gradient[r * (d + 1) + d] /= Double(n)
            }
            return total / Double(n) + penalty * squares
        }
        var weight = [Float](repeating: 0, count: classes * d), bias = [Float](repeating: 0, count: classes)
        for r in 0..<rows {
            let target = rows == 1 ? 1 : r
            for j in 0..<d { weight[target * d + j] = Float(result.x[r * (d + 1) + j]) }
            bias[target] = Float(result.x[r * (d + 1) + d])
        }
        return LogisticRegressionHead(weight: Tensor(shape: [classes, d], scalars: weight), bias: Tensor(shape: [classes], scalars: bias),
                                      iterations: result.iterations, loss: result.value)
    }

    /// The minimizer's layout of this head: `rows` rows of weights, each followed by its bias (the
    /// binary model's one row is class 1's).
    func parameters(rows: Int) -> [Double] {
        let d = weight.shape[1], first = rows == 1 ? 1 : 0
        var result: [Double] = []
        result.reserveCapacity(rows * (d + 1))
        for r in first..<(first + rows) {
            result += weight.scalars[(r * d)..<((r + 1) * d)].map(Double.init)
            result.append(Double(bias.scalars[r]))
        }
        return result
    }
}
