import Foundation

/// An independent, deliberately plain reading of the safetensors spec, used as the oracle of the
/// corruption fuzz test: it says whether a byte string is a valid file, using JSONSerialization
/// rather than the library's JSONDecoder-based parser and none of the library's code.
///
/// Rules (the spec plus the 100 MB header limit of the reference implementation): 8-byte
/// little-endian header length N with N <= 100 MB and 8 + N <= file size; the header is UTF-8,
/// starts with "{", parses as a JSON object; "__metadata__", if present, maps strings to
/// strings; every other key maps to an object with a known "dtype" string, a "shape" array of
/// non-negative integers and "data_offsets" [begin, end] with 0 <= begin <= end; end - begin
/// equals product(shape) × dtype size; sorted by offsets the tensors tile the byte buffer from 0
/// to its end without gap or overlap. (Integral JSON numbers such as 2.0 count as integers, as
/// JSONDecoder reads them.)
enum ReferenceSafeTensorsValidator {
    static let dtypeSizes = ["F32": 4, "F16": 2, "BF16": 2, "F64": 8, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1]

    static func isValid(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 8 else { return false }
        var length: UInt64 = 0
        for index in 0..<8 { length |= UInt64(bytes[index]) << (8 * UInt64(index)) }
        guard length <= 100_000_000, length <= UInt64(bytes.count - 8) else { return false }
        let header = Data(bytes[8..<(8 + Int(length))])
        guard header.first == UInt8(ascii: "{"), String(data: header, encoding: .utf8) != nil,
              let object = try? JSONSerialization.jsonObject(with: header) as? [String: Any]
        else { return false }
        let bufferSize = bytes.count - 8 - Int(length)
        var ranges: [(Int, Int)] = []
        for (name, value) in object {
            if name == "__metadata__" {
                guard let metadata = value as? [String: Any], metadata.values.allSatisfy({ $0 is String }) else { return false }
                continue
            }
            guard let entry = value as? [String: Any],
                  let dtype = entry["dtype"] as? String, let size = dtypeSizes[dtype],
                  let shapeValues = entry["shape"] as? [Any], let offsetValues = entry["data_offsets"] as? [Any]
            else { return false }
            let shape = shapeValues.map(integer), offsets = offsetValues.map(integer)
            guard shape.allSatisfy({ $0 != nil && $0! >= 0 }), offsets.count == 2,
                  let begin = offsets[0], let end = offsets[1], begin >= 0, begin <= end, end <= bufferSize
            else { return false }
            // Exact arithmetic in Double is enough here: any product beyond 2^53 cannot match a
            // byte count that fits in the (small) fuzzed files.
            let bytesNeeded = shape.reduce(Double(size)) { $0 * Double($1!) }
            guard bytesNeeded == Double(end - begin) else { return false }
            ranges.append((begin, end))
        }
        var position = 0
        for (begin, end) in ranges.sorted(by: { $0 < $1 }) {
            guard begin == position else { return false }
            position = end
        }
        return position == bufferSize
    }

    // JSON numbers that are integers: not booleans, integral and in Int's range.
    private static func integer(_ value: Any) -> Int? {
        guard let number = value as? NSNumber, String(cString: number.objCType) != "c" else { return nil }
        return value as? Int
    }
}
