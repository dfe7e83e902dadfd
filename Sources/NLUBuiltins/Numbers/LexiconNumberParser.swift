import Foundation

/// Reads numbers of a language other than English from a ``NumberLexicon``: digits written the language's
/// way ("2.000,352", "1 234 567", ",08", "1,1^23", "2,33 k"), ordinal digits ("1er", "2º", "11e", "3."), words
/// ("quatre-vingt-dix-sept", "dreihundertvierundzwanzig", "doscientos treinta y uno"), fractions ("deux
/// tiers", "un sur trois", "drei halbe") and decimals in words ("zwei Komma drei").
///
/// Like ``NumberParser`` each call looks a bounded number of tokens ahead and results are remembered per
/// token, so recognition stays linear in the length of the text.
final class LexiconNumberParser: NumberReader {
    let text: TokenizedText
    let lexicon: NumberLexicon
    private let analyzer: NumberWordAnalyzer
    private enum Cached { case unknown, absent, number(NumberMatch) }
    private var cache: [Cached]
    private enum Pieces { case unknown, none, pieces([NumberMorpheme]) }
    private var pieces: [Pieces]
    /// ``wordValue(at:)`` per token: the date-time readers ask it of the same words many times.
    private var wordValues: [Cached]

    init(_ text: TokenizedText, analyzer: NumberWordAnalyzer) {
        self.text = text
        self.analyzer = analyzer
        lexicon = analyzer.lexicon
        cache = [Cached](repeating: .unknown, count: text.count)
        pieces = [Pieces](repeating: .unknown, count: text.count)
        wordValues = [Cached](repeating: .unknown, count: text.count)
    }

    func parse(at index: Int) -> NumberMatch? {
        guard index >= 0, index < text.count else { return nil }
        switch cache[index] {
        case .absent: return nil
        case .number(let match): return match
        case .unknown:
            let result = parseUncached(at: index)
            cache[index] = result.map(Cached.number) ?? .absent
            return result
        }
    }

    /// The cardinal the word at `index` says on its own, read within that one token (as if the text were that
    /// word alone), remembered per token.
    func wordValue(at index: Int) -> NumberValue? {
        guard let token = text.token(index), token.isWord else { return nil }
        switch wordValues[index] {
        case .absent: return nil
        case .number(let match): return match.value
        case .unknown:
            var found: NumberMatch?
            if morphemes(at: index) != [.negative], let match = readWords(at: index, from: NumberWordsReading(lexicon: lexicon), first: index, end: index + 1),
               match.kind == .cardinal, !lexicon.weakWords.contains(NumberLexicon.fold(token.text)) {
                found = match
            }
            wordValues[index] = found.map(Cached.number) ?? .absent
            return found?.value
        }
    }

    /// The number pieces of the word at `index`, or nil.
    private func morphemes(at index: Int) -> [NumberMorpheme]? {
        guard index >= 0, index < text.count, text[index].isWord else { return nil }
        switch pieces[index] {
        case .none: return nil
        case .pieces(let found): return found
        case .unknown:
            let found = analyzer.morphemes(of: text[index].text)
            pieces[index] = found.map(Pieces.pieces) ?? .none
            return found
        }
    }

    private func parseUncached(at index: Int) -> NumberMatch? {
        guard let token = text.token(index) else { return nil }
        var negative = false
        var start = index
        if token.isWord, morphemes(at: index) == [.negative] {
            negative = true
            start = index + 1
        } else if token.isSymbol("-") || token.isSymbol("\u{2212}"), index == 0 || token.spaceBefore {
            guard let next = text.token(index + 1), next.isDigits || next.isSymbol(lexicon.decimalMark) else { return nil }
            negative = true
            start = index + 1
        }
        guard var match = parseUnsigned(at: start) else { return nil }
        if match.kind == .cardinal, let ratio = ratio(after: match) { match = ratio }
        if negative {
            guard match.kind != .ordinal else { return nil }
            match.value = -match.value
            match.firstToken = index
        }
        return match
    }

    /// "un sur trois", "1 sobre 3", "uno su centoventicinque".
    private func ratio(after numerator: NumberMatch) -> NumberMatch? {
        guard numerator.value.isInteger, let word = text.word(numerator.endToken), lexicon.ratioWords.contains(NumberLexicon.fold(word)),
              let denominator = parseUnsigned(at: numerator.endToken + 1), denominator.kind == .cardinal,
              denominator.value.isInteger, numerator.value.double < denominator.value.double,
              let quotient = numerator.value / denominator.value else { return nil }
        return NumberMatch(value: quotient, firstToken: numerator.firstToken, endToken: denominator.endToken, kind: .fraction,
                           spelled: numerator.spelled || denominator.spelled)
    }

    private func parseUnsigned(at index: Int) -> NumberMatch? {
        guard let token = text.token(index) else { return nil }
        switch token.kind {
        case .digits:
            guard let literal = digitLiteral(at: index) else { return nil }
            // "2 miljoen", "3 dozijn", "322 cent", "300 Milliarden": words may continue a plain integer.
            if literal.plain, case .integer(let value) = literal.match.value, value < 1_000_000 {
                let seeded = NumberWordsReading(lexicon: lexicon, digits: value)
                if let continued = readWords(at: literal.match.endToken, from: seeded, first: index),
                   continued.endToken > literal.match.endToken {
                    return continued
                }
            }
            return literal.match
        case .symbol:
            if let fraction = NumberParser.vulgarFractions[token.text] {
                return NumberMatch(value: .real(fraction), firstToken: index, endToken: index + 1, kind: .fraction, spelled: false)
            }
            // ",08": decimals with no whole part.
            if token.text == lexicon.decimalMark, let digits = text.token(index + 1), digits.isDigits, text.touchesPrevious(index + 1),
               !(text.token(index - 1).map { $0.isDigits && !token.spaceBefore } ?? false),
               !(text.token(index + 2).map { $0.isWord && !$0.spaceBefore } ?? false),
               let value = Double("0." + digits.text) {
                return NumberMatch(value: .real(value), firstToken: index, endToken: index + 2, kind: .cardinal, spelled: false)
            }
            return nil
        case .word:
            guard let match = readWords(at: index, from: NumberWordsReading(lexicon: lexicon), first: index) else { return nil }
            // Dutch "een" alone is the article.
            if match.endToken == index + 1, lexicon.weakWords.contains(NumberLexicon.fold(token.text)) { return nil }
            return match
        }
    }

    // MARK: words

    /// Number words from `index` on, continuing `reading`; the match starts at token `first` and reads no token
    /// at or after `bound` (``wordValue(at:)`` reads one word).
    private func readWords(at index: Int, from start: NumberWordsReading, first: Int, end bound: Int? = nil) -> NumberMatch? {
        var reading = start
        var end = index
        var position = index
        var spelled = false
        let limit = min(bound ?? text.count, text.count, index + NumberParser.maxTokens)
        while position < limit {
            let token = text[position]
            if token.isSymbol("-") || token.isSymbol("\u{2013}") {
                // "quatre-vingt-dix", "vingt-et-un": a hyphen joins number words.
                guard reading.started, !token.spaceBefore || !(text.token(position + 1)?.spaceBefore ?? true),
                      morphemes(at: position + 1) != nil else { break }
                position += 1
                continue
            }
            guard let pieces = morphemes(at: position) else { break }
            if pieces == [.decimalPoint] {
                guard reading.started, reading.kind == .cardinal, let decimals = decimalWords(at: position + 1) else { break }
                reading.addDecimals(decimals.value)
                end = decimals.end
                spelled = true
                break
            }
            if reading.isOne, let ordinal = readWords(at: position, from: NumberWordsReading(lexicon: lexicon), first: position),
               ordinal.kind == .ordinal, let denominator = ordinal.value.integer, denominator > 2 {
                // "un cinquième", "un vingt cinquième", "un billionième": a fraction with numerator one.
                reading.divide(by: Int64(denominator))
                end = ordinal.endToken
                spelled = true
                break
            }
            if pieces == [.connector] {
                // "et", "und" join what follows; they end no number.
                guard reading.started else { break }
                var next = reading
                guard next.add(.connector) else { break }
                reading = next
                position += 1
                continue
            }
            var next = reading
            if pieces.allSatisfy({ next.add($0) }) {
                reading = next
                end = position + 1
                position += 1
                spelled = true
                if reading.isComplete { break }
                continue
            }
            // "trois cinquième", "twee derde": an ordinal that cannot continue the number is its denominator.
            if reading.started, reading.kind == .cardinal, let denominator = ordinalValue(pieces), denominator > 2 {
                reading.divide(by: denominator)
                end = position + 1
                spelled = true
                // "fünf und drei Viertel Milliarde": a scale may still follow.
                if let scale = morphemes(at: position + 1), scale.count == 1, case .scale = scale[0], reading.add(scale[0]) {
                    end = position + 2
                }
            }
            break
        }
        guard spelled, let value = reading.value, end > index else { return nil }
        let kind: NumberMatch.Kind = switch reading.kind {
        case .cardinal: .cardinal
        case .ordinal: .ordinal
        case .fraction: .fraction
        }
        return NumberMatch(value: value, firstToken: first, endToken: end, kind: kind, spelled: true)
    }

    /// The value of a word that is an ordinal on its own ("cinquième" 5, "derde" 3, "centième" 100), or nil.
    private func ordinalValue(_ pieces: [NumberMorpheme]) -> Int64? {
        var reading = NumberWordsReading(lexicon: lexicon)
        guard pieces.allSatisfy({ reading.add($0) }), reading.kind == .ordinal else { return nil }
        return reading.integerValue
    }

    /// Decimals spelled after "virgule"/"Komma": zeros, then one number read for its digits ("cero tres" .03,
    /// "veintidós" .22); Spanish "con" may also bring a fraction ("ciento treinta con tres veintiunavos").
    private func decimalWords(at index: Int) -> (value: Double, end: Int)? {
        var digits = ""
        var position = index
        while morphemes(at: position) == [.value(0)], digits.count < 16 {
            digits += "0"
            position += 1
        }
        if let number = readWords(at: position, from: NumberWordsReading(lexicon: lexicon), first: position) {
            if number.kind == .fraction, digits.isEmpty { return (number.value.double, number.endToken) }
            guard number.kind == .cardinal, let whole = number.value.integer else { return nil }
            digits += String(whole)
            position = number.endToken
        } else if let token = text.token(position), token.isDigits, digits.isEmpty {
            digits = token.text
            position += 1
        }
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        return (value, position)
    }

    // MARK: digits

    /// A digit literal at `index` and whether it is a plain integer words may continue.
    private func digitLiteral(at index: Int) -> (match: NumberMatch, plain: Bool)? {
        var digits = text[index].text
        var end = index + 1
        let limit = index + NumberParser.maxTokens
        var grouped = false
        // Thousands: "1.234.567", "2.000,352", or "1 234 567" with single spaces.
        if digits.count <= 3 {
            while end + 1 < limit, let dot = text.token(end), dot.isSymbol(lexicon.groupMark), !dot.spaceBefore,
                  let group = text.token(end + 1), group.isDigits, group.text.count == 3, !group.spaceBefore,
                  !(text.token(end + 2).map { $0.isDigits && !$0.spaceBefore } ?? false) {
                digits += group.text
                end += 2
                grouped = true
            }
            if !grouped {
                while end < limit, let group = text.token(end), group.isDigits, group.text.count == 3, group.spaceBefore,
                      group.start == text[end - 1].end + 1, text.scalars[group.start - 1] != "\n" {
                    if let after = text.token(end + 1), after.isSymbol("/"), !after.spaceBefore { break }
                    digits += group.text
                    end += 1
                }
            }
        }
        var value = NumberValue(digits: Substring(digits))
        var plain = true
        // A decimal comma: "9,2321312", "4,800" (4.8).
        if let comma = text.token(end), comma.isSymbol(lexicon.decimalMark), !comma.spaceBefore,
           let fraction = text.token(end + 1), fraction.isDigits, !fraction.spaceBefore,
           !(text.token(end + 2).map { $0.isSymbol(lexicon.decimalMark) && !$0.spaceBefore } ?? false) {
            value = .real(Double(digits + "." + fraction.text) ?? value.double)
            end += 2
            plain = false
        }
        func match(_ value: NumberValue, _ endToken: Int, _ kind: NumberMatch.Kind = .cardinal) -> (NumberMatch, Bool) {
            (NumberMatch(value: value, firstToken: index, endToken: endToken, kind: kind, spelled: false), false)
        }
        // "1,1^23", "-2500^-1".
        if let caret = text.token(end), caret.isSymbol("^"), !caret.spaceBefore, let exponent = exponentValue(at: end + 1) {
            let power = pow(value.double, Double(exponent.value))
            guard power.isFinite else { return nil }
            return match(.real(power), exponent.end)
        }
        // "3/4", "-4/5"; "2 1/4", "1 4/5".
        if value.isInteger, let slash = text.token(end), slash.isSymbol("/"), !slash.spaceBefore,
           let denominator = text.token(end + 1), denominator.isDigits, !denominator.spaceBefore,
           !(text.token(end + 2).map { $0.isSymbol("/") && !$0.spaceBefore } ?? false),
           let den = Int64(denominator.text), den > 0, let quotient = value / .integer(den) {
            return match(quotient, end + 2, .fraction)
        }
        if value.isInteger, let numerator = text.token(end), numerator.isDigits, numerator.spaceBefore,
           let slash = text.token(end + 1), slash.isSymbol("/"), !slash.spaceBefore,
           let denominator = text.token(end + 2), denominator.isDigits, !denominator.spaceBefore,
           let num = Int64(numerator.text), let den = Int64(denominator.text), den > 0, num < den {
            return match(.real(value.double + Double(num) / Double(den)), end + 3, .fraction)
        }
        if let suffix = text.token(end), !suffix.spaceBefore {
            if suffix.isWord {
                // "1e10", "10k", "10G", "1,2b", "1er", "11ème", "30ste"; any other glued word ("180ml") is no number.
                if suffix.text == "e", let exponent = exponentValue(at: end + 1) {
                    return match(.real(value.double * pow(10, Double(exponent.value))), exponent.end)
                }
                if let multiplier = NumberWords.suffixMultiplier(suffix.text, capitalized: suffix.capitalized),
                   !(text.token(end + 1).map { $0.isWord && !$0.spaceBefore } ?? false) {
                    return match(value * .integer(multiplier), end + 1)
                }
                if value.isInteger, !grouped, lexicon.digitOrdinalSuffixes.contains(NumberLexicon.fold(suffix.text)) {
                    return match(value, end + 1, .ordinal)
                }
                return nil
            }
            // "2º", "3ª", "11°".
            if suffix.isSymbol("º") || suffix.isSymbol("ª") || suffix.isSymbol("°"), value.isInteger,
               lexicon.digitOrdinalSuffixes.contains(suffix.text),
               !(text.token(end + 1).map { $0.isWord && !$0.spaceBefore } ?? false) {
                return match(value, end + 1, .ordinal)
            }
            // German "die 3. Banane": a dot then a word.
            if lexicon.dotOrdinal, suffix.isSymbol("."), value.isInteger, !grouped,
               let word = text.token(end + 1), word.isWord, word.spaceBefore {
                return match(value, end + 1, .ordinal)
            }
        }
        // A multiplier after a space: "2,33 k", "- 10  k".
        if let suffix = text.token(end), suffix.isWord, suffix.spaceBefore, suffix.text == "k" || suffix.capitalized,
           let multiplier = NumberWords.suffixMultiplier(suffix.text, capitalized: suffix.capitalized),
           !(text.token(end + 1).map { $0.isWord && !$0.spaceBefore } ?? false) {
            return match(value * .integer(multiplier), end + 1)
        }
        return (NumberMatch(value: value, firstToken: index, endToken: end, kind: .cardinal, spelled: false), plain && !grouped)
    }

    /// An exponent's digits after signs ("-1", "+23", "--23" being +23).
    private func exponentValue(at index: Int) -> (value: Int, end: Int)? {
        var sign = 1
        var position = index
        while let symbol = text.token(position), symbol.isSymbol("-") || symbol.isSymbol("+"), !symbol.spaceBefore, position - index < 3 {
            if symbol.text == "-" { sign = -sign }
            position += 1
        }
        guard let digits = text.token(position), digits.isDigits, !digits.spaceBefore, digits.text.count <= 3,
              let exponent = Int(digits.text) else { return nil }
        return (sign * exponent, position + 1)
    }
}
