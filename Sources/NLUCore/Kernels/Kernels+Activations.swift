import Foundation

extension Kernels {
    /// GELU, exact form `x·Φ(x) = 0.5·x·(1 + erf(x/√2))` (BERT's `"gelu"`, PyTorch's default), in place.
    ///
    ///     var h = Tensor<Float>([-1, 0, 1]); Kernels.gelu(&h)   // [-0.1587, 0, 0.8413]
    public static func gelu(_ x: inout Tensor<Float>) {
        x.withUnsafeMutableBufferPointer { gelu($0.baseAddress!, count: $0.count) }
    }

    /// GELU, exact form, on `count` floats at `pointer` in place.
    public static func gelu(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        forEachChunk(pointer, count: count) { base, n in
            VectorMath.apply(base, count: n) { x in 0.5 * x * (1 + VectorMath.erf(x * 0.707_106_781_186_547_5)) }
        }
    }

    /// GELU, tanh approximation `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (`"gelu_new"`,
    /// `"gelu_pytorch_tanh"`), in place.
    ///
    ///     var h = Tensor<Float>([1]); Kernels.geluTanh(&h)   // [0.8412]
    public static func geluTanh(_ x: inout Tensor<Float>) {
        x.withUnsafeMutableBufferPointer { geluTanh($0.baseAddress!, count: $0.count) }
    }

    /// GELU, tanh approximation, on `count` floats at `pointer` in place.
    public static func geluTanh(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        forEachChunk(pointer, count: count) { base, n in
            VectorMath.apply(base, count: n) { x in
                // 0.5·(1 + tanh(u)) = sigmoid(2u): one exp, and exact in the negative tail.
                let u = 0.797_884_560_802_865_4 * (x + 0.044_715 * x * x * x)
                return x * VectorMath.sigmoid(2 * u)
            }
        }
    }

    /// The hyperbolic tangent, in place.
    ///
    ///     var h = Tensor<Float>([0.5]); Kernels.tanh(&h)   // [0.4621]
    public static func tanh(_ x: inout Tensor<Float>) {
        x.withUnsafeMutableBufferPointer { tanh($0.baseAddress!, count: $0.count) }
    }

    /// The hyperbolic tangent on `count` floats at `pointer`, in place.
    public static func tanh(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        forEachChunk(pointer, count: count) { base, n in VectorMath.apply(base, count: n, VectorMath.tanh) }
    }

    /// The logistic sigmoid `1 / (1 + e^{-x})`, in place.
    ///
    ///     var h = Tensor<Float>([0]); Kernels.sigmoid(&h)   // [0.5]
    public static func sigmoid(_ x: inout Tensor<Float>) {
        x.withUnsafeMutableBufferPointer { sigmoid($0.baseAddress!, count: $0.count) }
    }

    /// The logistic sigmoid on `count` floats at `pointer`, in place.
    public static func sigmoid(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        forEachChunk(pointer, count: count) { base, n in VectorMath.apply(base, count: n, VectorMath.sigmoid) }
    }

    /// `max(x, 0)`, in place.
    ///
    ///     var h = Tensor<Float>([-1, 2]); Kernels.relu(&h)   // [0, 2]
    public static func relu(_ x: inout Tensor<Float>) {
        x.withUnsafeMutableBufferPointer { relu($0.baseAddress!, count: $0.count) }
    }

    /// `max(x, 0)` on `count` floats at `pointer`, in place.
    public static func relu(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        forEachChunk(pointer, count: count) { base, n in
            VectorMath.apply(base, count: n) { x in x.replacing(with: 0, where: x .< 0) }
        }
    }
}
