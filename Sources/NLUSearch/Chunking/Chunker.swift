import NLUText

/// A passage of a document: its text and where it lies in the document, in Unicode scalars
/// (as Python counts them).
public struct Chunk: Sendable, Equatable {
    /// The chunk's position in its document: 0, 1, 2...
    public var position: Int
    /// Scalar offsets into the document: `start..<end`.
    public var start: Int
    public var end: Int
    public var text: String
}

/// Cuts a document into overlapping chunks of whole words (see ``ChunkingOptions``). Words are separated
/// by whitespace; in a script written without spaces (Chinese, Japanese, Thai) each character counts as a word.
///
///     let chunks = Chunker(options: try ChunkingOptions(size: 3, overlap: 1)).chunks(of: "a b c d e")
///     // "a b c" (0..<5), "c d e" (4..<9)
public struct Chunker: Sendable {
    public let options: ChunkingOptions

    public init(options: ChunkingOptions) {
        self.options = options
    }

    /// The chunks of `text`, in order; none when it holds only whitespace. The last chunk always
    /// ends at the last word, and no chunk lies wholly inside the previous one.
    public func chunks(of text: String) -> [Chunk] {
        let scalars = Array(text.unicodeScalars)
        var words: [Range<Int>] = []
        var index = 0
        while index < scalars.count {
            while index < scalars.count, scalars[index].properties.isWhitespace { index += 1 }
            let start = index
            if index < scalars.count, WordBoundaries.isUnspacedScriptLetter(scalars[index]) {
                // Chinese, Japanese or Thai has no spaces to count words by: each character (with its
                // marks) counts as one, or a whole document would be one chunk.
                index += 1
                while index < scalars.count, KeywordTerms.isMark(scalars[index]) { index += 1 }
            } else {
                while index < scalars.count, !scalars[index].properties.isWhitespace,
                      !WordBoundaries.isUnspacedScriptLetter(scalars[index]) { index += 1 }
            }
            if index > start { words.append(start..<index) }
        }
        var chunks: [Chunk] = []
        let step = options.size - options.overlap
        var first = 0
        while first < words.count {
            let last = min(first + options.size, words.count) - 1
            let range = words[first].lowerBound..<words[last].upperBound
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars[range])
            chunks.append(Chunk(position: chunks.count, start: range.lowerBound, end: range.upperBound, text: String(view)))
            if last == words.count - 1 { break }
            first += step
        }
        return chunks
    }
}
