import Foundation
import NLUCore
import Yams

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

    /// Throws when YAML `text` nests deeper than ``maxDepth`` (flow brackets or indentation) or its
    /// aliases expand to more than ``maxYAMLNodes`` values. Aliases are counted on the composed node
    /// tree, where an alias shares its anchor's node, so the check itself never expands them.
    static func checkYAML(_ text: String, file: String) throws {
        let flow = JSONNesting.depth(text.utf8, quotes: [UInt8(ascii: "\""), UInt8(ascii: "'")])
        let indentation = text.split(separator: "\n").lazy.map { $0.prefix { $0 == " " || $0 == "-" }.count }.max() ?? 0
        guard flow <= maxDepth, indentation <= maxDepth * 4 else {
            throw IntentDatasetError.malformedYAML(file: file, detail: "collections nest deeper than \(maxDepth) levels")
        }
        guard let root = try? Yams.compose(yaml: text) else { return }  // syntax errors are reported by the importer
        var budget = maxYAMLNodes
        var stack: [Node] = [root]
        while let node = stack.popLast() {
            budget -= 1
            guard budget >= 0 else {
                throw IntentDatasetError.malformedYAML(
                    file: file, detail: "aliases expand to more than \(maxYAMLNodes) values (an alias bomb?)")
            }
            switch node {
            case .mapping(let mapping): for (key, value) in mapping { stack.append(key); stack.append(value) }
            case .sequence(let sequence): stack.append(contentsOf: sequence)
            default: break
            }
        }
    }
}
