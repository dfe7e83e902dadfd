import NLUBuiltins

/// The built-in entities of an intents model: which NLUBuiltins kinds each of the dataset's entity names
/// stands for (from ``EntityDefinition/builtin``, which the importers fill from the platforms' system
/// entities), found and resolved by ``BuiltinRecognizer``.
///
/// A definition's `builtin` is a kind's name (`number`, `date`, ...) or `datetime`, which stands for the
/// whole date-time family (LUIS datetimeV2, Dialogflow `@sys.date-time`). A match is reported under the
/// entity name that asked for its kind; when several names ask for the same kind (two Lex slots of type
/// `AMAZON.DATE`), only the tagger can tell them apart, so an untagged match keeps the kind's own name.
/// Names of kinds NLUBuiltins does not know (a newer model file) are ignored.
///
///     let matcher = BuiltinEntityMatcher([EntityDefinition(name: "PickupDate", builtin: "date")])
///     matcher.matches(in: "tomorrow please", reference: reference)   // [(PickupDate, date "tomorrow")]
public struct BuiltinEntityMatcher: Sendable {
    /// The kinds each entity name stands for.
    public let typesByEntity: [String: Set<BuiltinEntityType>]
    /// The name an untagged match of each kind is reported under.
    let nameByType: [BuiltinEntityType: String]
    let recognizer: BuiltinRecognizer

    /// The matcher for `definitions` (those without `builtin` are ignored), reading `language` (`nil`: the
    /// language-independent kinds only, ``BuiltinEntityLanguage``).
    public init(_ definitions: [EntityDefinition], language: BuiltinLanguage? = .english) {
        var typesByEntity: [String: Set<BuiltinEntityType>] = [:]
        var exact: [BuiltinEntityType: Set<String>] = [:]
        var family: [BuiltinEntityType: Set<String>] = [:]
        for definition in definitions {
            guard let builtin = definition.builtin, let types = Self.types(for: builtin) else { continue }
            typesByEntity[definition.name, default: []].formUnion(types)
            for type in types {
                if type.rawValue == builtin { exact[type, default: []].insert(definition.name) } else { family[type, default: []].insert(definition.name) }
            }
        }
        var nameByType: [BuiltinEntityType: String] = [:]
        for type in Set(typesByEntity.values.flatMap { $0 }) {
            // The name asking for exactly this kind wins over one asking for the whole date-time family.
            let names = exact[type] ?? family[type] ?? []
            nameByType[type] = names.count == 1 ? names.first : type.rawValue
        }
        self.typesByEntity = typesByEntity
        self.nameByType = nameByType
        recognizer = BuiltinRecognizer(language: language, types: Set(nameByType.keys))
    }

    /// The kinds a definition's `builtin` names: one kind, the date-time family for `datetime`, `nil` when unknown.
    public static func types(for builtin: String) -> Set<BuiltinEntityType>? {
        if builtin == BuiltinEntityType.datetime.rawValue { return BuiltinEntityType.dateTimeTypes }
        return BuiltinEntityType(rawValue: builtin).map { [$0] }
    }

    /// The language the built-ins are read in.
    public var language: BuiltinLanguage? { recognizer.language }

    /// Whether no entity name stands for a built-in.
    public var isEmpty: Bool { typesByEntity.isEmpty }

    /// The built-in entities of `text`, each with the entity name it is reported under.
    func matches(in text: String, reference: ReferenceTime) -> [(entity: String, match: BuiltinEntity)] {
        recognizer.entities(in: text, reference: reference).compactMap { match in
            nameByType[match.type].map { (entity: $0, match: match) }
        }
    }

    /// The longest built-in of the kinds `entity` stands for in `mention` (a tagged mention), or `nil`
    /// when `entity` is no built-in or the mention holds none of its kinds.
    func resolve(entity: String, mention: String, reference: ReferenceTime) -> BuiltinEntity? {
        guard let types = typesByEntity[entity] else { return nil }
        return recognizer.entities(in: mention, reference: reference).filter { types.contains($0.type) }
            .max { $0.scalarRange.count < $1.scalarRange.count }
    }

    /// The resolution as one string, for ``ExtractedEntity/value``: the value of a number, ordinal,
    /// percentage, amount, temperature, e-mail, URL or phone number (`"1500"`); for a date-time, the last
    /// reading's value (LUIS lists the past reading before the future one: the future is what a request
    /// means), a range as `start/end` (ISO 8601 interval notation, a missing side left empty), a set or a
    /// reading without a value as its TIMEX; a unit said without an amount ("fahrenheit") as the unit.
    public static func value(of resolution: BuiltinResolution) -> String {
        switch resolution {
        case .value(let value, _, _):
            return value
        case .unit(let unit):
            return unit
        case .dateTimes(let readings):
            guard let reading = readings.last else { return "" }
            if let value = reading.value, value != "not resolved" { return value }
            if reading.start != nil || reading.end != nil { return "\(reading.start ?? "")/\(reading.end ?? "")" }
            return reading.timex
        }
    }
}
