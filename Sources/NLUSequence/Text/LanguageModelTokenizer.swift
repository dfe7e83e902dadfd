import NLUText

/// Splits text into a ``LanguageModel``'s tokens and joins generated tokens back into text.
///
/// Word level uses ``NLUText/WordTokenizer`` (words, numbers and punctuation); character level takes
/// each character (grapheme cluster) except line breaks. Text is lowercased first when the model says so.
///
///     let tokenizer = LanguageModelTokenizer(level: .word, lowercase: true)
///     tokenizer.tokens(in: "The cat sat.")   // ["the", "cat", "sat", "."]
///     tokenizer.join(["the", "cat", "sat", "."])   // "the cat sat."
public struct LanguageModelTokenizer: Sendable {
    public var level: LanguageModelConfiguration.Level
    public var lowercase: Bool
    private let words = WordTokenizer(includePunctuation: true)

    public init(level: LanguageModelConfiguration.Level, lowercase: Bool) {
        self.level = level
        self.lowercase = lowercase
    }

    /// The tokens of `text` (no end token added). Stream-safe (``NLUText/StreamSafeText``): tokens are looked up
    /// in the vocabulary, and Swift hashes a word of 100,000 combining marks in a minute.
    public func tokens(in text: String) -> [String] {
        let source = StreamSafeText.string(of: lowercase ? text.lowercased() : text)
        switch level {
        case .word:
            return words.tokens(in: source).map { String($0.text) }
        case .character:
            return source.compactMap { $0.isNewline ? nil : String($0) }
        }
    }

    /// The tokens of a corpus: each non-empty line's tokens followed by `endToken`.
    public func corpusTokens(in text: String, endToken: String) -> [String] {
        var result: [String] = []
        text.enumerateLinesCompatible { line in
            let lineTokens = tokens(in: line)
            guard !lineTokens.isEmpty else { return }
            result += lineTokens
            result.append(endToken)
        }
        return result
    }

    /// The text to append after `previous` to add `token`: a space between words, none before
    /// closing punctuation or at character level.
    public func piece(for token: String, after previous: String?) -> String {
        guard level == .word, let previous else { return token }
        if Self.noSpaceBefore.contains(token) || Self.noSpaceAfter.contains(previous) { return token }
        return " " + token
    }

    /// Tokens joined back into text (see ``piece(for:after:)``).
    public func join(_ tokens: [String]) -> String {
        var text = ""
        var previous: String? = nil
        for token in tokens {
            text += piece(for: token, after: previous)
            previous = token
        }
        return text
    }

    private static let noSpaceBefore: Set<String> = [".", ",", "!", "?", ";", ":", ")", "]", "}", "%", "'", "’", "…"]
    private static let noSpaceAfter: Set<String> = ["(", "[", "{", "$", "#", "“", "\""]
}

extension String {
    /// Calls `body` with each line, without its terminator (`\n`, `\r\n` or `\r`).
    func enumerateLinesCompatible(_ body: (String) -> Void) {
        var start = startIndex
        var index = startIndex
        while index < endIndex {
            if self[index].isNewline {
                body(String(self[start..<index]))
                index = self.index(after: index)
                start = index
            } else {
                index = self.index(after: index)
            }
        }
        if start < endIndex { body(String(self[start..<endIndex])) }
    }
}
