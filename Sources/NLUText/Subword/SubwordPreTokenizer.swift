/// The pre-tokenizers of byte-level BPE and SentencePiece models in a `tokenizer.json`: each
/// splits normalized text into words (with their alignments) that the model tokenizes one by one.
///
///     SubwordPreTokenizer.metaspace(replacement: "▁", prependScheme: .always, split: true)
///         .words(AlignedText("Hello world"), isFirst: true).map(\.string)   // ["▁Hello", "▁world"]
public enum SubwordPreTokenizer: Sendable {
    /// When `Metaspace` puts the replacement before a text.
    public enum PrependScheme: String, Sendable {
        case always, first, never
    }

    /// GPT-2's: an optional space before the text, the GPT-2 regex split, bytes as scalars.
    case byteLevel(addPrefixSpace: Bool, useRegex: Bool)
    /// SentencePiece's: spaces become `replacement`, which is prepended and starts every word.
    case metaspace(replacement: Unicode.Scalar, prependScheme: PrependScheme, split: Bool)
    /// Splits on whitespace, which is dropped (`WhitespaceSplit`; older XLM-R conversions put it before `Metaspace`).
    case whitespaceSplit
    /// Steps applied in order, each to every word of the previous one.
    case sequence([SubwordPreTokenizer])

    /// The words of `text`, one piece of the input (added tokens cut it into pieces); `isFirst`
    /// tells whether the piece starts at the beginning of the input (`prepend_scheme: first`).
    public func words(_ text: AlignedText, isFirst: Bool) -> [AlignedText] {
        var text = text
        switch self {
        case .whitespaceSplit:
            var words: [AlignedText] = []
            var start: Int?
            for index in text.scalars.indices {
                if text.scalars[index].properties.isWhitespace {
                    if let wordStart = start { words.append(text.slice(wordStart..<index)) }
                    start = nil
                } else if start == nil {
                    start = index
                }
            }
            if let wordStart = start { words.append(text.slice(wordStart..<text.scalars.count)) }
            return words
        case let .sequence(steps):
            var words = [text]
            for step in steps {
                // `first` asks whether a piece starts the input (its original offset is 0).
                words = words.flatMap { step.words($0, isFirst: $0.starts.first == 0) }
            }
            return words
        case let .byteLevel(addPrefixSpace, useRegex):
            if addPrefixSpace && text.scalars.first != " " { text.prepend(" ") }
            let ranges = useRegex ? ByteLevel.splitRanges(text.scalars) : [0..<text.scalars.count]
            return ranges.filter { !$0.isEmpty }.map { ByteLevel.bytesToScalars(text.slice($0)) }
        case let .metaspace(replacement, prependScheme, split):
            text.replace(matchesOf: { $0 == " " }, with: String(replacement))
            switch prependScheme {
            case .always: if text.scalars.first != replacement { text.prepend(String(replacement)) }
            case .first: if isFirst && text.scalars.first != replacement { text.prepend(String(replacement)) }
            case .never: break
            }
            guard split else { return text.isEmpty ? [] : [text] }
            // Each replacement starts a word; consecutive ones stand alone but the last joins
            // what follows (SplitDelimiterBehavior::MergedWithNext).
            var words: [AlignedText] = []
            var start = 0
            for index in text.scalars.indices where text.scalars[index] == replacement && index > start {
                words.append(text.slice(start..<index))
                start = index
            }
            if start < text.scalars.count { words.append(text.slice(start..<text.scalars.count)) }
            return words
        }
    }
}
