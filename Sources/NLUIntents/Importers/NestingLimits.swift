import Foundation
import NLUCore
import NLUInputOutput

/// Limits on nested input checked before a parser recurses into it: 10,000 nested `[` overflow the
/// stack of recursive parsers, and a 1 KB YAML file whose aliases nest 9 deep ("billion laughs")
/// expands past gigabytes.
enum NestingLimits {
    /// The deepest nesting of arrays and objects (or YAML collections) accepted.
    static let maxDepth = JSONNesting.maximumDepth
    /// The most values a YAML document may expand to once its aliases are followed.
    static let maxYAMLNodes = 1_000_000

    /// Throws when JSON `data` nests deeper than ``maxDepth``.
    static func checkJSON(_ data: Data, file: String) throws {
        let depth = JSONNesting.depth(data)
        guard depth <= maxDepth else {
            throw IntentDatasetError.malformedJSON(file: file, detail: "arrays and objects nest \(depth) deep; at most \(maxDepth) levels are accepted")
        }
    }

    /// Throws when YAML `text` nests deeper than ``maxDepth`` or a document's aliases expand to more
    /// than ``maxYAMLNodes`` values. Both are read from the parser's events (``YAMLShape``), so a `[`
    /// written in an example is text, as YAML reads it, and an alias is counted without expanding it.
    static func checkYAML(_ text: String, file: String) throws {
        let shape = YAMLShape.measure(text, stopDepth: maxDepth, stopValues: maxYAMLNodes)
        guard shape.depth <= maxDepth else {
            throw IntentDatasetError.malformedYAML(file: file, detail: "line \(shape.deepestLine): collections nest deeper than \(maxDepth) levels")
        }
        guard shape.values <= maxYAMLNodes else {
            throw IntentDatasetError.malformedYAML(
                file: file, detail: "aliases expand to more than \(maxYAMLNodes) values (an alias bomb?)")
        }
    }
}
