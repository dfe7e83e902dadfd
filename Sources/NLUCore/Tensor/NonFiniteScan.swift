import CKernels

/// Finding a NaN or an infinity among floats: weights at load and a model's outputs before they are
/// written. JSON has no NaN or infinity, so one such value becomes invalid output (`nan` in a JSON
/// line) or every later number NaN; checking is one read of the values, cheap beside computing them.
///
///     if let (index, value) = embedding.firstNonFinite() { throw ... "element \(index) is \(value)" }
public enum NonFiniteScan {
    /// The index and value of the first non-finite element of `values`, or nil when all are finite.
    public static func first(in values: UnsafeBufferPointer<Float>) -> (index: Int, value: Float)? {
        // In C (nlukit_first_non_finite): the same block-flag loop written in Swift kept its range
        // iteration's overflow checks and ran scalar, 14 % of a one-question `nlu qa ask` on BERT-base
        // (about 140 ms of CPU for 433 MB of weights).
        guard let base = values.baseAddress else { return nil }
        let index = nlukit_first_non_finite(base, values.count)
        return index < 0 ? nil : (index, values[index])
    }
}

extension Tensor where Scalar == Float {
    /// The flat (row-major) index and value of the first NaN or infinity, or nil when all are finite.
    public func firstNonFinite() -> (index: Int, value: Float)? {
        withUnsafeBufferPointer { NonFiniteScan.first(in: $0) }
    }
}

extension Array where Element == Float {
    /// The index and value of the first NaN or infinity, or nil when all are finite.
    public func firstNonFinite() -> (index: Int, value: Float)? {
        withUnsafeBufferPointer { NonFiniteScan.first(in: $0) }
    }
}
