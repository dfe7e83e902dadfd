/// Finds temperatures: "22 °C", "-5 degrees fahrenheit", "twenty-two degrees", "98.6F"; the unit is
/// "C", "F", "K" or "Degree" (no scale said), as Recognizers-Text names them. A scale named without an
/// amount ("convert 10 celsius to **fahrenheit**", "to **degrees celsius**") is a temperature with a unit
/// and no value, as Recognizers-Text reports it; an amount with its unit, being longer, wins over it.
struct TemperatureRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.temperature] }

    private static let scales: [String: String] = [
        "c": "C", "celsius": "C", "celcius": "C", "centigrade": "C", "centigrate": "C",
        "f": "F", "fahrenheit": "F", "farenheit": "F", "fahrenheight": "F",
        "k": "K", "kelvin": "K", "kelvins": "K",
    ]
    private static let degrees: Set<String> = ["degree", "degrees", "deg", "°", "º"]

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        recognizeAmounts(text, context: context, into: &matches)
        recognizeBareScales(text, into: &matches)
    }

    /// "fahrenheit", "degrees celsius": a scale spelled out (not "F" or "C", which are too often something
    /// else), with "degree(s)" in front when said.
    private func recognizeBareScales(_ text: TokenizedText, into matches: inout [EntityMatch]) {
        for index in 0..<text.count {
            let token = text[index]
            guard token.isWord, token.text.count > 1, let scale = Self.scales[token.text] else { continue }
            var first = index
            if index > 0, text[index - 1].isWord, Self.degrees.contains(text[index - 1].text) { first = index - 1 }
            matches.append(EntityMatch(type: .temperature, tokens: text, first: first, last: index, resolution: .unit(scale)))
        }
    }

    private func recognizeAmounts(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
        let parser = context.numbers
        let numbers = NumberRecognizer()
        var index = 0
        while index < text.count {
            guard numbers.startsNumber(text, at: index), let number = parser.parse(at: index), number.kind == .cardinal else {
                index += 1
                continue
            }
            index = number.endToken
            var position = number.endToken
            var unit: String?
            var last = -1
            if let token = text.token(position), Self.degrees.contains(token.text) {
                unit = "Degree"
                last = position
                position += 1
                if token.text == "deg", let dot = text.token(position), dot.isSymbol("."), !dot.spaceBefore {
                    last = position
                    position += 1
                }
            }
            if let token = text.token(position), token.isWord, let scale = Self.scales[token.text],
               unit != nil || token.text.count > 1 || !token.spaceBefore {
                unit = scale
                last = position
            }
            var value = number.value
            // "2 below zero", "2 degrees below zero".
            if text.word((last >= 0 ? last : number.endToken - 1) + 1) == "below",
               text.word((last >= 0 ? last : number.endToken - 1) + 2) == "zero" {
                value = -value
                last = (last >= 0 ? last : number.endToken - 1) + 2
                unit = unit ?? "Degree"
            }
            guard let unit, last >= 0 else { continue }
            if unit == "Degree", let next = text.word(last + 1), next == "angle" || next == "angles" { continue }
            matches.append(EntityMatch(type: .temperature, tokens: text, first: number.firstToken, last: last,
                                       resolution: .value(value.text, unit: unit)))
            index = last + 1
        }
    }
}
