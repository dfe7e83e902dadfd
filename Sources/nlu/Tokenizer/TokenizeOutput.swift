import Foundation
import NLUKit

/// Formats encodings for `nlu tokenizer encode`: JSON lines (keys in a fixed order, UTF-8 kept as is) or text.
///
/// Written byte by byte into one buffer: a file of lines is mostly output, and building a String per
/// line through JSONEncoder, `map(String.init)` and joins took about three times as long as the
/// tokenization itself (2 MB of text: 0.47 s CPU for the whole process, 0.09 s of it encoding).
struct TokenizeOutput {
    let json: Bool
    /// Print a JSON array of windows per input (pairs and --max-length) rather than one object.
    let windowed: Bool
    private var buffer: [UInt8] = []

    init(json: Bool, windowed: Bool) {
        self.json = json
        self.windowed = windowed
        buffer.reserveCapacity(1 << 17)
    }

    mutating func write(_ windows: [Encoding]) {
        if json {
            if windowed { buffer.append(UInt8(ascii: "[")) }
            for (index, encoding) in windows.enumerated() where windowed || index == 0 {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                Self.appendJSONObject(encoding, to: &buffer)
            }
            if windowed { buffer.append(UInt8(ascii: "]")) }
            buffer.append(UInt8(ascii: "\n"))
        } else {
            for (index, encoding) in windows.enumerated() {
                if windows.count > 1 { buffer.append(contentsOf: "window \(index + 1)/\(windows.count)\n".utf8) }
                buffer.append(contentsOf: "tokens:".utf8)
                for token in encoding.tokens {
                    buffer.append(UInt8(ascii: " "))
                    buffer.append(contentsOf: token.utf8)
                }
                buffer.append(contentsOf: "\nids:   ".utf8)
                for id in encoding.ids {
                    buffer.append(UInt8(ascii: " "))
                    Self.appendDecimal(Int(id), to: &buffer)
                }
                buffer.append(UInt8(ascii: "\n"))
                if encoding.typeIDs.contains(1) {
                    buffer.append(contentsOf: "types: ".utf8)
                    for type in encoding.typeIDs {
                        buffer.append(UInt8(ascii: " "))
                        Self.appendDecimal(Int(type), to: &buffer)
                    }
                    buffer.append(UInt8(ascii: "\n"))
                }
            }
        }
        if buffer.count > 1 << 16 { flush() }
    }

    /// Through ``Console/write(_:)``, which handles write errors and closed pipes.
    mutating func flush() {
        Console.write(String(decoding: buffer, as: UTF8.self))
        buffer.removeAll(keepingCapacity: true)
    }

    /// {"tokens":[...],"ids":[...],"type_ids":[...],"offsets":[[start,end],...]}
    static func appendJSONObject(_ encoding: Encoding, to out: inout [UInt8]) {
        out.append(contentsOf: "{\"tokens\":[".utf8)
        for (index, token) in encoding.tokens.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendJSONString(token, to: &out)
        }
        out.append(contentsOf: "],\"ids\":[".utf8)
        appendNumbers(encoding.ids, to: &out)
        out.append(contentsOf: "],\"type_ids\":[".utf8)
        appendNumbers(encoding.typeIDs, to: &out)
        out.append(contentsOf: "],\"offsets\":[".utf8)
        for (index, offset) in encoding.offsets.enumerated() {
            out.append(contentsOf: index > 0 ? ",[".utf8 : "[".utf8)
            appendDecimal(offset.lowerBound, to: &out)
            out.append(UInt8(ascii: ","))
            appendDecimal(offset.upperBound, to: &out)
            out.append(UInt8(ascii: "]"))
        }
        out.append(contentsOf: "]}".utf8)
    }

    /// A JSON string as JSONEncoder writes it with `.withoutEscapingSlashes`: `"` and `\` escaped,
    /// control characters as \b \f \n \r \t or \u00XX, everything else as its UTF-8 bytes.
    static func appendJSONString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x08: out.append(contentsOf: "\\b".utf8)
            case 0x0C: out.append(contentsOf: "\\f".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                out.append(contentsOf: "\\u00".utf8)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0xF)])
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    static func appendNumbers(_ numbers: [Int32], to out: inout [UInt8]) {
        for (index, number) in numbers.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            appendDecimal(Int(number), to: &out)
        }
    }

    /// `value` in decimal, without a String in between.
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                     UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0
        withUnsafeMutableBytes(of: &digits) { digits in
            repeat {
                digits[count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            } while magnitude > 0
            for index in stride(from: count - 1, through: 0, by: -1) { out.append(digits[index]) }
        }
    }
}
