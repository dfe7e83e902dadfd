/// Finds temperatures: "22 °C", "-5 degrees fahrenheit", "twenty-two degrees", "98.6F"; the unit is
/// "C", "F", "K" or "Degree" (no scale said), as Recognizers-Text names them.
struct TemperatureRecognizer: EntityRecognizer {
    var produces: Set<BuiltinEntityType> { [.temperature] }

    private static let scales: [String: String] = [
        "c": "C", "celsius": "C", "celcius": "C", "centigrade": "C", "centigrate": "C",
        "f": "F", "fahrenheit": "F", "farenheit": "F", "fahrenheight": "F",
        "k": "K", "kelvin": "K", "kelvins": "K",
    ]
    private static let degrees: Set<String> = ["degree", "degrees", "deg", "°", "º"]

    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch]) {
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
