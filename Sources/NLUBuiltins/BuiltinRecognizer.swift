/// Finds and resolves built-in entities in text (English by default; numbers, ordinals, percentages, money,
/// temperatures, ages, dimensions and date-times in the other ``BuiltinLanguage``s too): numbers, ordinals, percentages,
/// money, temperatures, ages, dimensions, e-mails, URLs, phone numbers, and LUIS datetimeV2 dates, times, ranges,
/// durations and sets relative to a reference time.
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
    /// The kinds this recognizer reports: those asked for that its language supports.
    public let types: Set<BuiltinEntityType>
    /// The language it reads; `nil` for none: only ``BuiltinLanguage/languageIndependentTypes``, numbers as
    /// digits only (what an intents model in a language the built-ins do not read uses).
    public let language: BuiltinLanguage?

    private let recognizers: [any EntityRecognizer]
    /// The number words of a language other than English, analysed once for every text.
    private let analyzer: NumberWordAnalyzer?

    /// A recognizer for `types` (all kinds by default) in `language` (English by default); kinds the language
    /// does not support (``BuiltinLanguage/supportedTypes``) are not reported. `language: nil` reads no
    /// language's words: digits, e-mails, URLs and phone numbers.
    ///
    ///     let german = BuiltinRecognizer(language: .german, types: [.number])
    ///     german.entities(in: "dreihundertvierundzwanzig Gäste").map(\.text) // ["dreihundertvierundzwanzig"]
    public init(language: BuiltinLanguage? = .english, types: Set<BuiltinEntityType> = Set(BuiltinEntityType.allCases)) {
        self.language = language
        let supported = types.intersection(language?.supportedTypes ?? BuiltinLanguage.languageIndependentTypes)
        self.types = supported
        let all: [any EntityRecognizer]
        if let lexicon = language?.numberLexicon, let units = language?.unitLexicon {
            analyzer = NumberWordAnalyzer(lexicon)
            all = [NumberRecognizer(relativeOrdinals: lexicon.relativeOrdinals), PercentageRecognizer(words: .init(lexicon)), LexiconCurrencyRecognizer(units: units, numbers: lexicon),
                   LexiconTemperatureRecognizer(units: units), MeasureRecognizer(units: units, numbers: lexicon), EmailRecognizer(),
                   URLRecognizer(), PhoneNumberRecognizer()]
                + (language?.dateTimeLexicon.map { [LexiconDateTimeRecognizer(words: $0)] } ?? [])
        } else if let numerals = language?.cjkNumerals {
            // Chinese and Japanese numbers are read on characters: nothing separates them from the words around them.
            analyzer = nil
            all = [CJKNumberRecognizer(numerals: numerals), EmailRecognizer(), URLRecognizer(), PhoneNumberRecognizer()]
                + (language?.cjkUnits.map { [CJKUnitRecognizer(numerals: numerals, units: $0)] } ?? [])
                + (language?.cjkDateTimeWords.map { [CJKDateTimeRecognizer(numerals: numerals, words: $0)] } ?? [])
        } else if language == nil {
            analyzer = nil
            all = [NumberRecognizer(), EmailRecognizer(), URLRecognizer(), PhoneNumberRecognizer()]
        } else {
            analyzer = nil
            all = [
                NumberRecognizer(), PercentageRecognizer(), CurrencyRecognizer(), TemperatureRecognizer(),
                MeasureRecognizer(units: EnglishMeasureWords.lexicon, numbers: nil), EmailRecognizer(), URLRecognizer(), PhoneNumberRecognizer(), DateTimeRecognizer(),
            ]
        }
        recognizers = all.filter { !$0.produces.isDisjoint(with: supported) }
    }

    /// The entities in `text`, in order of position, none overlapping.
    public func entities(in text: String, reference: ReferenceTime = .now()) -> [BuiltinEntity] {
        var entities: [BuiltinEntity] = []
        forEachEntity(in: text, reference: reference) { entities.append($0) }
        return entities
    }

    /// Calls `body` with each entity in `text`, in order of position, none overlapping, as soon as the part of
    /// the text that holds it is read: a text longer than ``windowScalars`` is read in windows of that many
    /// scalars (cut at whitespace, each seen with ``contextScalars`` of text on both sides), so memory stays
    /// bounded by the window, not the text, and a caller can write the entities out as they come (`nlu
    /// entities extract` over a 100 MB line). An entity is reported by the window it starts in; one that
    /// runs past its window's end is kept whole and the next window's readings that overlap it are dropped.
    ///
    ///     recognizer.forEachEntity(in: hugeLine, reference: reference) { print($0.text) }
    public func forEachEntity(in text: String, reference: ReferenceTime = .now(), _ body: (BuiltinEntity) throws -> Void) rethrows {
        let scalars = text.unicodeScalars
        // Short texts (nearly all) in one piece, without counting the whole text.
        guard let windowEnd = scalars.index(scalars.startIndex, offsetBy: Self.windowScalars + 2 * Self.contextScalars,
                                            limitedBy: scalars.endIndex), windowEnd != scalars.endIndex else {
            for entity in wholeTextEntities(in: text, reference: reference) { try body(entity) }
            return
        }
        var cut = scalars.startIndex, cutOffset = 0
        var takenUntil = 0  // the scalar offset where the last reported entity ends
        while cut != scalars.endIndex {
            // This window reports what starts in [cut, next); it reads [contextStart, contextEnd).
            let (next, nextOffset) = Self.whitespace(in: scalars, from: cut, offset: cutOffset, atLeast: Self.windowScalars)
            let (contextStart, contextStartOffset) = Self.contextStart(in: scalars, before: cut, offset: cutOffset)
            let (contextEnd, _) = Self.whitespace(in: scalars, from: next, offset: nextOffset, atLeast: Self.contextScalars)
            var index = contextStart, offset = contextStartOffset
            for entity in wholeTextEntities(in: String(scalars[contextStart..<contextEnd]), reference: reference) {
                let start = contextStartOffset + entity.scalarRange.lowerBound, end = contextStartOffset + entity.scalarRange.upperBound
                guard start >= cutOffset, start < nextOffset, start >= takenUntil else { continue }
                index = scalars.index(index, offsetBy: start - offset)
                offset = start
                let upper = scalars.index(index, offsetBy: end - start)
                try body(BuiltinEntity(type: entity.type, scalarRange: start..<end, range: index..<upper, text: entity.text,
                                       resolution: entity.resolution))
                takenUntil = end
            }
            cut = next
            cutOffset = nextOffset
        }
    }

    /// The scalars a window reports on: 64 Ki, about 30 MB of the recognizers' working memory in the worst case
    /// (dense digits), a few milliseconds of work.
    public static let windowScalars = 1 << 16

    /// The text read on each side of a window: far longer than any entity or the context a recognizer looks at
    /// ("call" before a phone number), so windowed and whole readings agree.
    public static let contextScalars = 1 << 12

    /// The first whitespace at least `count` scalars after `start` (or the end), with its offset.
    private static func whitespace(in scalars: String.UnicodeScalarView, from start: String.UnicodeScalarView.Index,
                                   offset: Int, atLeast count: Int) -> (String.UnicodeScalarView.Index, Int) {
        guard var index = scalars.index(start, offsetBy: count, limitedBy: scalars.endIndex) else {
            return (scalars.endIndex, offset + scalars.distance(from: start, to: scalars.endIndex))
        }
        var position = offset + count
        // A window that found no whitespace in another window's length is cut where it is.
        var looked = 0
        while index != scalars.endIndex, !scalars[index].properties.isWhitespace, looked < windowScalars {
            scalars.formIndex(after: &index)
            position += 1
            looked += 1
        }
        return (index, position)
    }

    /// Where the context before `cut` starts: ``contextScalars`` back, then forward to a whitespace, so that no
    /// token is read from its middle.
    private static func contextStart(in scalars: String.UnicodeScalarView, before cut: String.UnicodeScalarView.Index,
                                     offset: Int) -> (String.UnicodeScalarView.Index, Int) {
        guard offset > 0 else { return (cut, offset) }
        let back = min(offset, contextScalars)
        var index = scalars.index(cut, offsetBy: -back), position = offset - back
        while index != cut, position > 0, !scalars[index].properties.isWhitespace {
            scalars.formIndex(after: &index)
            position += 1
        }
        return (index, position)
    }

    /// The entities of `text` read in one piece.
    func wholeTextEntities(in text: String, reference: ReferenceTime) -> [BuiltinEntity] {
        let tokens = TokenizedText(text)
        let reader: (any NumberReader)? = language == nil ? DigitNumberReader(tokens) : analyzer.map { LexiconNumberParser(tokens, analyzer: $0) }
        let context = RecognitionContext(types: types, reference: reference, numbers: NumberParser(tokens), language: language,
                                         reader: reader)
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
                                 text: String(scalars: tokens.scalars[match.start..<match.end]),
                                 resolution: match.resolution)
        }
    }

    /// Longest first, then a reading with evidence of its own over one with only its shape
    /// (``EntityMatch/yieldsOnEqualSpan``), then the more specific kind; kept candidates never overlap. Marking taken
    /// scalars costs the candidates' total length, which the recognizers' bounded look-ahead keeps linear.
    static func resolveOverlaps(_ candidates: [EntityMatch], scalarCount: Int) -> [EntityMatch] {
        // Most texts hold one candidate or none: nothing to settle.
        guard candidates.count > 1 else { return candidates }
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
