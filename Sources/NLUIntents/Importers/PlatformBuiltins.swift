/// How each platform names its prebuilt (system) entities, mapped to NLUKit's built-in entity
/// names (NLUBuiltins' `BuiltinEntityType` raw values, see docs/builtins.md). A prebuilt with no
/// counterpart here is kept as an entity of its own name, with a warning from the importer.
enum PlatformBuiltins {
    /// Azure CLU prebuilt components (`assets.entities[].prebuilts[].category`).
    static let clu: [String: String] = [
        "Quantity.Number": "number", "Quantity.Ordinal": "ordinal", "Quantity.Percentage": "percentage",
        "Quantity.Currency": "currency", "Quantity.Temperature": "temperature", "Email": "email", "URL": "url",
        "PhoneNumber": "phonenumber", "DateTime": "datetime", "DateTime.Date": "date", "DateTime.Time": "time",
        "DateTime.DateRange": "daterange", "DateTime.TimeRange": "timerange",
        "DateTime.DateTimeRange": "datetimerange", "DateTime.Duration": "duration", "DateTime.Set": "set",
    ]

    /// LUIS / Bot Framework `.lu` prebuilt entities (`@ prebuilt number`).
    static let luis: [String: String] = [
        "number": "number", "ordinal": "ordinal", "ordinalV2": "ordinal", "percentage": "percentage",
        "money": "currency", "temperature": "temperature", "email": "email", "url": "url",
        "phonenumber": "phonenumber", "datetimeV2": "datetime", "datetime": "datetime",
    ]

    /// Dialogflow CX / ES system entities (`@sys.number`).
    static let dialogflow: [String: String] = [
        "sys.number": "number", "sys.number-integer": "number", "sys.number-sequence": "number",
        "sys.ordinal": "ordinal", "sys.percentage": "percentage", "sys.unit-currency": "currency",
        "sys.temperature": "temperature", "sys.email": "email", "sys.url": "url", "sys.phone-number": "phonenumber",
        "sys.date-time": "datetime", "sys.date": "date", "sys.time": "time", "sys.date-period": "daterange",
        "sys.time-period": "timerange", "sys.duration": "duration",
    ]

    /// Watson / watsonx Assistant system entities (`sys-number`).
    static let watson: [String: String] = [
        "sys-number": "number", "sys-percentage": "percentage", "sys-currency": "currency", "sys-date": "date",
        "sys-time": "time", "sys-date_range": "daterange", "sys-time_range": "timerange",
        "sys-datetime": "datetime", "sys-email": "email", "sys-url": "url", "sys-phone_number": "phonenumber",
    ]

    /// The platform name of NLUKit built-in `builtin` in `table` (for export), the first one listed
    /// alphabetically when several map to it.
    static func platformName(of builtin: String, in table: [String: String]) -> String? {
        table.filter { $0.value == builtin }.keys.sorted().first
    }
}
