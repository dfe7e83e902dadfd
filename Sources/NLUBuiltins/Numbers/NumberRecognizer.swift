/// Finds cardinal numbers (`number`: "21,000", "twenty-one thousand", "1.5k", "three quarters",
/// "a dozen") and ordinals (`ordinal`: "21st", "twenty-first").
struct NumberRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.number, .ordinal] }
    /// Ordinals relative to the end or the current item in a language other than English ("dernier", "vorletzte").
    var relativeOrdinals: RelativeOrdinalPhrases?

    /// Words after which a lone "one" is a pronoun ("the one you mentioned"), not a number.
    private static let pronounLeads: Set<String> = ["the", "this", "that", "which", "each", "any", "every", "no", "another", "one"]

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let parser = context.reader
        let english = context.language == .english
        // Other languages' relative ordinals are looked up in folded words, folded once here.
        let relatives = context.wants(.ordinal) ? relativeOrdinals : nil
        let folded = relatives.map { _ in DateTimeText(text) }
        var index = 0
        while index < text.count {
            if english, context.wants(.ordinal), let (value, last) = RelativeOrdinals.match(in: text, at: index) {
                matches.append(EntityMatch(type: .ordinal, tokens: text, first: index, last: last, resolution: .value(value)))
                index = last + 1
                continue
            }
            if let relatives, let folded, let (value, start, last) = relatives.match(folded, at: index) {
                matches.append(EntityMatch(type: .ordinal, start: start, end: text[last].end, resolution: .value(value)))
                index = last + 1
                continue
            }
            guard startsNumber(text, at: index), let number = parser.parse(at: index) else {
                index += 1
                continue
            }
            index = number.endToken
            if english, isPronounOne(text, number) { continue }
            let type: BuiltinEntityType = number.kind == .ordinal ? .ordinal : .number
            guard context.wants(type) else { continue }
            let last = repeatedInParentheses(text, parser, number) ?? number.endToken - 1
            matches.append(EntityMatch(type: type, tokens: text, first: number.firstToken, last: last,
                                       resolution: .value(context.valueText(number.value))))
            index = last + 1
        }
    }

    /// A number starts at a token that is not glued to a preceding word or number ("abc123", "cy18").
    func startsNumber(_ text: TokenizedText, at index: Int) -> Bool {
        guard index > 0, !text[index].spaceBefore else { return true }
        return text[index - 1].kind == .symbol
    }

    /// "forty-five (45)", "45 (forty five)": the same number again in parentheses belongs to it (Duckling).
    /// The closing parenthesis's index, or nil.
    private func repeatedInParentheses(_ text: TokenizedText, _ parser: any NumberReader, _ number: NumberMatch) -> Int? {
        guard let open = text.token(number.endToken), open.isSymbol("("), let inner = parser.parse(at: number.endToken + 1),
              inner.value == number.value, inner.spelled != number.spelled,
              let close = text.token(inner.endToken), close.isSymbol(")") else { return nil }
        return inner.endToken
    }

    private func isPronounOne(_ text: TokenizedText, _ number: NumberMatch) -> Bool {
        guard number.endToken == number.firstToken + 1, text.word(number.firstToken) == "one" else { return false }
        if let previous = text.word(number.firstToken - 1), Self.pronounLeads.contains(previous) { return true }
        if let next = text.word(number.endToken), next == "of" || next == "another" || next == "you" || next == "is" || next == "do" {
            return true
        }
        return number.firstToken == 0 && text.word(1).map { $0 == "may" || $0 == "might" || $0 == "can" || $0 == "should" } == true
    }
}
