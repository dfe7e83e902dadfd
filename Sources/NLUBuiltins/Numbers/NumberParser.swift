import Foundation

/// A number read from the tokens of a text: its value, the tokens it spans, and whether it was an
/// ordinal ("21st", "twenty-first") or a fraction ("two thirds", "3/4").
struct NumberMatch: Sendable {
    enum Kind: Sendable { case cardinal, ordinal, fraction }

    var value: NumberValue
    var firstToken: Int
    /// One past the last token of the number.
    var endToken: Int
    var kind: Kind
    /// Whether the number was written (at least partly) in words.
    var spelled: Bool
}

/// Reads the longest number that starts at a token: digits with separators, decimals and suffixes
/// ("1,234.5", "1.5k", "10M"), words ("twenty-one thousand and five", "a dozen", "three quarters",
/// "two hundred point zero three"), mixed ("3 hundred and 21"), fractions and ordinals.
///
/// Each call looks at most ``maxTokens`` tokens ahead, which keeps the recognizers linear; results are
/// remembered per token, because the date-time patterns ask for the same numbers many times.
final class NumberParser {
    let text: TokenizedText
    /// Enough for a number spelled to the quintillions with hyphens ("four quintillion three hundred twenty-one quadrillion…", 42 tokens).
    static let maxTokens = 48
    /// What `parse(at:)` found at each token; one array (read once, written once per call) because
    /// every access to a class's stored array is checked for exclusivity, and this is the hottest path.
    /// Made at the first call (another language's texts carry this parser and seldom ask it); not a `lazy var`,
    /// whose get-and-set would copy the array at every write.
    private enum Cached { case unknown, absent, number(NumberMatch) }
    private var cache: [Cached] = []

    init(_ text: TokenizedText) {
        self.text = text
    }

    /// The number starting at token `index` (a sign "-", "minus" or "negative" included), or nil.
    func parse(at index: Int) -> NumberMatch? {
        guard index >= 0, index < text.count else { return nil }
        if cache.isEmpty { cache = [Cached](repeating: .unknown, count: text.count) }
        switch cache[index] {
        case .absent: return nil
        case .number(let match): return match
        case .unknown:
            let result = parseUncached(at: index)
            cache[index] = result.map(Cached.number) ?? .absent
            return result
        }
    }

    private func parseUncached(at index: Int) -> NumberMatch? {
        guard let token = text.token(index) else { return nil }
        var negative = false
        var start = index
        if token.isWord, token.text == "minus" || token.text == "negative" {
            negative = true
            start = index + 1
        } else if token.isSymbol("-") || token.isSymbol("\u{2212}"), index == 0 || token.spaceBefore {
            guard let next = text.token(index + 1), next.isDigits || next.isSymbol(".") else { return nil }
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

    /// "one over three", "2000 over 3", "two out of five hundred", "1 in twenty-one", "142 divided by eleven",
    /// "nineteen/two thousand": a fraction written as a ratio ("out of" only below one, "in" only with a
    /// numerator of one, as Recognizers-Text reads them; "/" only between spelled numbers).
    private func ratio(after numerator: NumberMatch) -> NumberMatch? {
        guard numerator.value.isInteger, let token = text.token(numerator.endToken) else { return nil }
        // "one hundred and forty two / eleven": a slash between spelled numbers ("3/4" is a digit literal).
        let word = token.isSymbol("/") && numerator.spelled ? "/" : token.kind == .word ? token.text : ""
        var next = numerator.endToken + 1
        if word == "out", text.word(next) == "of" {
            next += 1
        } else if word == "divided", text.word(next) == "by" {
            next += 1
        } else if word != "over" && word != "in" && word != "/" {
            return nil
        }
        guard let denominator = parseUnsigned(at: next), denominator.kind == .cardinal, denominator.value.isInteger,
              let quotient = numerator.value / denominator.value else { return nil }
        if word == "out" && numerator.value.double >= denominator.value.double { return nil }
        if word == "/" && !denominator.spelled { return nil }
        if word == "in" && numerator.value != .integer(1) { return nil }
        return NumberMatch(value: quotient, firstToken: numerator.firstToken, endToken: denominator.endToken, kind: .fraction,
                           spelled: numerator.spelled || denominator.spelled)
    }

    /// Digits with a word glued on that is not theirs ("115USD", "100元", "43c"): the number before the word,
    /// for the recognizers that read such a word as a unit. Nil where `parse(at:)` reads the text.
    func parseBeforeGluedWord(at index: Int) -> NumberMatch? {
        guard let token = text.token(index), token.isDigits, parse(at: index) == nil,
              let literal = digitLiteral(at: index, stopBeforeGluedWord: true), literal.kind == .cardinal,
              let glued = text.token(literal.match.endToken), glued.isWord, !glued.spaceBefore else { return nil }
        return literal.match
    }

    /// The number at `index` without a sign.
    func parseUnsigned(at index: Int) -> NumberMatch? {
        guard let token = text.token(index) else { return nil }
        switch token.kind {
        case .digits:
            return parseDigitsAndWords(at: index)
        case .symbol:
            if let fraction = Self.vulgarFractions[token.text] {
                return NumberMatch(value: .real(fraction), firstToken: index, endToken: index + 1, kind: .fraction, spelled: false)
            }
            // ".08": a decimal with no integer part.
            if token.text == ".", let digits = text.token(index + 1), digits.isDigits, text.touchesPrevious(index + 1),
               !(text.token(index - 1)?.isDigits ?? false && !token.spaceBefore) {
                let value = Double("0." + digits.text) ?? 0
                guard let suffix = text.token(index + 2), suffix.isWord, !suffix.spaceBefore else {
                    return NumberMatch(value: .real(value), firstToken: index, endToken: index + 2, kind: .cardinal, spelled: false)
                }
                // ".0012G": a multiplier glued on.
                guard let multiplier = NumberWords.suffixMultiplier(suffix.text, capitalized: suffix.capitalized),
                      !(text.token(index + 3).map { $0.isWord && !$0.spaceBefore } ?? false) else { return nil }
                return NumberMatch(value: .real(value) * .integer(multiplier), firstToken: index, endToken: index + 3,
                                   kind: .cardinal, spelled: false)
            }
            return nil
        case .word:
            guard NumberWords.startWords.contains(token.text) else { return nil }
            return parseWords(at: index, seed: nil)
        }
    }

    // MARK: digits

    /// A digit literal at `index`: separators, decimals, a fraction "3/4" or mixed "2 1/4", an exponent,
    /// a multiplier suffix or an ordinal suffix; then scale words may follow ("2 million", "3 dozen").
    private func parseDigitsAndWords(at index: Int) -> NumberMatch? {
        guard let literal = digitLiteral(at: index) else { return nil }
        if literal.kind != .cardinal || literal.hasSuffix { return literal.match }
        // Words may continue a plain literal: "322 hundred", "2 million", "3 hundred and 21".
        if let continued = parseWords(at: literal.match.endToken, seed: literal.match), continued.endToken > literal.match.endToken {
            return continued
        }
        return literal.match
    }

    private struct Literal {
        var match: NumberMatch
        var kind: NumberMatch.Kind { match.kind }
        var hasSuffix: Bool
    }

    private func digitLiteral(at index: Int, stopBeforeGluedWord: Bool = false) -> Literal? {
        let first = text[index]
        var digits = first.text
        var end = index + 1
        // Group separators are read at most `maxTokens` ahead, like everything else: the date-time patterns ask
        // for a number at every group of "123 123 123 …" (and the number recognizer at every pair of
        // "12,12,12,…"), and reading each run to its end made 10 kB take 16 s, 100 kB minutes.
        let limit = index + Self.maxTokens
        // Thousands separators: "1,234,567" (groups of three), or "1 234 567" with single spaces.
        if digits.count <= 3 {
            while end + 1 < limit, let comma = text.token(end), comma.isSymbol(","), !comma.spaceBefore,
                  let group = text.token(end + 1), group.isDigits, group.text.count == 3, !group.spaceBefore,
                  !(text.token(end + 2).map { $0.isDigits && !$0.spaceBefore } ?? false) {
                digits += group.text
                end += 2
            }
            // "12,34,567": Indian grouping, pairs of digits before the last three.
            if end == index + 1 {
                var position = end
                var pairs = ""
                while position + 3 < limit, let comma = text.token(position), comma.isSymbol(","), !comma.spaceBefore,
                      let group = text.token(position + 1), group.isDigits, group.text.count == 2, !group.spaceBefore {
                    pairs += group.text
                    position += 2
                }
                if !pairs.isEmpty, let comma = text.token(position), comma.isSymbol(","), !comma.spaceBefore,
                   let group = text.token(position + 1), group.isDigits, group.text.count == 3, !group.spaceBefore,
                   !(text.token(position + 2).map { ($0.isDigits || $0.isSymbol(",")) && !$0.spaceBefore } ?? false) {
                    digits += pairs + group.text
                    end = position + 2
                }
            }
            if end == index + 1 {
                while end < limit, let group = text.token(end), group.isDigits, group.text.count == 3, group.spaceBefore,
                      group.start == text[end - 1].end + 1, text.scalars[group.start - 1] != "\n" {
                    if let after = text.token(end + 1), after.isSymbol("/"), !after.spaceBefore { break }
                    digits += group.text
                    end += 1
                }
            }
        }
        var value = NumberValue(digits: Substring(digits))
        let kind = NumberMatch.Kind.cardinal
        // "1,3", "5,00": a decimal comma, where the digits after it cannot be a thousands group.
        if end == index + 1, digits.count <= 3, let comma = text.token(end), comma.isSymbol(","), !comma.spaceBefore,
           let fraction = text.token(end + 1), fraction.isDigits, fraction.text.count <= 2, !fraction.spaceBefore,
           !(text.token(end + 2).map { ($0.isSymbol(",") || $0.isSymbol(".") || $0.isDigits || $0.isWord) && !$0.spaceBefore } ?? false),
           !(index >= 2 && text[index - 1].isSymbol(",") && !text[index].spaceBefore && text[index - 2].isDigits) {
            return Literal(match: NumberMatch(value: .real(Double(digits + "." + fraction.text) ?? value.double), firstToken: index,
                                              endToken: end + 2, kind: .cardinal, spelled: false), hasSuffix: false)
        }
        // Decimals, unless this is a dotted sequence such as an IP address or a date "1.2.2019".
        let afterDot = index >= 2 && text[index - 1].isSymbol(".") && !text[index].spaceBefore && text[index - 2].isDigits
            && !text[index - 1].spaceBefore
        if !afterDot, let dot = text.token(end), dot.isSymbol("."), !dot.spaceBefore,
           let fraction = text.token(end + 1), fraction.isDigits, !fraction.spaceBefore,
           !(text.token(end + 2).map { ($0.isSymbol(".") || $0.isSymbol(",")) && !$0.spaceBefore
                && (text.token(end + 3).map { $0.isDigits && !$0.spaceBefore } ?? false) } ?? false) {
            value = .real(Double(digits + "." + fraction.text) ?? value.double)
            end += 2
        }
        // "1.1^23", "2.5^-1": a power (Recognizers-Text's reading; "-1.1^--23" has a doubled sign).
        if let caret = text.token(end), caret.isSymbol("^"), !caret.spaceBefore, let exponent = exponentValue(at: end + 1, signs: true) {
            let power = pow(value.double, Double(exponent.value))
            guard power.isFinite else { return nil }
            return Literal(match: NumberMatch(value: .real(power), firstToken: index, endToken: exponent.end, kind: .cardinal, spelled: false), hasSuffix: true)
        }
        // "3/4", "-4/5": a simple fraction, but not a date "5/17/2018".
        let afterSlash = index >= 1 && text[index - 1].isSymbol("/") && !text[index].spaceBefore
        if value.isInteger, !afterSlash, let slash = text.token(end), slash.isSymbol("/"), !slash.spaceBefore,
           let denominator = text.token(end + 1), denominator.isDigits, !denominator.spaceBefore,
           !(text.token(end + 2).map { $0.isSymbol("/") && !$0.spaceBefore } ?? false),
           let den = Int64(denominator.text), den > 0, value.double < Double(den),
           let quotient = value / .integer(den) {
            return Literal(match: NumberMatch(value: quotient, firstToken: index, endToken: end + 2, kind: .fraction, spelled: false), hasSuffix: true)
        }
        // "2 1/4": a whole number and a fraction.
        if value.isInteger, let numerator = text.token(end), numerator.isDigits, numerator.spaceBefore,
           let slash = text.token(end + 1), slash.isSymbol("/"), !slash.spaceBefore,
           let denominator = text.token(end + 2), denominator.isDigits, !denominator.spaceBefore,
           let num = Int64(numerator.text), let den = Int64(denominator.text), den > 0, num < den,
           !(text.token(end + 3).map { $0.isSymbol("/") && !$0.spaceBefore } ?? false) {
            let whole = value.double
            let total = whole + Double(num) / Double(den)
            return Literal(match: NumberMatch(value: .real(total), firstToken: index, endToken: end + 3, kind: .fraction, spelled: false), hasSuffix: true)
        }
        // A word glued to the digits: an exponent "1e10", a multiplier "1.5k", an ordinal "21st";
        // anything else ("29km", "180ml") makes this no number at all.
        if let suffix = text.token(end), suffix.isWord, !suffix.spaceBefore {
            if suffix.text == "e", let exponent = exponentValue(at: end + 1) {
                let scaled = value.double * pow10(exponent.value)
                return Literal(match: NumberMatch(value: .real(scaled), firstToken: index, endToken: exponent.end, kind: .cardinal, spelled: false), hasSuffix: true)
            }
            if let multiplier = NumberWords.suffixMultiplier(suffix.text, capitalized: suffix.capitalized) {
                if let after = text.token(end + 1), after.isWord, !after.spaceBefore { return nil }
                return Literal(match: NumberMatch(value: value * .integer(multiplier), firstToken: index, endToken: end + 1, kind: .cardinal, spelled: false), hasSuffix: true)
            }
            if NumberWords.ordinalSuffixes.contains(suffix.text), value.isInteger {
                return Literal(match: NumberMatch(value: value, firstToken: index, endToken: end + 1, kind: .ordinal, spelled: false), hasSuffix: true)
            }
            // "1.3x10^6": a mantissa times a power of ten.
            if suffix.text == "x", let ten = text.token(end + 1), ten.text == "10", !ten.spaceBefore,
               let caret = text.token(end + 2), caret.isSymbol("^"), !caret.spaceBefore,
               let exponent = exponentValue(at: end + 3, signs: true) {
                return Literal(match: NumberMatch(value: .real(value.double * pow10(exponent.value)), firstToken: index,
                                                  endToken: exponent.end, kind: .cardinal, spelled: false), hasSuffix: true)
            }
            guard stopBeforeGluedWord else { return nil }
            return Literal(match: NumberMatch(value: value, firstToken: index, endToken: end, kind: kind, spelled: false), hasSuffix: true)
        }
        // A multiplier after a space: "2.33 k", "10 bln", "1,674.5 G".
        if let suffix = text.token(end), suffix.isWord, suffix.spaceBefore, suffix.text != "m", suffix.text != "t",
           suffix.text != "b", let multiplier = NumberWords.suffixMultiplier(suffix.text, capitalized: suffix.capitalized),
           !(text.token(end + 1).map { $0.isWord && !$0.spaceBefore } ?? false) {
            if suffix.text.count > 1 || suffix.capitalized || suffix.text == "k" {
                return Literal(match: NumberMatch(value: value * .integer(multiplier), firstToken: index, endToken: end + 1, kind: .cardinal, spelled: false), hasSuffix: true)
            }
        }
        return Literal(match: NumberMatch(value: value, firstToken: index, endToken: end, kind: kind, spelled: false), hasSuffix: false)
    }

    /// An exponent's digits after an optional sign ("+", "-"; with `signs`, a run of them, "--" being "+").
    private func exponentValue(at index: Int, signs: Bool = false) -> (value: Int, end: Int)? {
        var sign = 1
        var position = index
        while let symbol = text.token(position), symbol.isSymbol("-") || symbol.isSymbol("+"), !symbol.spaceBefore,
              position == index || signs, position - index < 3 {
            if symbol.text == "-" { sign = -sign }
            position += 1
        }
        guard let digits = text.token(position), digits.isDigits, !digits.spaceBefore, digits.text.count <= 3,
              let exponent = Int(digits.text) else { return nil }
        return (sign * exponent, position + 1)
    }

    private func pow10(_ exponent: Int) -> Double {
        var result = 1.0
        for _ in 0..<abs(exponent) { result *= 10 }
        return exponent < 0 ? 1 / result : result
    }

    // MARK: words

    private enum Last { case start, article, unit, teen, tens, hundred, scale, and, digits, half }

    /// Number words from `index` on, continuing `seed` (a digit literal just read) when given.
    private func parseWords(at index: Int, seed: NumberMatch?) -> NumberMatch? {
        var total = NumberValue.integer(0)
        var current: NumberValue? = seed?.value
        var last: Last = seed == nil ? .start : .digits
        var lastScale: Int64 = .max
        var end = seed?.endToken ?? index
        var position = index
        var kind = NumberMatch.Kind.cardinal
        var spelled = false
        var lastUnit: Int64 = -1
        // What the group held at the last "and": a fraction's numerator is what came after it
        // ("one hundred and three quarters" is 100 + 3/4).
        var beforeAnd = NumberValue.integer(0)
        var hundredInGroup = false
        var lastBeforeAnd = Last.start
        // Digits then "and": only a fraction may follow ("2 and three fifths"); otherwise the number ends
        // before the "and" ("US$3 and fourteen" is 3 and then the cents; "twenty and four" stays 24).
        var completeBeforeAnd: (value: NumberValue, end: Int)?
        let limit = min(text.count, index + Self.maxTokens)

        func accept(_ next: Int) {
            end = next
            position = next
        }
        /// Whether a number word (or digits) starts at `at`, so "and" / "-" may join it.
        func numberStarts(at: Int) -> Bool {
            guard let token = text.token(at) else { return false }
            if token.isDigits { return true }
            guard token.isWord else { return false }
            let word = token.text
            return NumberWords.units[word] != nil || NumberWords.teens[word] != nil || NumberWords.tens[word] != nil
                || NumberWords.ordinal(word) != nil || NumberWords.pluralDenominator(word) != nil
                || word == "a" || word == "an" || word == "half" || word == "quarter" || word == "one"
        }

        loop: while position < limit {
            let token = text[position]
            if token.isDigits {
                // Digits continue a spelled number only after a scale or "and": "4 thousand 3 hundred and 21".
                guard last == .scale || (last == .and && (lastBeforeAnd == .hundred || lastBeforeAnd == .scale))
                        || (last == .hundred && seed != nil),
                      token.text.count <= 3, let value = Int64(token.text), value < 1000, value > 0 || last != .and,
                      !(text.token(position + 1).map { !$0.spaceBefore } ?? false) else { break }
                current = (current ?? .integer(0)) + .integer(value)
                last = .digits
                accept(position + 1)
                continue
            }
            if token.isSymbol("-") || token.isSymbol("\u{2014}") || token.isSymbol("\u{2013}") {
                // "twenty-one", "fifty - two", "one-eighth": a hyphen joins two number words.
                guard last == .tens || last == .unit || last == .hundred, numberStarts(at: position + 1) else { break }
                position += 1
                continue
            }
            guard token.isWord else { break }
            let word = token.text
            if last == .start, word == "a", let next = text.word(position + 1), next == "couple" || next == "pair" {
                // "a couple", "a pair (of)": two, as Duckling reads them.
                current = .integer(2)
                spelled = true
                accept(text.word(position + 2) == "of" ? position + 3 : position + 2)
                break loop
            }
            if last == .start || last == .hundred || last == .scale || last == .and, let (tens, rest) = NumberWords.gluedTens(word) {
                // "twentyfifth", "fortytwo": a tens word and a unit written as one.
                current = (current ?? .integer(0)) + .integer(tens + rest.value)
                spelled = true
                accept(position + 1)
                if rest.ordinal {
                    kind = .ordinal
                    break loop
                }
                last = .unit
                lastUnit = rest.value
                continue
            }
            if let value = NumberWords.units[word] {
                // "oh" is a zero only inside a number ("nine oh five"), never on its own.
                if word == "oh" && last == .start { break }
                let joinsTens = last == .tens && value > 0
                guard last == .start || last == .hundred || last == .scale || last == .and || joinsTens else { break }
                if last == .start && value == 0 && word != "zero" && word != "nought" && word != "naught" { break }
                current = (current ?? .integer(0)) + .integer(value)
                lastUnit = value
                last = .unit
                spelled = true
                accept(position + 1)
            } else if let value = NumberWords.teens[word] ?? NumberWords.tens[word] {
                guard last == .start || last == .hundred || last == .scale || last == .and else { break }
                current = (current ?? .integer(0)) + .integer(value)
                last = NumberWords.teens[word] != nil ? .teen : .tens
                spelled = true
                accept(position + 1)
            } else if word == "hundred" || word == "hundreds" {
                guard last == .unit || last == .teen || last == .tens || last == .article || last == .digits || last == .start,
                      !(last == .start && !NumberWords.bareScales.contains(word) && !numberFollowsHundredAlone(position)), !hundredInGroup else { break }
                current = (current ?? .integer(1)) * .integer(100)
                hundredInGroup = true
                last = .hundred
                spelled = true
                accept(position + 1)
            } else if let scale = NumberWords.scales[word] {
                if last == .scale, scale > lastScale {
                    // "three lakh crore": a larger scale multiplies everything so far.
                    total = total * .integer(scale)
                } else {
                    guard last == .unit || last == .teen || last == .tens || last == .hundred || last == .article
                        || last == .digits || last == .half || (last == .start && NumberWords.bareScales.contains(word)) else { break }
                    total = total + (current ?? .integer(1)) * .integer(scale)
                    current = nil
                }
                hundredInGroup = false
                beforeAnd = .integer(0)
                lastScale = scale
                last = .scale
                spelled = true
                accept(position + 1)
            } else if NumberWords.dozens.contains(word) {
                guard last == .unit || last == .teen || last == .tens || last == .hundred || last == .article
                    || last == .digits || last == .half else { break }
                total = (total + (current ?? .integer(1))) * .integer(12)
                current = nil
                last = .scale
                lastScale = 12
                spelled = true
                accept(position + 1)
            } else if word == "a" || word == "an" {
                guard last == .start || last == .and || last == .half,
                      let next = text.word(position + 1),
                      next == "hundred" || NumberWords.scales[next] != nil || NumberWords.dozens.contains(next)
                        || next == "half" || next == "quarter" || next == "third" || next == "fourth" || next == "fifth"
                        || (NumberWords.ordinal(next) != nil && last != .half) else { break }
                if last == .half {
                    // "half a dozen", "half a million": the half applies to what follows.
                    position += 1
                    last = .half
                    continue
                }
                if last == .and { total = total + (current ?? .integer(0)); current = nil }
                current = .integer(1)
                last = .article
                position += 1
            } else if word == "and" {
                guard last == .hundred || last == .scale || last == .unit || last == .teen || last == .tens || last == .digits,
                      numberStarts(at: position + 1) else { break }
                if last == .unit || last == .teen || last == .tens || last == .digits, !hundredInGroup {
                    // "twenty and three fifths": a complete number, then another part to add.
                    total = total + (current ?? .integer(0))
                    current = nil
                    if completeBeforeAnd == nil, last == .digits { completeBeforeAnd = (total, end) }
                    beforeAnd = .integer(0)
                } else {
                    beforeAnd = current ?? .integer(0)
                }
                lastBeforeAnd = last
                last = .and
                position += 1
            } else if word == "point" {
                // "two point five", "1 point 1", and "point 77" (no whole part).
                guard last != .and, let decimals = decimalWords(at: position + 1) else { break }
                current = .real((total + (current ?? .integer(0))).double + decimals.value)
                total = .integer(0)
                accept(decimals.end)
                spelled = true
                // "two point two million".
                if let scaleWord = text.word(end), let scale = NumberWords.scales[scaleWord], let value = current {
                    current = value * .integer(scale)
                    accept(end + 1)
                }
                break loop
            } else if word == "half" || word == "quarter" || word == "halves" || word == "quarters"
                        || (NumberWords.ordinal(word) != nil || NumberWords.pluralDenominator(word) != nil) {
                let denominator: Int64
                let plural: Bool
                if word == "half" || word == "halves" { denominator = 2; plural = word == "halves" }
                else if word == "quarter" || word == "quarters" { denominator = 4; plural = word == "quarters" }
                else if let value = NumberWords.pluralDenominator(word) { denominator = value; plural = true }
                else { denominator = NumberWords.ordinal(word) ?? 1; plural = false }
                let isFractionWord = word == "half" || word == "quarter" || plural

                if !isFractionWord {
                    // A singular ordinal: "first", "twenty-first", "one hundred twenty fifth" are ordinals;
                    // "one fifth", "a hundredth" (a numerator of one) are fractions.
                    let value = denominator
                    if (last == .article || (last == .unit && lastUnit == 1 && current == .integer(1))) && value > 2 {
                        current = (current ?? .integer(1)) / .integer(value)
                        kind = .fraction
                        spelled = true
                        accept(position + 1)
                        break loop
                    }
                    if last == .start {
                        current = .integer(value)
                    } else if NumberWords.ordinalScales[word] != nil, last != .and {
                        current = (current ?? .integer(1)) * .integer(value)
                    } else if last == .tens && value < 10 || last == .hundred || last == .scale
                                || (last == .and && (lastBeforeAnd == .hundred || lastBeforeAnd == .scale || hundredInGroup)) {
                        // "one hundred and forty second", "two thousand and fifth"; "thirty seven and fifth" is two.
                        current = (current ?? .integer(0)) + .integer(value)
                    } else {
                        break
                    }
                    kind = .ordinal
                    spelled = true
                    accept(position + 1)
                    break loop
                }
                // A fraction word: "three quarters", "two thirds", "a half", "half", "and a half".
                if last == .start {
                    guard word == "half" || word == "quarter" else { break }
                    current = .real(1.0 / Double(denominator))
                    last = .half
                    kind = .fraction
                    spelled = true
                    accept(position + 1)
                    continue
                }
                guard last == .unit || last == .teen || last == .tens || last == .article || last == .hundred || last == .digits
                        || (last == .scale && !plural) else { break }
                if last == .scale {
                    break
                }
                let whole = current == nil ? NumberValue.integer(0) : beforeAnd
                let numerator = current.map { $0 + -whole } ?? .integer(1)
                guard let fraction = numerator / .integer(denominator) else { break }
                let wholeBefore = total + whole
                if let previousAnd = andBefore(position), lastScale != .max, isScaleFractionJoin(previousAnd) {
                    // "one million and a half": half of the last scale.
                    total = wholeBefore + fraction * .integer(lastScale)
                } else {
                    total = wholeBefore + fraction
                }
                current = nil
                kind = .fraction
                last = .half
                spelled = true
                accept(position + 1)
            } else {
                break
            }
        }
        var value = total + (current ?? .integer(0))
        if let complete = completeBeforeAnd, kind != .fraction {
            value = complete.value
            end = complete.end
            current = nil
            total = complete.value
        }
        guard end > (seed?.endToken ?? index) else { return nil }
        if last == .half, kind == .fraction, total == .integer(0), let current, current.double < 1,
           let scaleWord = text.word(end), let scale = NumberWords.scales[scaleWord] {
            // "half million", "quarter million".
            value = current * .integer(scale)
            end += 1
        }
        if !spelled && seed == nil { return nil }
        return NumberMatch(value: value, firstToken: seed?.firstToken ?? index, endToken: end, kind: kind,
                           spelled: spelled || seed?.spelled == true)
    }

    /// "hundred" alone starts a number only when more number words follow ("hundred thousand").
    private func numberFollowsHundredAlone(_ position: Int) -> Bool {
        guard let next = text.word(position + 1) else { return false }
        return NumberWords.scales[next] != nil
    }

    /// The position of an "and" two tokens back ("and a half"), if any.
    private func andBefore(_ position: Int) -> Int? {
        if text.word(position - 2) == "and", let article = text.word(position - 1), article == "a" || article == "an" || article == "one" {
            return position - 2
        }
        return nil
    }

    /// Whether the "and" at `position` follows a scale word ("million and a half").
    private func isScaleFractionJoin(_ position: Int) -> Bool {
        guard let word = text.word(position - 1) else { return false }
        return NumberWords.scales[word] != nil
    }

    /// Decimal digits spelled after "point": "zero three" (.03), "seventy-one" (.71), "eleven" (.11).
    private func decimalWords(at index: Int) -> (value: Double, end: Int, spelled: Bool)? {
        var digits = ""
        var position = index
        // "point 77": digits written as digits.
        if let token = text.token(index), token.isDigits, token.spaceBefore,
           !(text.token(index + 1).map { !$0.spaceBefore } ?? false), let value = Double("0." + token.text) {
            return (value, index + 1, false)
        }
        while let word = text.word(position), digits.count < 16 {
            if let unit = NumberWords.units[word], word != "oh" || !digits.isEmpty {
                digits += String(unit)
                position += 1
            } else if let tens = NumberWords.tens[word] {
                var value = tens
                position += 1
                if let hyphen = text.token(position), hyphen.isSymbol("-"), let unitWord = text.word(position + 1),
                   let unit = NumberWords.units[unitWord] {
                    value += unit
                    position += 2
                } else if let unitWord = text.word(position), let unit = NumberWords.units[unitWord], unit > 0 {
                    value += unit
                    position += 1
                }
                digits += String(value)
            } else if let teen = NumberWords.teens[word] {
                digits += String(teen)
                position += 1
            } else {
                break
            }
        }
        guard !digits.isEmpty, let value = Double("0." + digits) else { return nil }
        return (value, position, true)
    }

    static let vulgarFractions: [String: Double] = [
        "½": 0.5, "⅓": 1.0 / 3, "⅔": 2.0 / 3, "¼": 0.25, "¾": 0.75, "⅕": 0.2, "⅖": 0.4, "⅗": 0.6, "⅘": 0.8,
        "⅙": 1.0 / 6, "⅚": 5.0 / 6, "⅐": 1.0 / 7, "⅛": 0.125, "⅜": 0.375, "⅝": 0.625, "⅞": 0.875, "⅑": 1.0 / 9,
        "⅒": 0.1,
    ]
}
