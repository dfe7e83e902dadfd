import Foundation

/// Turns the bytes of a text file into a `String`: strips a UTF-8 byte-order mark (Watson exports
/// have one), reads UTF-16 with a BOM, and falls back to Windows-1252 (a superset of Latin-1) when
/// the bytes are not valid UTF-8, with a warning, rather than failing or garbling.
///
///     var warnings: [String] = []
///     let text = TextDecoding.string(from: data, file: "train.json", warnings: &warnings)
public enum TextDecoding {
    /// Decodes `data`; appends a warning naming `file` when it had to fall back to Windows-1252.
    public static func string(from data: Data, file: String, warnings: inout [String]) -> String {
        let bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return decodeUTF8(bytes.dropFirst(3), file: file, warnings: &warnings)
        }
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]),
           let text = String(data: data, encoding: .utf16) {
            return text
        }
        return decodeUTF8(bytes[...], file: file, warnings: &warnings)
    }

    /// `data` without a leading UTF-8 BOM, re-encoded as UTF-8 when it was Windows-1252.
    public static func utf8Data(from data: Data, file: String, warnings: inout [String]) -> Data {
        Data(string(from: data, file: file, warnings: &warnings).utf8)
    }

    private static func decodeUTF8(_ bytes: ArraySlice<UInt8>, file: String, warnings: inout [String]) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        warnings.append("\(file): not valid UTF-8; read as Latin-1 (Windows-1252)")
        var scalars = String.UnicodeScalarView()
        scalars.reserveCapacity(bytes.count)
        for byte in bytes {
            if (0x80...0x9F).contains(byte), let mapped = windows1252[byte] {
                scalars.append(mapped)
            } else {
                scalars.append(Unicode.Scalar(byte))
            }
        }
        return String(scalars)
    }

    /// The bytes where Windows-1252 differs from Latin-1 (0x80-0x9F; the five undefined ones stay C1 controls).
    private static let windows1252: [UInt8: Unicode.Scalar] = {
        let table: [(UInt8, UInt32)] = [
            (0x80, 0x20AC), (0x82, 0x201A), (0x83, 0x0192), (0x84, 0x201E), (0x85, 0x2026), (0x86, 0x2020),
            (0x87, 0x2021), (0x88, 0x02C6), (0x89, 0x2030), (0x8A, 0x0160), (0x8B, 0x2039), (0x8C, 0x0152),
            (0x8E, 0x017D), (0x91, 0x2018), (0x92, 0x2019), (0x93, 0x201C), (0x94, 0x201D), (0x95, 0x2022),
            (0x96, 0x2013), (0x97, 0x2014), (0x98, 0x02DC), (0x99, 0x2122), (0x9A, 0x0161), (0x9B, 0x203A),
            (0x9C, 0x0153), (0x9E, 0x017E), (0x9F, 0x0178),
        ]
        var map: [UInt8: Unicode.Scalar] = [:]
        for (byte, value) in table { map[byte] = Unicode.Scalar(value) }
        return map
    }()
}
