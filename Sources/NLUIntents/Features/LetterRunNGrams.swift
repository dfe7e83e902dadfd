import NLUText

/// The character n-grams taken across each run of Thai, Lao, Khmer or Myanmar letters, the intent
/// featurizer's terms for scripts written without spaces whose words are several letters long
/// (``FeatureOptions/letterRunNGrams``).
///
/// The word tokenizer makes every such letter (with its marks) a word of its own, so the word unigrams and
/// bigrams see one or two letters at a time, less than a Thai word. The n-grams here run across the whole run
/// of letters (the run padded with a space at each end, as scikit-learn's `char_wb` pads a word) over its
/// Unicode scalars, vowel and tone marks included, as scikit-learn counts them. Each term is `#~` and the
/// n-gram: no word term starts with `#`, and a character n-gram (`#` then part of ` word `) never has a `~`
/// followed by anything but a space (a `~` is a token of its own).
///
///     var terms: [String] = []
///     let text = "ปิดไฟ"
///     LetterRunNGrams.append(from: WordTokenizer().tokens(in: text), of: text, lengths: 3...3, to: &terms)
///     // ["#~ ปิ", "#~ปิด", "#~ิดไ", "#~ดไฟ", "#~ไฟ "]
enum LetterRunNGrams {
    /// The scripts whose runs get these n-grams. Han and kana are left out on purpose: a Chinese or Japanese
    /// character is often a word or a morpheme already, and character n-grams across their runs cost 1.7
    /// points of intent accuracy in Chinese and 0.1 in Japanese on xSID (docs/benchmarks.md). Thai, Lao,
    /// Khmer and Myanmar are alphabets: a word is several letters, and the letters alone do not name it
    /// (Thai: 0.7 points under the scikit-learn baseline with letter unigrams and bigrams only).
    static let scripts: Set<WritingScript> = [.thai, .lao, .khmer, .myanmar]

    /// What every term starts with.
    static let termPrefix = "#~"

    /// Appends the n-grams (of `lengths` Unicode scalars) of every run of letters in ``scripts`` among
    /// `tokens` (tokens of `text`): adjacent tokens of one such script with nothing between them.
    static func append(from tokens: [WordTokenizer.Token], of text: String, lengths: ClosedRange<Int>,
                       to terms: inout [String]) {
        var start = tokens.startIndex
        while start < tokens.endIndex {
            guard let script = script(of: tokens[start]) else { start += 1; continue }
            var end = start + 1
            while end < tokens.endIndex, tokens[end].range.lowerBound == tokens[end - 1].range.upperBound,
                  self.script(of: tokens[end]) == script {
                end += 1
            }
            appendNGrams(of: text[tokens[start].range.lowerBound..<tokens[end - 1].range.upperBound], lengths: lengths, to: &terms)
            start = end
        }
    }

    /// Whether `term` is one of these n-grams (a model holding one needs a reader that makes them).
    static func isTerm(_ term: String) -> Bool {
        // By scalars: an n-gram starting with a mark (`#~ิดไ`) makes `~` and the mark one Character, so
        // `hasPrefix("#~")` is false for it.
        let scalars = term.unicodeScalars
        return scalars.starts(with: termPrefix.unicodeScalars) && scalars.dropFirst(2).contains { $0 != " " }
    }

    /// The script in ``scripts`` of a token that is one letter of it, else nil.
    private static func script(of token: WordTokenizer.Token) -> WritingScript? {
        guard token.isUnspacedScriptCharacter, let first = token.text.unicodeScalars.first,
              let script = WritingScript(letter: first), scripts.contains(script) else { return nil }
        return script
    }

    private static func appendNGrams(of run: Substring, lengths: ClosedRange<Int>, to terms: inout [String]) {
        let space: Unicode.Scalar = " "
        let scalars = [space] + Array(run.unicodeScalars) + [space]
        for length in lengths where length <= scalars.count {
            for start in 0...(scalars.count - length) {
                let gram = scalars[start..<(start + length)]
                // The padding alone (a 1-gram of either end) says nothing, and would be the `#~ ` a `~` token makes.
                if length == 1, gram.first == space { continue }
                var term = termPrefix
                term.unicodeScalars.append(contentsOf: gram)
                terms.append(term)
            }
        }
    }
}
