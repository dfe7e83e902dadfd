/// Finding a NaN or an infinity among floats: weights at load and a model's outputs before they are
/// written. JSON has no NaN or infinity, so one such value becomes invalid output (`nan` in a JSON
/// line) or every later number NaN; checking is one read of the values, cheap beside computing them.
///
///     if let (index, value) = embedding.firstNonFinite() { throw ... "element \(index) is \(value)" }
public enum NonFiniteScan {
    /// The index and value of the first non-finite element of `values`, or nil when all are finite.
    public static func first(in values: UnsafeBufferPointer<Float>) -> (index: Int, value: Float)? {
        // A float is non-finite exactly when its exponent bits are all ones. OR-ing a flag over a
        // block without branches keeps the common all-finite pass at memory speed (the compiler
        // vectorises it); only a block that holds a bad value is searched element by element.
        let exponent: UInt32 = 0x7F80_0000
        let blockSize = 4096
        var blockStart = 0
        while blockStart < values.count {
            let blockEnd = min(blockStart + blockSize, values.count)
            var bad: UInt32 = 0
            for index in blockStart..<blockEnd {
                bad |= (values[index].bitPattern & exponent) == exponent ? 1 : 0
            }
            if bad != 0 {
                for index in blockStart..<blockEnd where !values[index].isFinite { return (index, values[index]) }
            }
            blockStart = blockEnd
        }
        return nil
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
