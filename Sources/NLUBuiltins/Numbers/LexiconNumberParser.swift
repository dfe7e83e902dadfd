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
    private let analyzer: NumberWordAnalyzer
    /// The analyzer's lexicon, read in place rather than copied for every text.
    private var lexicon: NumberLexicon { analyzer.lexicon }
    private enum Cached { case unknown, absent, number(NumberMatch) }
    private enum Pieces { case unknown, none, pieces([NumberMorpheme]) }
    /// What is known of one token, in one array for the text (one allocation per text, not one per kind).
    private struct Remembered {
        var number = Cached.unknown
        var pieces = Pieces.unknown
        /// ``wordValue(at:)``: the date-time readers ask it of the same words many times.
        var wordValue = Cached.unknown
    }
    private var remembered: [Remembered]

    init(_ text: TokenizedText, analyzer: NumberWordAnalyzer) {
        self.text = text
        self.analyzer = analyzer
        remembered = [Remembered](repeating: Remembered(), count: text.count)
    }

    func parse(at index: Int) -> NumberMatch? {
        guard index >= 0, index < text.count else { return nil }
        switch remembered[index].number {
        case .absent: return nil
        case .number(let match): return match
        case .unknown:
            let result = parseUncached(at: index)
            remembered[index].number = result.map(Cached.number) ?? .absent
            return result
        }
    }

    /// The cardinal the word at `index` says on its own, read within that one token (as if the text were that
    /// word alone), remembered per token.
    func wordValue(at index: Int) -> NumberValue? {
        guard let token = text.token(index), token.isWord else { return nil }
        switch remembered[index].wordValue {
        case .absent: return nil
        case .number(let match): return match.value
        case .unknown:
            var found: NumberMatch?
            if morphemes(at: index) != [.negative], let match = readWords(at: index, from: NumberWordsReading(lexicon: lexicon), first: index, end: index + 1),
               match.kind == .cardinal, !lexicon.weakWords.contains(token.text) {
                found = match
            }
            remembered[index].wordValue = found.map(Cached.number) ?? .absent
            return found?.value
        }
    }

    /// The number pieces of the word at `index`, or nil.
    private func morphemes(at index: Int) -> [NumberMorpheme]? {
        guard index >= 0, index < text.count, text[index].isWord else { return nil }
        switch remembered[index].pieces {
        case .none: return nil
        case .pieces(let found): return found
        case .unknown:
            let found = analyzer.morphemes(of: text[index].text)
            remembered[index].pieces = found.map(Pieces.pieces) ?? .none
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
        guard var match = parseUnsigned(at: start, allowingWeak: true) else { return nil }
        if match.kind == .cardinal, let ratio = ratio(after: match) {
            match = ratio
        } else if !negative, isWeakAlone(match) {
            // Dutch "een" alone is the article; "een op de twintig" and "min een" are numbers.
            return nil
        }
        if negative {
            guard match.kind != .ordinal else { return nil }
            match.value = -match.value
            match.firstToken = index
        }
        return match
    }

    /// Whether `match` is one weak word ("een") and nothing more.
    private func isWeakAlone(_ match: NumberMatch) -> Bool {
        match.endToken == match.firstToken + 1 && text.word(match.firstToken).map(lexicon.weakWords.contains) == true
    }

    /// "un sur trois", "1 sobre 3", "uno su centoventicinque", "1 op de 3".
    private func ratio(after numerator: NumberMatch) -> NumberMatch? {
        guard numerator.value.isInteger, let word = text.word(numerator.endToken), lexicon.ratioWords.contains(NumberLexicon.fold(word)) else { return nil }
        var next = numerator.endToken + 1
        if let article = text.word(next), lexicon.ratioArticles.contains(article) { next += 1 }
        guard let denominator = parseUnsigned(at: next), denominator.kind == .cardinal,
              denominator.value.isInteger, numerator.value.double < denominator.value.double,
              let quotient = numerator.value / denominator.value else { return nil }
        return NumberMatch(value: quotient, firstToken: numerator.firstToken, endToken: denominator.endToken, kind: .fraction,
                           spelled: numerator.spelled || denominator.spelled)
    }

    private func parseUnsigned(at index: Int, allowingWeak: Bool = false) -> NumberMatch? {
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
            if lexicon.halfNouns.contains(NumberLexicon.fold(token.text)) {
                return NumberMatch(value: .real(0.5), firstToken: index, endToken: index + 1, kind: .fraction, spelled: true)
            }
            guard let match = readWords(at: index, from: NumberWordsReading(lexicon: lexicon), first: index) else { return nil }
            // Dutch "een" alone is the article.
            if !allowingWeak, isWeakAlone(match) { return nil }
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
        // Whether the last word read ended with tens ("twintig"): where units come before their tens, a unit
        // in the next word starts something else ("twintig vijfde" is 20/5).
        var afterTens = false
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
                reading.addDecimals(decimals.value, spokenFraction: decimals.spokenFraction)
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
                afterTens = false
                position += 1
                continue
            }
            if !reading.started, pieces.count == 1, case .fraction(let denominator) = pieces[0], startsScaleOrDozen(at: position + 1) {
                // "media docena", "mezzo milione", "een half miljoen" without its "een".
                reading.startWithFraction(denominator)
                end = position + 1
                position += 1
                spelled = true
                continue
            }
            var next = reading
            let unitAfterTens = lexicon.unitBeforeTens && afterTens && pieces.first.map { if case .value(let v) = $0 { v < 10 } else { false } } == true
            if !unitAfterTens, pieces.allSatisfy({ next.add($0) }) {
                if pieces.count > 1, pieces.last != .connector, pieces.contains(.connector) { next.forgetConnector() }
                reading = next
                end = position + 1
                position += 1
                spelled = true
                afterTens = pieces.last.map { if case .value(let v) = $0 { v >= 20 && v < 100 && v % 10 == 0 } else { false } } == true
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
            } else if reading.started, reading.kind == .cardinal, !lexicon.denominatorWords.isEmpty,
                      let (denominator, after) = compoundDenominator(at: position) {
                // "um vinte e um avos", "três dois milésimos".
                reading.divide(by: denominator)
                end = after
                spelled = true
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

    /// Whether a scale ("milione") or a dozen starts at `index`, perhaps after a hyphen ("demi-douzaine").
    private func startsScaleOrDozen(at index: Int) -> Bool {
        let position = text.token(index)?.isSymbol("-") == true ? index + 1 : index
        guard let pieces = morphemes(at: position), pieces.count == 1 else { return false }
        switch pieces[0] {
        case .scale, .dozen: return true
        default: return false
        }
    }

    /// A denominator said as a cardinal and a word: "vinte e um avos" 21, "dois milésimos" 2000, "vinte milésimos"
    /// 20000; its value and the token after it.
    private func compoundDenominator(at index: Int) -> (Int64, Int)? {
        guard let number = readWords(at: index, from: NumberWordsReading(lexicon: lexicon), first: index) else { return nil }
        if number.kind == .cardinal, let value = number.value.integer, value > 1,
           let word = text.word(number.endToken), lexicon.denominatorWords.contains(NumberLexicon.fold(word)) {
            return (Int64(value), number.endToken + 1)
        }
        // "dois milésimos" reads as 2/1000: its denominator is 2 × 1000.
        guard number.kind == .fraction, let last = morphemes(at: number.endToken - 1), last.count == 1,
              case .fraction(let scale) = last[0], scale >= 1000 else { return nil }
        let numerator = (number.value.double * Double(scale)).rounded()
        guard numerator > 1, numerator < 1e6 else { return nil }
        return (Int64(numerator) * scale, number.endToken)
    }

    /// The value of a word that is an ordinal on its own ("cinquième" 5, "derde" 3, "centième" 100), or nil.
    private func ordinalValue(_ pieces: [NumberMorpheme]) -> Int64? {
        var reading = NumberWordsReading(lexicon: lexicon)
        guard pieces.allSatisfy({ reading.add($0) }), reading.kind == .ordinal else { return nil }
        return reading.integerValue
    }

    /// Decimals spelled after "virgule"/"Komma": zeros, then one number read for its digits ("cero tres" .03,
    /// "veintidós" .22); Spanish "con" may also bring a fraction ("ciento treinta con tres veintiunavos").
    private func decimalWords(at index: Int) -> (value: Double, end: Int, spokenFraction: Bool)? {
        var digits = ""
        var position = index
        while morphemes(at: position) == [.value(0)], digits.count < 16 {
            digits += "0"
            position += 1
        }
        if let number = readWords(at: position, from: NumberWordsReading(lexicon: lexicon), first: position) {
            if number.kind == .fraction, digits.isEmpty { return (number.value.double, number.endToken, true) }
            guard number.kind == .cardinal, let whole = number.value.integer else { return nil }
            digits += String(whole)
            position = number.endToken
        } else if let token = text.token(position), token.isDigits, digits.isEmpty {
            digits = token.text
            position += 1
        }
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        return (value, position, false)
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
        // A decimal comma: "9,2321312", "4,800" (4.8); not in a run "1,2,3" (a comma and a space may follow).
        if let comma = text.token(end), comma.isSymbol(lexicon.decimalMark), !comma.spaceBefore,
           let fraction = text.token(end + 1), fraction.isDigits, !fraction.spaceBefore,
           !(gluedSymbolThenDigits(at: end + 2, lexicon.decimalMark)) {
            value = .real(Double(digits + "." + fraction.text) ?? value.double)
            end += 2
            plain = false
        } else if !grouped, let dot = text.token(end), dot.isSymbol("."), !dot.spaceBefore,
                  let fraction = text.token(end + 1), fraction.isDigits, !fraction.spaceBefore,
                  digits.count > 3 || digits == "0" || fraction.text.count != 3,
                  !gluedSymbolThenDigits(at: end + 2, "."), !gluedSymbolThenDigits(at: index - 1, ".") {
            // A decimal point where it cannot group thousands: "5.00", "0.683", "1111.13", "1234567.0"; not a
            // date or an address ("17.05.2018", "192.168.1.2").
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
        // "3/4", "-4/5"; "2 1/4", "1 4/5"; not a date ("17/5/2018").
        if value.isInteger, !gluedSymbolThenDigits(at: index - 1, "/"), let slash = text.token(end), slash.isSymbol("/"), !slash.spaceBefore,
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

    /// Whether token `index` is `symbol` glued to digits before and after it ("1,2" in "1,2,3").
    private func gluedSymbolThenDigits(at index: Int, _ symbol: String) -> Bool {
        guard let mark = text.token(index), mark.isSymbol(symbol), !mark.spaceBefore, index > 0, text[index - 1].isDigits,
              let after = text.token(index + 1), after.isDigits, !after.spaceBefore else { return false }
        return true
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
