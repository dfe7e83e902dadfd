import Foundation

/// Overwrites values of an F32, F16 or BF16 tensor in a safetensors file in place: the tests of damaged weights
/// (a NaN, an infinity, a value near Float's limit) start from a valid fixture and change one tensor.
///
///     try SafeTensorsPatch.set("output.bias", in: weightsURL, to: .nan)
public enum SafeTensorsPatch {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Sets the first `count` elements (all when nil) of tensor `tensor` (F32, F16 or BF16) in `file` to `value`.
    public static func set(_ tensor: String, in file: URL, to value: Float, count: Int? = 1) throws {
        var bytes = [UInt8](try Data(contentsOf: file))
        guard bytes.count >= 8 else { throw Failure(description: "\(file.path): not a safetensors file") }
        let headerLength = bytes[0..<8].reversed().reduce(0) { $0 << 8 | Int($1) }
        guard 8 + headerLength <= bytes.count,
              let header = try JSONSerialization.jsonObject(with: Data(bytes[8..<(8 + headerLength)])) as? [String: Any],
              let entry = header[tensor] as? [String: Any], let dtype = entry["dtype"] as? String,
              let offsets = entry["data_offsets"] as? [Int], offsets.count == 2 else {
            throw Failure(description: "\(file.path): no tensor '\(tensor)'")
        }
        let pattern: [UInt8]
        switch dtype {
        case "F32": pattern = withUnsafeBytes(of: value.bitPattern.littleEndian) { Array($0) }
        case "F16": pattern = withUnsafeBytes(of: Float16(value).bitPattern.littleEndian) { Array($0) }
        case "BF16": pattern = withUnsafeBytes(of: UInt16(truncatingIfNeeded: value.bitPattern >> 16).littleEndian) { Array($0) }
        default: throw Failure(description: "\(file.path): tensor '\(tensor)' is \(dtype), not a float type")
        }
        let start = 8 + headerLength + offsets[0]
        let elements = min(count ?? Int.max, (offsets[1] - offsets[0]) / pattern.count)
        for element in 0..<elements {
            let at = start + pattern.count * element
            bytes.replaceSubrange(at..<(at + pattern.count), with: pattern)
        }
        try Data(bytes).write(to: file)
    }
}
