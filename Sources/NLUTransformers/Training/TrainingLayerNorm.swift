import NLUCore

/// Layer normalization for training: the forward pass keeps what the backward pass needs (each
/// row's normalized values x̂ and 1/σ), and the backward pass gives d(input) and accumulates
/// d(gamma), d(beta), as PyTorch's `nn.LayerNorm` (biased variance, `epsilon` inside the root).
/// Rows are split over the kernel thread pool, and d(gamma), d(beta) over columns, each column
/// summed over the rows in order: the same values on any number of threads.
///
///     TrainingLayerNorm.forward(sum, rows: n, size: h, gamma: g, beta: b, epsilon: 1e-12,
///                               normalized: xHat, inverseDeviation: rstd, output: y)
///     TrainingLayerNorm.backward(dY, normalized: xHat, inverseDeviation: rstd, rows: n, size: h, gamma: g,
///                                gammaGradient: dG, betaGradient: dB, inputGradient: dX)
enum TrainingLayerNorm {
    /// `output = gamma ∘ x̂ + beta` per row, with `x̂ = (x - mean) / σ` and `σ = √(variance + epsilon)`;
    /// keeps x̂ in `normalized` and 1/σ in `inverseDeviation` ([rows]). `output` may not alias `x`.
    static func forward(_ x: UnsafePointer<Float>, rows: Int, size: Int, gamma: UnsafePointer<Float>,
                        beta: UnsafePointer<Float>, epsilon: Float, normalized: UnsafeMutablePointer<Float>,
                        inverseDeviation: UnsafeMutablePointer<Float>, output: UnsafeMutablePointer<Float>) {
        Kernels.forEachRowChunk(rowCount: rows, rowLength: size) { chunk in
            for row in chunk {
                forward(row: x + row * size, size: size, gamma: gamma, beta: beta, epsilon: epsilon,
                        normalized: normalized + row * size, inverseDeviation: inverseDeviation + row,
                        output: output + row * size)
            }
        }
    }

    /// One row of ``forward(_:rows:size:gamma:beta:epsilon:normalized:inverseDeviation:output:)``.
    private static func forward(row line: UnsafePointer<Float>, size: Int, gamma: UnsafePointer<Float>,
                                beta: UnsafePointer<Float>, epsilon: Float, normalized hat: UnsafeMutablePointer<Float>,
                                inverseDeviation: UnsafeMutablePointer<Float>, output out: UnsafeMutablePointer<Float>) {
        // Sums in Double: the gradients are checked against float64 autograd to 1e-4 of each
        // element, and Float sums over a row cost most of that margin.
        var sum: Double = 0
        for column in 0..<size { sum += Double(line[column]) }
        let mean = sum / Double(size)
        // Two passes: the variance of deviations, not E[x²] - mean², which cancels badly.
        var squares: Double = 0
        for column in 0..<size {
            let deviation = Double(line[column]) - mean
            squares += deviation * deviation
        }
        let inverse = 1 / (squares / Double(size) + Double(epsilon)).squareRoot()
        inverseDeviation.pointee = Float(inverse)
        for column in 0..<size {
            let value = Float((Double(line[column]) - mean) * inverse)
            hat[column] = value
            out[column] = value * gamma[column] + beta[column]
        }
    }

    /// The backward pass of ``forward(_:rows:size:gamma:beta:epsilon:normalized:inverseDeviation:output:)``:
    /// `inputGradient = (1/σ)·(g - mean(g) - x̂·mean(g ∘ x̂))` with `g = dY ∘ gamma` (overwritten;
    /// it may alias `outputGradient`), and `gammaGradient += Σ dY ∘ x̂`, `betaGradient += Σ dY`.
    static func backward(_ outputGradient: UnsafePointer<Float>, normalized: UnsafePointer<Float>,
                         inverseDeviation: UnsafePointer<Float>, rows: Int, size: Int, gamma: UnsafePointer<Float>,
                         gammaGradient: UnsafeMutablePointer<Float>, betaGradient: UnsafeMutablePointer<Float>,
                         inputGradient: UnsafeMutablePointer<Float>) {
        // d(gamma), d(beta) first: inputGradient may alias outputGradient.
        Kernels.forEachRowChunk(rowCount: size, rowLength: rows) { columns in
            for row in 0..<rows {
                let dy = outputGradient + row * size, hat = normalized + row * size
                for column in columns {
                    gammaGradient[column] += dy[column] * hat[column]
                    betaGradient[column] += dy[column]
                }
            }
        }
        Kernels.forEachRowChunk(rowCount: rows, rowLength: size) { chunk in
            for row in chunk {
                let dy = outputGradient + row * size, hat = normalized + row * size, dx = inputGradient + row * size
                var meanGradient: Double = 0, meanProjection: Double = 0
                for column in 0..<size {
                    let g = Double(dy[column]) * Double(gamma[column])
                    meanGradient += g
                    meanProjection += g * Double(hat[column])
                }
                meanGradient /= Double(size)
                meanProjection /= Double(size)
                let inverse = Double(inverseDeviation[row])
                for column in 0..<size {
                    let g = Double(dy[column]) * Double(gamma[column])
                    dx[column] = Float(inverse * (g - meanGradient - Double(hat[column]) * meanProjection))
                }
            }
        }
    }
}
