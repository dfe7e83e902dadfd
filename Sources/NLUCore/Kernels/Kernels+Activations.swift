import CKernels
import Foundation

extension Kernels {
    /// GELU, exact form `x·Φ(x) = 0.5·x·(1 + erf(x/√2))` (BERT's `"gelu"`, PyTorch's default), in place.
    ///
    ///     var h = Tensor<Float>([-1, 0, 1]); Kernels.gelu(&h)   // [-0.1587, 0, 0.8413]
    public static func gelu(_ x: inout Tensor<Float>) {
        map(&x) { nlukit_gelu($0, $1, $2) }
    }

    /// GELU, exact form, on `count` floats at `pointer` in place.
    public static func gelu(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_gelu($0, $1, $2) }
    }

    /// GELU, tanh approximation `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))` (`"gelu_new"`,
    /// `"gelu_pytorch_tanh"`), in place.
    ///
    ///     var h = Tensor<Float>([1]); Kernels.geluTanh(&h)   // [0.8412]
    public static func geluTanh(_ x: inout Tensor<Float>) {
        map(&x) { nlukit_gelu_tanh($0, $1, $2) }
    }

    /// GELU, tanh approximation, on `count` floats at `pointer` in place.
    public static func geluTanh(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_gelu_tanh($0, $1, $2) }
    }

    /// The hyperbolic tangent, in place.
    ///
    ///     var h = Tensor<Float>([0.5]); Kernels.tanh(&h)   // [0.4621]
    public static func tanh(_ x: inout Tensor<Float>) {
        map(&x) { nlukit_tanh($0, $1, $2) }
    }

    /// The hyperbolic tangent on `count` floats at `pointer`, in place.
    public static func tanh(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_tanh($0, $1, $2) }
    }

    /// The logistic sigmoid `1 / (1 + e^{-x})`, in place.
    ///
    ///     var h = Tensor<Float>([0]); Kernels.sigmoid(&h)   // [0.5]
    public static func sigmoid(_ x: inout Tensor<Float>) {
        map(&x) { nlukit_sigmoid($0, $1, $2) }
    }

    /// The logistic sigmoid on `count` floats at `pointer`, in place.
    public static func sigmoid(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_sigmoid($0, $1, $2) }
    }

    /// `max(x, 0)`, in place.
    ///
    ///     var h = Tensor<Float>([-1, 2]); Kernels.relu(&h)   // [0, 2]
    public static func relu(_ x: inout Tensor<Float>) {
        map(&x) { nlukit_relu($0, $1, $2) }
    }

    /// `max(x, 0)` on `count` floats at `pointer`, in place.
    public static func relu(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_relu($0, $1, $2) }
    }

    /// `e^x` on `count` floats at `pointer`, in place (0 below -87.34, +inf above 88.72).
    ///
    ///     var x: [Float] = [0, 1]
    ///     x.withUnsafeMutableBufferPointer { Kernels.exp($0.baseAddress!, count: 2) }   // [1, 2.7182817]
    public static func exp(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_exp($0, $1, $2) }
    }

    /// The error function on `count` floats at `pointer`, in place.
    ///
    ///     var x: [Float] = [0.5]
    ///     x.withUnsafeMutableBufferPointer { Kernels.erf($0.baseAddress!, count: 1) }   // [0.5205]
    public static func erf(_ pointer: UnsafeMutablePointer<Float>, count: Int) {
        map(pointer, pointer, count: count) { nlukit_erf($0, $1, $2) }
    }

    /// The instruction set the element-wise kernels use on this CPU: "AVX-512", "AVX2" or
    /// "baseline" (SSE2 on x86-64; NEON on arm64, where the compiler vectorizes for it directly).
    ///
    ///     print(Kernels.instructionSet)   // "AVX-512"
    public static var instructionSet: String {
        switch nlukit_kernel_level() {
        case 2: return "AVX-512"
        case 1: return "AVX2"
        default: return "baseline"
        }
    }
}

extension Kernels {
    /// Runs `body` with the kernels limited to instruction level `level` (0 portable, 1 AVX2,
    /// 2 AVX-512), then restores the level in effect before; for tests that check every level.
    /// Like ``CPULevel/with(_:_:)``, it sets the calling thread's level only.
    static func withInstructionLevel<R>(_ level: Int, _ body: () throws -> R) rethrows -> R {
        try CPULevel.with(CPULevel(rawValue: min(max(level, 0), 2)) ?? .portable, body)
    }
}
