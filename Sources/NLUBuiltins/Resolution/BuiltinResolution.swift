/// What a built-in entity resolves to, in the shape LUIS and Recognizers-Text use.
///
/// - `value`: numbers, ordinals, percentages (`"50"` for "50%"), emails, URLs, phone numbers;
///   currencies and temperatures add a `unit` ("Dollar", "C") and currencies an ISO code.
///   Values are decimal text: a number too large for `Int64`/`Double` keeps its digits.
/// - `unit`: a unit named without an amount ("convert 10 celsius to **fahrenheit**"): Recognizers-Text
///   returns such a mention as `{"unit": "F"}`, with no value.
/// - `dateTimes`: the LUIS datetimeV2 `values`, one per reading (an ambiguous "Monday" has a past
///   and a future one), each with its TIMEX expression.
public enum BuiltinResolution: Sendable, Equatable, Encodable {
    case value(String, unit: String? = nil, isoCurrency: String? = nil)
    case unit(String)
    case dateTimes([DateTimeValue])

    /// The single value of a non-date-time entity (nil for date-times and units without an amount).
    public var value: String? {
        if case .value(let value, _, _) = self { return value }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case value, unit, isoCurrency, values }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .value(let value, let unit, let isoCurrency):
            try container.encode(value, forKey: .value)
            try container.encodeIfPresent(unit, forKey: .unit)
            try container.encodeIfPresent(isoCurrency, forKey: .isoCurrency)
        case .unit(let unit):
            try container.encode(unit, forKey: .unit)
        case .dateTimes(let values):
            try container.encode(values, forKey: .values)
        }
    }
}

/// One reading of a date-time entity: LUIS datetimeV2's `{"timex", "type", "value"}` for points and
/// durations (durations in seconds), `{"timex", "type", "start", "end"}` for ranges; `Mod` marks
/// "before", "after", "since"… as LUIS does.
///
///     DateTimeValue(timex: "2016-11-08T19", type: "datetime", value: "2016-11-08 19:00:00")
public struct DateTimeValue: Sendable, Equatable, Codable {
    public var timex: String
    public var type: String
    public var value: String?
    public var start: String?
    public var end: String?
    public var mod: String?

    public init(timex: String, type: String, value: String? = nil, start: String? = nil, end: String? = nil,
                mod: String? = nil) {
        self.timex = timex
        self.type = type
        self.value = value
        self.start = start
        self.end = end
        self.mod = mod
    }

    private enum CodingKeys: String, CodingKey { case timex, type, value, start, end, mod = "Mod" }
}
