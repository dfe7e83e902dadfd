import Dispatch
import Foundation
import NLUCore

/// The element-wise work between the encoder's GEMMs, fused so each activation matrix is read and
/// written once per step: bias + activation, bias + residual + layer norm, scaled softmax over the
/// valid keys. Rows are split across threads (the GEMMs already use all of them through BLAS).
///
/// The exponential is a branch-free polynomial (Cephes `expf`, relative error ~1e-7) written so the
/// compiler vectorizes it; `erf` is Abramowitz-Stegun 7.1.26 (absolute error 1.5e-7), the form
/// PyTorch's vectorized CPU kernels use.
enum FusedKernels {
    /// Runs `body` over `count` rows split into one contiguous chunk per thread.
    @inline(__always)
    static func parallelRows(_ count: Int, threads: Int, minimumRowsPerThread: Int = 8,
                             _ body: (Range<Int>) -> Void) {
        let chunks = max(1, min(threads, count / max(minimumRowsPerThread, 1)))
        if chunks == 1 { body(0..<count); return }
        withoutActuallyEscaping(body) { body in
            // The chunks touch disjoint rows, so sharing the closure across threads is safe.
            let shared = UncheckedSendable(body)
            DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                let start = count * chunk / chunks, end = count * (chunk + 1) / chunks
                shared.value(start..<end)
            }
        }
    }

    /// e^x for x in about [-87, 88]; 0 < result, no NaN for finite input.
    @inline(__always)
    static func exp(_ value: Float) -> Float {
        let x = Swift.min(Swift.max(value, -87.3), 88.3)
        // n = round(x / ln 2) by the 1.5·2^23 trick: the integer lands in the low mantissa bits.
        let shifter: Float = 12582912
        let shifted = x * 1.44269504088896341 + shifter
        let n = shifted - shifter
        let r = x - n * 0.693359375 + n * 2.12194440e-4
        var p: Float = 1.9875691500e-4
        p = p * r + 1.3981999507e-3
        p = p * r + 8.3334519073e-3
        p = p * r + 4.1665795894e-2
        p = p * r + 1.6666665459e-1
        p = p * r + 5.0000001201e-1
        p = p * r * r + r + 1
        let exponent = Int32(bitPattern: shifted.bitPattern) &- Int32(bitPattern: shifter.bitPattern)
        let scale = Float(bitPattern: UInt32(bitPattern: (exponent &+ 127) &<< 23))
        return p * scale
    }

    /// The exact (erf) GELU: x · Φ(x).
    @inline(__always)
    static func gelu(_ x: Float) -> Float {
        let z = x * 0.70710678118654752
        let a = Swift.abs(z)
        let t = 1 / (1 + 0.3275911 * a)
        var poly: Float = 1.061405429
        poly = poly * t - 1.453152027
        poly = poly * t + 1.421413741
        poly = poly * t - 0.284496736
        poly = poly * t + 0.254829592
        let erfAbs = 1 - poly * t * exp(-a * a)
        let erf = z < 0 ? -erfAbs : erfAbs
        return 0.5 * x * (1 + erf)
    }

    /// The tanh GELU (`gelu_new`, `gelu_pytorch_tanh`).
    @inline(__always)
    static func geluTanh(_ x: Float) -> Float {
        let inner = 0.79788456080286536 * (x + 0.044715 * x * x * x)
        let tanh = 1 - 2 / (exp(2 * inner) + 1)
        return 0.5 * x * (1 + tanh)
    }

    /// `x[r, :] = activation(x[r, :] + bias)` for every row.
    static func addBiasActivate(_ x: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                                bias: UnsafePointer<Float>, activation: BertConfiguration.Activation,
                                threads: Int) {
        parallelRows(rows, threads: threads) { range in
            for row in range {
                let line = x + row * columns
                switch activation {
                case .gelu:
                    for c in 0..<columns { line[c] = gelu(line[c] + bias[c]) }
                case .geluTanh:
                    for c in 0..<columns { line[c] = geluTanh(line[c] + bias[c]) }
                case .relu:
                    for c in 0..<columns { let v = line[c] + bias[c]; line[c] = v > 0 ? v : 0 }
                }
            }
        }
    }

    /// `x[r, :] += bias` for every row.
    static func addBias(_ x: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                        bias: UnsafePointer<Float>, threads: Int) {
        parallelRows(rows, threads: threads) { range in
            for row in range {
                let line = x + row * columns
                for c in 0..<columns { line[c] += bias[c] }
            }
        }
    }

    /// `residual[r, :] = LayerNorm(projection[r, :] + bias + residual[r, :])`: the post-norm
    /// residual connection of a transformer block, in one pass per row.
    static func addBiasResidualLayerNorm(projection: UnsafePointer<Float>, bias: UnsafePointer<Float>,
                                         residual: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                                         gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>,
                                         epsilon: Float, threads: Int) {
        parallelRows(rows, threads: threads) { range in
            for row in range {
                let line = residual + row * columns
                let input = projection + row * columns
                for c in 0..<columns { line[c] += input[c] + bias[c] }
                normalize(line, columns: columns, gamma: gamma, beta: beta, epsilon: epsilon)
            }
        }
    }

    /// Layer norm of each row in place.
    static func layerNorm(_ x: UnsafeMutablePointer<Float>, rows: Int, columns: Int,
                          gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>, epsilon: Float, threads: Int) {
        parallelRows(rows, threads: threads) { range in
            for row in range {
                let line = x + row * columns
                normalize(line, columns: columns, gamma: gamma, beta: beta, epsilon: epsilon)
            }
        }
    }

    @inline(__always)
    private static func normalize(_ line: UnsafeMutablePointer<Float>, columns: Int,
                                  gamma: UnsafePointer<Float>, beta: UnsafePointer<Float>, epsilon: Float) {
        let mean = sum(line, count: columns) / Float(columns)
        let squares = sumOfSquaredDeviations(line, count: columns, mean: mean)
        let inverse = 1 / (squares / Float(columns) + epsilon).squareRoot()
        for c in 0..<columns { line[c] = (line[c] - mean) * inverse * gamma[c] + beta[c] }
    }

    /// Softmax over the first `keys` entries of each of `rows` rows (stride `rowStride`); entries
    /// whose `keyMask` is 0 get probability 0. Entries past `keys` are not touched.
    static func softmaxRows(_ scores: UnsafeMutablePointer<Float>, rows: Int, keys: Int, rowStride: Int,
                            keyMask: UnsafePointer<Int32>?, threads: Int) {
        parallelRows(rows, threads: threads, minimumRowsPerThread: 32) { range in
            for row in range {
                let line = scores + row * rowStride
                if let keyMask {
                    for k in 0..<keys where keyMask[k] == 0 { line[k] = -.greatestFiniteMagnitude }
                }
                let maximum = self.maximum(line, count: keys)
                for k in 0..<keys { line[k] = exp(line[k] - maximum) }
                let inverse = 1 / sum(line, count: keys)
                for k in 0..<keys { line[k] *= inverse }
                if let keyMask {
                    for k in 0..<keys where keyMask[k] == 0 { line[k] = 0 }
                }
            }
        }
    }

    // Reductions with 8 independent accumulators: a single running sum is one long dependency
    // chain (the compiler may not reassociate floating-point addition). Plain scalar code keeps
    // debug builds fast too (generic SIMD types are very slow unoptimized).
    @inline(__always)
    static func sum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0, s4: Float = 0, s5: Float = 0, s6: Float = 0, s7: Float = 0
        var index = 0
        while index + 8 <= count {
            s0 += x[index]; s1 += x[index + 1]; s2 += x[index + 2]; s3 += x[index + 3]
            s4 += x[index + 4]; s5 += x[index + 5]; s6 += x[index + 6]; s7 += x[index + 7]
            index += 8
        }
        while index < count { s0 += x[index]; index += 1 }
        return ((s0 + s1) + (s2 + s3)) + ((s4 + s5) + (s6 + s7))
    }

    @inline(__always)
    static func sumOfSquaredDeviations(_ x: UnsafePointer<Float>, count: Int, mean: Float) -> Float {
        var s0: Float = 0, s1: Float = 0, s2: Float = 0, s3: Float = 0
        var index = 0
        while index + 4 <= count {
            let d0 = x[index] - mean, d1 = x[index + 1] - mean, d2 = x[index + 2] - mean, d3 = x[index + 3] - mean
            s0 += d0 * d0; s1 += d1 * d1; s2 += d2 * d2; s3 += d3 * d3
            index += 4
        }
        while index < count { let d = x[index] - mean; s0 += d * d; index += 1 }
        return (s0 + s1) + (s2 + s3)
    }

    @inline(__always)
    static func maximum(_ x: UnsafePointer<Float>, count: Int) -> Float {
        // Four independent running maxima as selects (vectorizes; SIMD pointwiseMax does not).
        var m0 = -Float.greatestFiniteMagnitude, m1 = m0, m2 = m0, m3 = m0
        var index = 0
        while index + 4 <= count {
            m0 = m0 > x[index] ? m0 : x[index]
            m1 = m1 > x[index + 1] ? m1 : x[index + 1]
            m2 = m2 > x[index + 2] ? m2 : x[index + 2]
            m3 = m3 > x[index + 3] ? m3 : x[index + 3]
            index += 4
        }
        while index < count { m0 = m0 > x[index] ? m0 : x[index]; index += 1 }
        return Swift.max(Swift.max(m0, m1), Swift.max(m2, m3))
    }
}

/// Hands a value to concurrent workers that use it on disjoint data.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
