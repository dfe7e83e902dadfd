import Foundation
import NLUKit

/// The state `nlu lm predict --state-out` saves and `--state-in` reads: JSON
/// {"shape": [layers, components, hidden], "values": [...]}.
struct LanguageModelStateFile: Codable {
    var shape: [Int]
    var values: [Float]

    /// What `--state-out` may replace without `--force` (``OutputFile``): a state file, recognised
    /// by its shape, as no other program writes this format: a JSON object of exactly `shape` and
    /// `values` whose shape holds that many values. The format has no header to mark it with, and
    /// adding one would make older nlu reject the files as `--state-in`.
    static let output = OutputFile(kind: "a language-model state (JSON)") { isState(at: $0) }

    /// How many values `shape` holds, or nil for a negative dimension or a product that overflows
    /// (a hostile shape must not trap).
    var shapeCount: Int? {
        shape.reduce(Optional(1)) { product, dimension in
            guard let product, dimension >= 0 else { return nil }
            let (result, overflow) = product.multipliedReportingOverflow(by: dimension)
            return overflow ? nil : result
        }
    }

    static func isState(at url: URL) -> Bool {
        // A state is one line; its head must open a JSON object before the file is read whole.
        guard OutputFile.prefix(of: url, count: 16).first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{"),
              let data = try? InputFile.read(url),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
              Set(object.keys) == ["shape", "values"],
              let state = try? JSONDecoder().decode(LanguageModelStateFile.self, from: data) else { return false }
        return state.shapeCount == state.values.count
    }
}
