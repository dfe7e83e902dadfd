import NLUInputOutput

extension BuiltinEntity {
    /// Writes this entity as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` encodes it, byte for byte:
    /// `nlu entities extract --json` writes a line per text with an object per entity, and `JSONEncoder`'s cost
    /// per call (a dictionary per object, sorting, a `Data` per value) was 40 % of the command's CPU time on a
    /// dense spec. The keys below are in that sorted order; `Encodable` stays the one definition of the shape, and
    /// a test compares the two writings over every kind and resolution field.
    public func writeJSON(to json: inout JSONWriter) {
        json.beginObject()
        json.key("end"); json.integer(scalarRange.upperBound)
        json.key("entity"); json.string(type.rawValue)
        json.key("resolution"); resolution.writeJSON(to: &json)
        json.key("start"); json.integer(scalarRange.lowerBound)
        json.key("text"); json.string(text)
        json.endObject()
    }
}

extension BuiltinResolution {
    /// Writes this resolution as ``BuiltinEntity/writeJSON(to:)`` says, keys sorted.
    public func writeJSON(to json: inout JSONWriter) {
        json.beginObject()
        switch self {
        case .value(let value, let unit, let isoCurrency):
            if let isoCurrency { json.key("isoCurrency"); json.string(isoCurrency) }
            if let unit { json.key("unit"); json.string(unit) }
            json.key("value"); json.string(value)
        case .unit(let unit):
            json.key("unit"); json.string(unit)
        case .dateTimes(let values):
            json.key("values")
            json.beginArray()
            for value in values { value.writeJSON(to: &json) }
            json.endArray()
        }
        json.endObject()
    }
}

extension DateTimeValue {
    /// Writes this reading as ``BuiltinEntity/writeJSON(to:)`` says: "Mod" sorts before the lowercase keys.
    public func writeJSON(to json: inout JSONWriter) {
        json.beginObject()
        if let mod { json.key("Mod"); json.string(mod) }
        if let end { json.key("end"); json.string(end) }
        if let start { json.key("start"); json.string(start) }
        json.key("timex"); json.string(timex)
        json.key("type"); json.string(type)
        if let value { json.key("value"); json.string(value) }
        json.endObject()
    }
}
