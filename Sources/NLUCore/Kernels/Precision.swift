/// The arithmetic a model's dense layers run in at inference.
///
/// `f32` is the checkpoint's own precision. `int8` quantizes each dense weight once at load, per
/// output channel, and each input row on the fly, and accumulates exactly in int32
/// (``QuantizedMatrix``): about 3× the F32 GEMM's speed with AVX-512 VNNI and a quarter of its
/// weight memory, at the cost of a small, stated error (see docs/int8.md). Attention's two products
/// run in INT8 too (``Kernels/multiHeadAttention``); its softmax, layer norms and embeddings stay F32.
///
///     let precision = try Precision(parsing: "int8")
///     let qa = try QuestionAnswerer(modelDirectory: url, precision: precision)
public enum Precision: String, CaseIterable, Sendable, CustomStringConvertible {
    /// 32-bit floating point everywhere.
    case f32
    /// INT8 dense layers (weights per output channel, activations per row) and attention products, int32 sums.
    case int8

    /// The name a command line or a configuration uses: "f32" or "int8".
    public var description: String { rawValue }

    /// The precision named `name`.
    /// - Throws: ``PrecisionError`` naming the value and the choices when it is neither.
    public init(parsing name: String) throws {
        guard let precision = Precision(rawValue: name) else { throw PrecisionError.unknown(name) }
        self = precision
    }
}

/// A precision name that is not one of ``Precision``'s, or one a model cannot run at.
public enum PrecisionError: Error, Equatable, CustomStringConvertible {
    /// A name that is not a precision.
    case unknown(String)
    /// A precision that the model (named) cannot run at, such as INT8 for a Core ML file.
    case notApplicable(Precision, model: String)

    public var description: String {
        switch self {
        case .unknown(let name):
            "precision \"\(name)\": expected \(Precision.allCases.map(\.rawValue).joined(separator: " or "))"
        case .notApplicable(let precision, let model):
            "\(model): precision \(precision) applies to checkpoint encoders; this model runs at f32"
        }
    }
}
