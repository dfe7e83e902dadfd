/// Expands slot placeholders such as `{FlowerType}` in Lex and Alexa sample utterances into real
/// text: each placeholder takes one of its slot's sample values (cycling, so successive utterances
/// use different values) and is kept as an entity annotation; a slot without sample values becomes
/// the neutral token ``neutralToken`` (annotated, with no value).
///
///     var expander = PlaceholderExpander(sampleValues: ["FlowerType": ["roses", "tulips"]])
///     expander.expand("I want {FlowerType}").text   // "I want roses"
struct PlaceholderExpander {
    /// What a placeholder without sample values becomes.
    static let neutralToken = "_slot_"

    /// Sample values by slot name.
    let sampleValues: [String: [String]]
    private var nextValue: [String: Int] = [:]

    init(sampleValues: [String: [String]]) {
        self.sampleValues = sampleValues.filter { !$0.value.isEmpty }
    }

    /// `template` with every `{Slot}` replaced, and the replacements annotated.
    mutating func expand(_ template: String) -> Utterance {
        var builder = UtteranceBuilder()
        var rest = Substring(template)
        while let open = rest.firstIndex(of: "{"),
              let close = rest[open...].firstIndex(of: "}") {
            builder.append(String(rest[..<open]))
            // Alexa allows `{slot|synonym}`-free names; Lex V1 `{Slot}`; strip spaces defensively.
            let slot = rest[rest.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if let values = sampleValues[slot] {
                let index = nextValue[slot, default: 0]
                nextValue[slot] = index + 1
                let value = values[index % values.count]
                builder.append(value, entity: slot, value: value)
            } else {
                builder.append(Self.neutralToken, entity: slot)
            }
            rest = rest[rest.index(after: close)...]
        }
        builder.append(String(rest))
        return builder.utterance
    }

    /// A few sample values for Amazon's built-in slot types (Lex and Alexa), which exports do not list.
    static func builtInValues(forType type: String) -> [String] {
        switch type.lowercased() {
        case "amazon.number", "amazon.four_digit_number": return ["two", "5", "twelve"]
        case "amazon.date": return ["tomorrow", "next monday", "june 3rd"]
        case "amazon.time": return ["noon", "7 pm", "half past nine"]
        case "amazon.duration": return ["ten minutes", "two hours"]
        case "amazon.us_city", "amazon.city", "amazon.europe_city": return ["Seattle", "Boston", "Paris"]
        case "amazon.us_first_name", "amazon.firstname": return ["Anna", "John"]
        case "amazon.country": return ["France", "Japan"]
        case "amazon.color": return ["red", "blue"]
        default: return []
        }
    }
}
