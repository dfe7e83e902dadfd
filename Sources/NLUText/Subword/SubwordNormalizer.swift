import Foundation

/// The normalizers of a `tokenizer.json` that SentencePiece- and GPT-2-style models use, each
/// rewriting an ``AlignedText`` as Hugging Face `tokenizers` does (alignments included).
///
///     let normalizer = SubwordNormalizer.sequence([.precompiled(charsmap), .replace(.regex(" {2,}"), " ")])
///     var text = AlignedText("ｈｅｌｌｏ   world")
///     normalizer.normalize(&text)   // "hello world"
public indirect enum SubwordNormalizer: Sendable {
    /// What `Replace` looks for.
    public enum Pattern: Sendable {
        case string(String)
        /// A regular expression (ICU syntax, which agrees with Oniguruma on the patterns models use).
        case regex(NSRegularExpressionBox)
    }

    /// Steps applied in order.
    case sequence([SubwordNormalizer])
    /// SentencePiece's compiled rules.
    case precompiled(PrecompiledCharsmap)
    /// Every match of the pattern, left to right, replaced by the content.
    case replace(Pattern, String)
    /// Leading and/or trailing whitespace removed.
    case strip(left: Bool, right: Bool)

    /// Applies the normalizer to `text`.
    public func normalize(_ text: inout AlignedText) {
        switch self {
        case let .sequence(steps):
            for step in steps { step.normalize(&text) }
        case let .precompiled(charsmap):
            charsmap.normalize(&text)
        case let .replace(pattern, content):
            text.replace(matches: Self.matches(of: pattern, in: text.scalars), with: content)
        case let .strip(left, right):
            var lower = 0, upper = text.scalars.count
            if left { while lower < upper && text.scalars[lower].properties.isWhitespace { lower += 1 } }
            if right { while upper > lower && text.scalars[upper - 1].properties.isWhitespace { upper -= 1 } }
            if lower != 0 || upper != text.scalars.count { text = text.slice(lower..<upper) }
        }
    }

    /// Non-overlapping matches, left to right, as scalar ranges.
    static func matches(of pattern: Pattern, in scalars: [Unicode.Scalar]) -> [Range<Int>] {
        switch pattern {
        case let .string(needle):
            let needle = Array(needle.unicodeScalars)
            guard !needle.isEmpty, needle.count <= scalars.count else { return [] }
            var ranges: [Range<Int>] = []
            var index = 0
            while index + needle.count <= scalars.count {
                if scalars[index..<(index + needle.count)].elementsEqual(needle) {
                    ranges.append(index..<(index + needle.count))
                    index += needle.count
                } else {
                    index += 1
                }
            }
            return ranges
        case let .regex(box):
            let string = String(String.UnicodeScalarView(scalars))
            // UTF-16 offsets → scalar offsets.
            var scalarAtUTF16 = [Int](repeating: 0, count: string.utf16.count + 1)
            var utf16 = 0
            for (index, scalar) in scalars.enumerated() {
                let width = scalar.utf16.count
                for k in 0..<width { scalarAtUTF16[utf16 + k] = index }
                utf16 += width
            }
            scalarAtUTF16[utf16] = scalars.count
            return box.expression.matches(in: string, range: NSRange(location: 0, length: utf16)).compactMap { match in
                let range = match.range
                guard range.length > 0 else { return nil }
                return scalarAtUTF16[range.location]..<scalarAtUTF16[range.location + range.length]
            }
        }
    }
}

/// A compiled regular expression that can be shared between threads (matching does not mutate it).
public final class NSRegularExpressionBox: @unchecked Sendable {
    let expression: NSRegularExpression
    /// The pattern as written in the file.
    public let pattern: String

    public init(_ pattern: String) throws {
        self.pattern = pattern
        expression = try NSRegularExpression(pattern: pattern)
    }
}
