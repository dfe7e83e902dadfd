/// A candidate entity before overlaps are settled: kind, Unicode-scalar span, resolution.
struct EntityMatch: Sendable {
    var type: BuiltinEntityType
    var start: Int
    var end: Int
    var resolution: BuiltinResolution
    /// A reading with nothing for it but its shape, which another reading of exactly the same span explains as well:
    /// digits in groups of three after single spaces ("1 234 567") are a number written with space group separators
    /// and only look like a phone number. Any other kind over the same span wins; a longer match still wins over it.
    var yieldsOnEqualSpan = false

    var length: Int { end - start }

    init(type: BuiltinEntityType, start: Int, end: Int, resolution: BuiltinResolution) {
        self.type = type
        self.start = start
        self.end = end
        self.resolution = resolution
    }

    /// A match spanning tokens `first` through `last` (inclusive) of `text`.
    init(type: BuiltinEntityType, tokens text: TokenizedText, first: Int, last: Int, resolution: BuiltinResolution) {
        self.init(type: type, start: text[first].start, end: text[last].end, resolution: resolution)
    }
}

/// What every recognizer is given besides the text: the kinds asked for, the reference time, and the
/// numbers of the text, read once and shared (most recognizers start from a number).
struct RecognitionContext {
    var types: Set<BuiltinEntityType>
    var reference: ReferenceTime
    /// The English number parser (the English-only recognizers, money and date-times, read through it).
    var numbers: NumberParser
    /// The language read; `nil` for none (digits only).
    var language: BuiltinLanguage? = .english
    /// The numbers of the text in its language: `numbers` for English, a ``LexiconNumberParser`` for another
    /// language, a ``DigitNumberReader`` for none.
    var reader: any NumberReader

    init(types: Set<BuiltinEntityType>, reference: ReferenceTime, numbers: NumberParser, language: BuiltinLanguage? = .english,
         reader: (any NumberReader)? = nil) {
        self.types = types
        self.reference = reference
        self.numbers = numbers
        self.language = language
        self.reader = reader ?? numbers
    }

    func wants(_ type: BuiltinEntityType) -> Bool { types.contains(type) }

    /// A resolved value as the language writes it: Recognizers-Text's specs write "0,5" outside English.
    func valueText(_ value: NumberValue) -> String {
        let text = value.text
        // Most values have no point: they are returned as they are, without walking their characters.
        guard language != .english, text.utf8.contains(UInt8(ascii: ".")) else { return text }
        return String(text.map { $0 == "." ? "," : $0 })
    }
}

/// Reads the number that starts at a token, remembering what it found; one per language family.
protocol NumberReader: AnyObject {
    func parse(at index: Int) -> NumberMatch?
    /// The number one word says on its own ("siete" in "siete y media", which ``parse(at:)`` reads as 7.5).
    func wordValue(at index: Int) -> NumberValue?
}

extension NumberReader {
    func wordValue(at index: Int) -> NumberValue? { nil }
}

extension NumberParser: NumberReader {}

/// One family of built-in entities (numbers, money, sequences, date-times…).
protocol EntityRecognizer: Sendable {
    /// The kinds this recognizer can produce; it is skipped when none is asked for.
    var produces: Set<BuiltinEntityType> { get }
    /// Appends every candidate found in `text` to `matches`; overlaps are settled by the caller.
    func recognize(_ text: TokenizedText, context: RecognitionContext, into matches: inout [EntityMatch])
}
