/// The kinds of built-in entity NLUKit finds and resolves, named as LUIS and Microsoft
/// Recognizers-Text name them (date-time kinds without their `datetimeV2.` prefix).
///
///     BuiltinEntityType(rawValue: "currency") // .currency
public enum BuiltinEntityType: String, CaseIterable, Sendable, Codable, Hashable {
    case number, ordinal, percentage, currency, temperature, age, dimension, email, url, phonenumber
    case date, time, datetime, daterange, timerange, datetimerange, duration, set

    /// The date-time kinds (LUIS datetimeV2), which resolve to `values` rather than one `value`.
    public static let dateTimeTypes: Set<BuiltinEntityType> = [
        .date, .time, .datetime, .daterange, .timerange, .datetimerange, .duration, .set,
    ]

    /// Whether this kind resolves to LUIS datetimeV2 `values`.
    public var isDateTime: Bool { Self.dateTimeTypes.contains(self) }
}
