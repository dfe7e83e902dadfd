import Foundation
import NLUInputOutput

extension SafeTensors {
    /// Writes `tensors` as `F32` in the safetensors format, atomically (temporary file + rename).
    ///
    /// Tensors are stored in name order; the header is padded with spaces to a multiple of 8
    /// bytes so every tensor starts 8-byte aligned (and reads back as a zero-copy view).
    ///
    ///     try SafeTensors.write(["linear.weight": weight, "linear.bias": bias],
    ///                           metadata: ["format": "pt"], to: url)
    /// - Throws: ``SafeTensorsError`` for an empty or reserved tensor name, or when the file
    ///   cannot be written (the previous file, if any, is then left as it was).
    public static func write(_ tensors: [String: Tensor<Float>], metadata: [String: String] = [:], to url: URL) throws {
        let names = tensors.keys.sorted()
        var header = "{"
        var fields: [String] = []
        if !metadata.isEmpty {
            let pairs = metadata.keys.sorted().map { "\(jsonString($0)):\(jsonString(metadata[$0] ?? ""))" }
            fields.append("\"__metadata__\":{\(pairs.joined(separator: ","))}")
        }
        var offset = 0
        for name in names {
            guard !name.isEmpty, name != "__metadata__", let tensor = tensors[name] else {
                throw SafeTensorsError(file: url, tensor: name, kind: .invalidArgument,
                                       "tensor names must be non-empty and not '__metadata__'")
            }
            let byteCount = tensor.count * MemoryLayout<Float>.size
            let shape = tensor.shape.map(String.init).joined(separator: ",")
            fields.append("\(jsonString(name)):{\"dtype\":\"F32\",\"shape\":[\(shape)],\"data_offsets\":[\(offset),\(offset + byteCount)]}")
            offset += byteCount
        }
        header += fields.joined(separator: ",") + "}"
        var headerBytes = Array(header.utf8)
        // Pad so that 8 + header length is a multiple of 8 (8 itself is, so pad the header alone).
        headerBytes += [UInt8](repeating: UInt8(ascii: " "), count: (8 - headerBytes.count % 8) % 8)

        do {
            try AtomicFile.write(to: url) { output in
                var length = UInt64(headerBytes.count).littleEndian
                try withUnsafeBytes(of: &length) { try output.write($0) }
                try headerBytes.withUnsafeBytes { try output.write($0) }
                for name in names {
                    // Little-endian hosts only: the in-memory floats are the file's bytes.
                    try tensors[name]?.withUnsafeBufferPointer { try output.write(UnsafeRawBufferPointer($0)) }
                }
            }
        } catch let error as AtomicFile.WriteError {
            throw SafeTensorsError(file: url, kind: .io, error.reason)
        }
    }

    /// `value` as a JSON string literal.
    private static func jsonString(_ value: String) -> String {
        var result = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                result += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
