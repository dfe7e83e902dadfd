/// How deeply JSON nests, measured before a parser recurses into it: 10,000 nested `[` overflow the
/// stack of a recursive parser, and Foundation's own limit fails with a sentence about the whole
/// document. Readers refuse more than ``maximumDepth`` levels with a message that says so.
///
///     JSONNesting.depth(#"{"a": [[1]]}"#.utf8)   // 3
public enum JSONNesting {
    /// The deepest nesting of arrays and objects accepted by NLUKit's readers.
    public static let maximumDepth = 256

    /// The deepest nesting of `[`/`{` outside strings in JSON, found in one pass without recursion.
    /// (YAML is measured on its parser's events instead: there a `[` inside plain text is no nesting.)
    public static func depth(_ bytes: some Sequence<UInt8>) -> Int {
        var depth = 0, deepest = 0
        var inString = false
        var escaped = false
        for byte in bytes {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                deepest = max(deepest, depth)
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
        return deepest
    }
}
