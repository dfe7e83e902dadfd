import Foundation
import NLUCore
import NLUInputOutput

/// Limited-memory BFGS for a smooth objective, and its orthant-wise variant OWL-QN (Andrew & Gao 2007)
/// when an L1 penalty `l1 · Σ|x_i|` is added, with liblbfgs's stopping rules as crfsuite uses them:
/// stop when `‖g‖ / max(1, ‖x‖) < epsilon`, when the objective improved by less than `delta` (relative)
/// over the last `period` iterations, or after `maxIterations`.
///
///     var minimizer = LBFGSMinimizer(options: .init())
///     let result = minimizer.minimize(start: [3, -1]) { x, gradient in
///         gradient = [2 * x[0], 2 * x[1]]; return x[0] * x[0] + x[1] * x[1]
///     }
struct LBFGSMinimizer {
    struct Options: Sendable {
        /// Correction pairs kept (crfsuite's `num_memories`).
        var memory = 6
        var epsilon = 1e-5
        var period = 10
        var delta = 1e-5
        var maxIterations = 1000
        /// The L1 coefficient (0: plain L-BFGS).
        var l1 = 0.0
        /// Most objective evaluations in one line search.
        var maxLineSearch = 40
    }

    struct Result {
        var x: [Double]
        /// The objective at `x`, L1 penalty included.
        var value: Double
        var iterations: Int
        var evaluations: Int
    }

    var options: Options

    /// Minimizes `objective` (which returns the smooth part's value and writes its gradient) from `start`.
    /// `progress(iteration, value)` is called after every iteration.
    func minimize(start: [Double], progress: (Int, Double) -> Void = { _, _ in },
                  objective: ([Double], inout [Double]) -> Double) -> Result {
        let n = start.count, l1 = options.l1
        var x = start
        var gradient = [Double](repeating: 0, count: n)
        var evaluations = 1
        var value = objective(x, &gradient) + l1Penalty(x)
        var pseudo = pseudoGradient(x, gradient)
        var sHistory: [[Double]] = [], yHistory: [[Double]] = [], rhoHistory: [Double] = []
        var recent: [Double] = [value]
        var iteration = 0
        if norm(pseudo) / max(1, norm(x)) < options.epsilon { return Result(x: x, value: value, iterations: 0, evaluations: 1) }
        var direction = pseudo.map { -$0 }
        var step = 1 / max(norm(direction), 1e-300)
        // Ctrl-C during a stoppable run ends the search where it is: x is always a usable point.
        while iteration < options.maxIterations, !Interruption.isRequested {
            iteration += 1
            if l1 > 0 {
                // OWL-QN: keep the direction where it descends along the pseudo-gradient.
                for i in 0..<n where direction[i] * pseudo[i] >= 0 { direction[i] = 0 }
            }
            let orthant: [Double] = l1 > 0 ? (0..<n).map { x[$0] != 0 ? sign(x[$0]) : sign(-pseudo[$0]) } : []
            var slope = 0.0
            for i in 0..<n { slope += direction[i] * pseudo[i] }
            if slope >= 0 {
                // Not a descent direction (stale curvature pairs): restart from steepest descent.
                sHistory.removeAll(); yHistory.removeAll(); rhoHistory.removeAll()
                direction = pseudo.map { -$0 }
                if l1 > 0 { for i in 0..<n where direction[i] * pseudo[i] >= 0 { direction[i] = 0 } }
                slope = (0..<n).reduce(0) { $0 + direction[$1] * pseudo[$1] }
                step = 1 / max(norm(direction), 1e-300)
                if slope >= 0 { break }
            }
            // Backtracking line search with the Armijo condition (on the pseudo-gradient for OWL-QN).
            var candidate = x, candidateGradient = gradient, candidateValue = value
            var accepted = false
            for _ in 0..<options.maxLineSearch {
                for i in 0..<n {
                    var v = x[i] + step * direction[i]
                    if l1 > 0, v * orthant[i] <= 0 { v = 0 }
                    candidate[i] = v
                }
                candidateValue = objective(candidate, &candidateGradient) + l1Penalty(candidate)
                evaluations += 1
                var decrease = 0.0
                for i in 0..<n { decrease += pseudo[i] * (candidate[i] - x[i]) }
                if candidateValue.isFinite, candidateValue <= value + 1e-4 * decrease { accepted = true; break }
                step *= 0.5
            }
            if !accepted { break }
            var s = [Double](repeating: 0, count: n), y = [Double](repeating: 0, count: n)
            var ys = 0.0, yy = 0.0
            for i in 0..<n {
                s[i] = candidate[i] - x[i]
                y[i] = candidateGradient[i] - gradient[i]
                ys += y[i] * s[i]
                yy += y[i] * y[i]
            }
            x = candidate
            gradient = candidateGradient
            value = candidateValue
            pseudo = pseudoGradient(x, gradient)
            progress(iteration, value)

            if norm(pseudo) / max(1, norm(x)) < options.epsilon { break }
            recent.append(value)
            if recent.count > options.period {
                let past = recent[recent.count - 1 - options.period]
                if abs(past - value) / max(abs(value), 1e-300) < options.delta { break }
            }
            if ys > 1e-300 {
                sHistory.append(s); yHistory.append(y); rhoHistory.append(1 / ys)
                if sHistory.count > options.memory { sHistory.removeFirst(); yHistory.removeFirst(); rhoHistory.removeFirst() }
            }
            // Two-loop recursion: direction = −H · pseudo-gradient.
            var q = pseudo
            var alphas = [Double](repeating: 0, count: sHistory.count)
            for k in stride(from: sHistory.count - 1, through: 0, by: -1) {
                var dot = 0.0
                for i in 0..<n { dot += sHistory[k][i] * q[i] }
                alphas[k] = rhoHistory[k] * dot
                for i in 0..<n { q[i] -= alphas[k] * yHistory[k][i] }
            }
            let gamma = (ys > 1e-300 && yy > 0) ? ys / yy : 1
            for i in 0..<n { q[i] *= gamma }
            for k in 0..<sHistory.count {
                var dot = 0.0
                for i in 0..<n { dot += yHistory[k][i] * q[i] }
                let beta = rhoHistory[k] * dot
                for i in 0..<n { q[i] += (alphas[k] - beta) * sHistory[k][i] }
            }
            direction = q.map { -$0 }
            step = 1
        }
        return Result(x: x, value: value, iterations: iteration, evaluations: evaluations)
    }

    private func l1Penalty(_ x: [Double]) -> Double {
        guard options.l1 > 0 else { return 0 }
        return options.l1 * x.reduce(0) { $0 + abs($1) }
    }

    /// The gradient, or for OWL-QN the pseudo-gradient of the L1-penalized objective (the one-sided
    /// derivative that descends, 0 where neither side does).
    private func pseudoGradient(_ x: [Double], _ gradient: [Double]) -> [Double] {
        let l1 = options.l1
        guard l1 > 0 else { return gradient }
        return (0..<x.count).map { i in
            if x[i] > 0 { return gradient[i] + l1 }
            if x[i] < 0 { return gradient[i] - l1 }
            if gradient[i] + l1 < 0 { return gradient[i] + l1 }
            if gradient[i] - l1 > 0 { return gradient[i] - l1 }
            return 0
        }
    }

    private func norm(_ v: [Double]) -> Double { v.reduce(0) { $0 + $1 * $1 }.squareRoot() }
    private func sign(_ v: Double) -> Double { v > 0 ? 1 : (v < 0 ? -1 : 0) }
}
