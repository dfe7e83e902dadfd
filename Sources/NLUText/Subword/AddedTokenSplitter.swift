/// Finds a tokenizer's added tokens (`<s>`, `</s>`, `<mask>`, ...) in text so they are never split,
/// as Hugging Face's `AddedVocabulary` does: leftmost match, the longest at one position;
/// `lstrip` / `rstrip` tokens swallow the whitespace before / after them (it reaches no other
/// token) and their range covers it (`RobertaProcessing`'s offset trimming then takes it off again).
///
///     let splitter = AddedTokenSplitter([.init(content: "<mask>", id: 4, leftStrip: true)])
///     splitter.split(Array("a <mask>".unicodeScalars))   // [.text(0..<1), .token(4, 1..<8)]
struct AddedTokenSplitter: Sendable {
    struct Token: Sendable {
        var content: [Unicode.Scalar]
        var id: Int32
        var leftStrip = false
        var rightStrip = false

        init(content: String, id: Int32, leftStrip: Bool = false, rightStrip: Bool = false) {
            self.content = Array(content.unicodeScalars)
            self.id = id
            self.leftStrip = leftStrip
            self.rightStrip = rightStrip
        }
    }

    enum Piece: Equatable {
        case text(Range<Int>)
        case token(Int32, Range<Int>)
    }

    private let tokens: [Token]
    private let automaton: LeftmostLongestMatcher

    init(_ tokens: [Token]) {
        self.tokens = tokens
        automaton = LeftmostLongestMatcher(tokens.map { $0.content.map(\.value) })
    }

    var isEmpty: Bool { automaton.isEmpty }

    /// `scalars` cut into text ranges and added tokens (the tokens' ranges include stripped whitespace).
    func split(_ scalars: [Unicode.Scalar]) -> [Piece] {
        guard !automaton.isEmpty else { return scalars.isEmpty ? [] : [.text(0..<scalars.count)] }
        var pieces: [Piece] = []
        var textStart = 0
        var index = 0
        while index < scalars.count {
            guard let match = automaton.firstMatch(in: scalars, from: index, symbol: \.value) else { break }
            let token = tokens[match.pattern]
            var start = match.range.lowerBound, end = match.range.upperBound
            if token.leftStrip {
                while start > textStart && scalars[start - 1].properties.isWhitespace { start -= 1 }
            }
            if token.rightStrip {
                while end < scalars.count && scalars[end].properties.isWhitespace { end += 1 }
            }
            if start > textStart { pieces.append(.text(textStart..<start)) }
            pieces.append(.token(token.id, start..<end))
            textStart = end
            index = end
        }
        if textStart < scalars.count { pieces.append(.text(textStart..<scalars.count)) }
        return pieces
    }
}
