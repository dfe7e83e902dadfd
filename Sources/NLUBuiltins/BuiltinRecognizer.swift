/// Finds and resolves built-in entities in English text: numbers, ordinals, percentages, money,
/// temperatures, e-mails, URLs, phone numbers, and LUIS datetimeV2 dates, times, ranges, durations
/// and sets relative to a reference time.
///
/// Where candidates overlap, the longest wins ("May 4th" the date over "4th" the ordinal, "$1.5k"
/// the currency over "1.5k" the number); equal spans keep the more specific kind, except that digits grouped in
/// threes by spaces ("1 234 567") are the number unless something says phone ("+", "(", "-", a trunk "0", an
/// extension, or a word such as "call" or "phone" just before). Extraction is linear in the length of the text.
///
///     let recognizer = BuiltinRecognizer(types: [.currency, .datetime])
///     let entities = recognizer.entities(in: "transfer $1.5k tomorrow at 7pm",
///                                        reference: try ReferenceTime(iso8601: "2016-11-07T10:00:00"))
///     entities.map(\.text) // ["$1.5k", "tomorrow at 7pm"]
public struct BuiltinRecognizer: Sendable {
    /// The kinds this recognizer reports.
    public let types: Set<BuiltinEntityType>

    private let recognizers: [any EntityRecognizer]

    /// A recognizer for `types` (all kinds by default).
    public init(types: Set<BuiltinEntityType> = Set(BuiltinEntityType.allCases)) {
        self.types = types
        let all: [any EntityRecognizer] = [
            NumberRecognizer(), PercentageRecognizer(), CurrencyRecognizer(), TemperatureRecognizer(),
            EmailRecognizer(), URLRecognizer(), PhoneNumberRecognizer(), DateTimeRecognizer(),
        ]
        recognizers = all.filter { !$0.produces.isDisjoint(with: types) }
    }

    /// The entities in `text`, in order of position, none overlapping.
    public func entities(in text: String, reference: ReferenceTime = .now()) -> [BuiltinEntity] {
        let tokens = TokenizedText(text)
        let context = RecognitionContext(types: types, reference: reference, numbers: NumberParser(tokens))
        var candidates: [EntityMatch] = []
        for recognizer in recognizers {
            recognizer.recognize(tokens, context: context, into: &candidates)
        }
        candidates.removeAll { !types.contains($0.type) || $0.end <= $0.start }
        let kept = Self.resolveOverlaps(candidates, scalarCount: tokens.scalars.count)
        // One walk over the string turns the sorted scalar offsets into String indices.
        let scalars = text.unicodeScalars
        var index = scalars.startIndex
        var offset = 0
        return kept.map { match in
            index = scalars.index(index, offsetBy: match.start - offset)
            let upper = scalars.index(index, offsetBy: match.end - match.start)
            defer { offset = match.start }
            return BuiltinEntity(type: match.type, scalarRange: match.start..<match.end, range: index..<upper,
                                 text: String(String.UnicodeScalarView(tokens.scalars[match.start..<match.end])),
                                 resolution: match.resolution)
        }
    }

    /// Longest first, then a reading with evidence of its own over one with only its shape
    /// (``EntityMatch/yieldsOnEqualSpan``), then the more specific kind; kept candidates never overlap. Marking taken
    /// scalars costs the candidates' total length, which the recognizers' bounded look-ahead keeps linear.
    static func resolveOverlaps(_ candidates: [EntityMatch], scalarCount: Int) -> [EntityMatch] {
        let ranked = candidates.enumerated().sorted { a, b in
            if a.element.length != b.element.length { return a.element.length > b.element.length }
            if a.element.yieldsOnEqualSpan != b.element.yieldsOnEqualSpan { return !a.element.yieldsOnEqualSpan }
            let pa = priority(a.element.type), pb = priority(b.element.type)
            if pa != pb { return pa > pb }
            return a.offset < b.offset
        }
        var occupied = [Bool](repeating: false, count: scalarCount)
        var taken: [EntityMatch] = []
        for (_, candidate) in ranked where !occupied[candidate.start..<candidate.end].contains(true) {
            for index in candidate.start..<candidate.end { occupied[index] = true }
            taken.append(candidate)
        }
        return taken.sorted { $0.start < $1.start }
    }

    private static func priority(_ type: BuiltinEntityType) -> Int {
        switch type {
        case .number: return 0
        case .ordinal: return 1
        case .phonenumber: return 2
        default: return 3
        }
    }
}
