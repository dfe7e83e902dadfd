import Foundation
import NLUKit

/// Formats encodings for `nlu tokenize`: JSON lines (keys in a fixed order, UTF-8 kept as is) or text.
struct TokenizeOutput {
    let json: Bool
    /// Print a JSON array of windows per input (pairs and --max-length) rather than one object.
    let windowed: Bool
    private var buffer = ""

    init(json: Bool, windowed: Bool) {
        self.json = json
        self.windowed = windowed
    }

    mutating func write(_ windows: [Encoding]) {
        if json {
            let objects = windows.map(Self.jsonObject)
            buffer += windowed ? "[" + objects.joined(separator: ",") + "]\n" : objects[0] + "\n"
        } else {
            for (index, encoding) in windows.enumerated() {
                if windows.count > 1 { buffer += "window \(index + 1)/\(windows.count)\n" }
                buffer += "tokens: " + encoding.tokens.joined(separator: " ") + "\n"
                buffer += "ids:    " + encoding.ids.map(String.init).joined(separator: " ") + "\n"
                if encoding.typeIDs.contains(1) {
                    buffer += "types:  " + encoding.typeIDs.map(String.init).joined(separator: " ") + "\n"
                }
            }
        }
        if buffer.utf8.count > 1 << 16 { flush() }
    }

    mutating func flush() {
        Console.write(buffer)
        buffer = ""
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return encoder
    }()

    static func jsonObject(_ encoding: Encoding) -> String {
        let tokens = String(decoding: (try? encoder.encode(encoding.tokens)) ?? Data("[]".utf8), as: UTF8.self)
        let ids = encoding.ids.map(String.init).joined(separator: ",")
        let types = encoding.typeIDs.map(String.init).joined(separator: ",")
        let offsets = encoding.offsets.map { "[\($0.lowerBound),\($0.upperBound)]" }.joined(separator: ",")
        return "{\"tokens\":\(tokens),\"ids\":[\(ids)],\"type_ids\":[\(types)],\"offsets\":[\(offsets)]}"
    }
}
