/// Finds temperatures in a language other than English, from its ``UnitLexicon``: "30 degrés celsius", "-5
/// grados Fahrenheit", "fünfunddreißig °C", "37ºC", "6 gr. C", "98 degrés" (degrees without a scale, not
/// near an angle word: "un angle de 45 degrés" is no temperature); a scale named without an amount
/// ("convertir en fahrenheit", "degrés celsius") is a temperature with a unit and no value, as Recognizers-Text's
/// specs report it. The unit names are the language's ("C", "Grado Celsius", "Grau", "Degree").
struct LexiconTemperatureRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.temperature] }
    let units: UnitLexicon

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        recognizeAmounts(text, context: context, into: &matches)
        recognizeBareScales(text, into: &matches)
    }

    private func folded(_ text: TokenizedText, _ index: Int) -> String? {
        text.token(index).map { NumberLexicon.fold($0.text) }
    }

    /// Whether the token at `index` is a degree word; returns its last token ("deg." and "gr." with their dot).
    private func degree(_ text: TokenizedText, at index: Int) -> Int? {
        guard let word = folded(text, index), units.degreeWords.contains(word) else { return nil }
        if word == "deg" || word == "gr", let dot = text.token(index + 1), dot.isSymbol("."), !dot.spaceBefore { return index + 1 }
        return index
    }

    private func recognizeAmounts(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let reader = context.reader
        let starts = NumberRecognizer()
        var index = 0
        while index < text.count {
            guard starts.startsNumber(text, at: index), let number = degreeDigits(text, at: index) ?? reader.parse(at: index) else {
                index += 1
                continue
            }
            index = number.endToken
            var position = number.endToken
            var sawDegree = false
            var last = -1
            var unit: String?
            if number.kind == .ordinal {
                // "37º": the number reader takes a glued "º" for an ordinal's mark; before a scale or alone it is degrees.
                guard let mark = folded(text, number.endToken - 1), units.degreeWords.contains(mark), number.endToken - 1 > number.firstToken
                else { continue }
                sawDegree = true
                last = number.endToken - 1
            } else if number.kind != .cardinal {
                continue
            }
            // "4000000 de degrés".
            if !sawDegree, let word = text.word(position), units.unitConnectors.contains(NumberLexicon.fold(word)),
               degree(text, at: position + 1) != nil {
                position += 1
            }
            if !sawDegree, let degreeLast = degree(text, at: position) {
                sawDegree = true
                last = degreeLast
                position = degreeLast + 1
            }
            if let token = text.token(position), token.isWord, let word = folded(text, position) {
                // "37ºc", "20 °c": a scale glued to its degree mark counts as degrees and scale.
                var scaleWord = word
                var degreeGlued = false
                if let mark = units.degreeWords.first(where: { $0.count == 1 && word.hasPrefix($0) && word.count > 1 }) {
                    scaleWord = String(word.dropFirst(mark.count))
                    degreeGlued = true
                }
                if let scale = units.scales[scaleWord],
                   sawDegree || degreeGlued || scaleWord.count > 1 || !token.spaceBefore || token.capitalized {
                    unit = scale
                    last = position
                    sawDegree = sawDegree || degreeGlued
                }
            }
            var value = number.value
            // "200 K": the number reader takes a spaced "k" for thousands; without another unit it is Kelvin.
            if unit == nil, !sawDegree, number.endToken - 1 > number.firstToken, let k = text.token(number.endToken - 1),
               k.isWord, k.text == "k", k.spaceBefore, k.capitalized, let kelvin = units.scales["k"], let thousandth = value / .integer(1000) {
                value = thousandth
                unit = kelvin
                last = number.endToken - 1
            }
            if unit == nil, sawDegree {
                guard !nearAngle(text, from: number.firstToken, to: last) else { continue }
                unit = units.degreeUnit
            }
            guard let unit, last >= 0 else { continue }
            matches.append(EntityMatch(type: .temperature, tokens: text, first: number.firstToken, last: last,
                                       resolution: .value(context.valueText(value), unit: unit)))
            index = last + 1
        }
    }

    /// "37ºC", "36,6ºC", "0,4º C": digits (with a decimal comma) glued to a degree mark that the tokenizer joins to
    /// the scale's letter ("º" is a letter), which the number reader does not read as a number.
    private func degreeDigits(_ text: TokenizedText, at index: Int) -> NumberMatch? {
        guard text[index].isDigits else { return nil }
        var end = index + 1
        var digits = text[index].text
        if let comma = text.token(end), comma.isSymbol(","), !comma.spaceBefore, let decimals = text.token(end + 1), decimals.isDigits,
           !decimals.spaceBefore {
            digits += "." + decimals.text
            end += 2
        }
        guard let mark = text.token(end), mark.isWord, !mark.spaceBefore, mark.text.hasPrefix("º") || mark.text.hasPrefix("°"),
              let value = Double(digits) else { return nil }
        let number: NumberValue = end == index + 1 ? NumberValue(digits: Substring(digits)) : .real(value)
        return NumberMatch(value: number, firstToken: index, endToken: end, kind: .cardinal, spelled: false)
    }

    /// Whether an angle word is among the four tokens before `first` or the two after `last`.
    private func nearAngle(_ text: TokenizedText, from first: Int, to last: Int) -> Bool {
        for index in max(0, first - 4)..<min(text.count, last + 3) where index < first || index > last {
            if let word = text.word(index), units.angleWords.contains(NumberLexicon.fold(word)) { return true }
        }
        return false
    }

    /// "fahrenheit", "degrés celsius": a scale spelled out (not "F" or "C"), with its degrees when said.
    private func recognizeBareScales(_ text: TokenizedText, into matches: inout [EntityMatch]) {
        for index in 0..<text.count {
            guard text[index].isWord, let word = folded(text, index), word.count > 1, let scale = units.scales[word] else { continue }
            var first = index
            if index > 0, text[index - 1].isWord, let degreeWord = folded(text, index - 1), units.degreeWords.contains(degreeWord) {
                first = index - 1
            }
            matches.append(EntityMatch(type: .temperature, tokens: text, first: first, last: index, resolution: .unit(scale)))
        }
    }
}
