/// One built-in entity found in a text: its kind, where it is, and what it means.
///
/// Encodes as LUIS / Recognizers-Text do: `{"entity", "start", "end", "text", "resolution"}`, offsets in
/// Unicode scalars with an exclusive end.
///
///     let found = BuiltinRecognizer().entities(in: "transfer $1.5k")
///     found[0].resolution // .value("1500", unit: "Dollar", isoCurrency: "USD")
public struct BuiltinEntity: Sendable, Equatable, Encodable {
    /// What kind of entity this is.
    public var type: BuiltinEntityType
    /// Unicode-scalar offsets into the searched text (as Python counts characters), end exclusive.
    public var scalarRange: Range<Int>
    /// The span of the searched text.
    public var range: Range<String.Index>
    /// The matched text, as it appears in the input.
    public var text: String
    /// The resolved value.
    public var resolution: BuiltinResolution

    public init(type: BuiltinEntityType, scalarRange: Range<Int>, range: Range<String.Index>, text: String,
                resolution: BuiltinResolution) {
        self.type = type
        self.scalarRange = scalarRange
        self.range = range
        self.text = text
        self.resolution = resolution
    }

    private enum CodingKeys: String, CodingKey { case entity, start, end, text, resolution }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(type.rawValue, forKey: .entity)
        try container.encode(scalarRange.lowerBound, forKey: .start)
        try container.encode(scalarRange.upperBound, forKey: .end)
        try container.encode(text, forKey: .text)
        try container.encode(resolution, forKey: .resolution)
    }
}
