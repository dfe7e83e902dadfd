/// The dataset's entity dictionaries at prediction time: finds their values and synonyms in text
/// (``Gazetteer``), and resolves any mention of a defined entity to its canonical value, enforcing
/// closed entities (``EntityDefinition/extensible`` `false`: unknown values are rejected).
///
///     let dictionaries = EntityDictionaries([EntityDefinition(name: "coffee", values: [EntityValue("espresso", synonyms: ["short black"])])])
///     dictionaries.resolve(entity: "coffee", text: "Short Black")   // "espresso"
public struct EntityDictionaries: Sendable {
    /// Values and synonyms of every definition that lists some (pattern-only values are regex entities).
    public let gazetteer: Gazetteer
    private let canonical: [String: [String: String]]
    private let closed: Set<String>

    /// Builds the dictionaries of `definitions`.
    public init(_ definitions: [EntityDefinition]) {
        var phrases: [String: [(phrase: String, value: String)]] = [:]
        var canonical: [String: [String: String]] = [:]
        var closed = Set<String>()
        for definition in definitions {
            if !definition.extensible { closed.insert(definition.name) }
            for value in definition.values where value.patterns.isEmpty || !value.synonyms.isEmpty {
                for phrase in [value.value] + value.synonyms {
                    let key = Gazetteer.normalizedTokens(phrase).joined(separator: " ")
                    guard !key.isEmpty else { continue }
                    phrases[definition.name, default: []].append((phrase, value.value))
                    if canonical[definition.name]?[key] == nil { canonical[definition.name, default: [:]][key] = value.value }
                }
            }
        }
        gazetteer = Gazetteer(phrases)
        self.canonical = canonical
        self.closed = closed
    }

    /// The canonical value of a mention of `entity` written `text`: the listed value when `text` is
    /// one of its values or synonyms (case- and accent-insensitively), else `text` itself, or `nil`
    /// when the entity is closed and `text` is none of its values.
    public func resolve(entity: String, text: String) -> String? {
        let key = Gazetteer.normalizedTokens(text).joined(separator: " ")
        if let value = canonical[entity]?[key] { return value }
        return closed.contains(entity) ? nil : text
    }
}
