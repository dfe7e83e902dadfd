/// How each platform names its prebuilt (system) entities, mapped to NLUKit's built-in entity
/// names (NLUBuiltins' `BuiltinEntityType` raw values, see docs/builtins.md; `datetime` stands for the
/// whole date-time family, as LUIS datetimeV2 and Dialogflow's `@sys.date-time` do). The one mapping
/// table of the importers, documented in docs/formats.md. A prebuilt with no counterpart here is kept
/// as an entity of its own name (its annotations still train the tagger), with one warning.
enum PlatformBuiltins {
    /// Azure CLU prebuilt components (`assets.entities[].prebuilts[].category`).
    static let clu: [String: String] = [
        "Quantity.Number": "number", "Quantity.Ordinal": "ordinal", "Quantity.Percentage": "percentage",
        "Quantity.Currency": "currency", "Quantity.Temperature": "temperature", "Quantity.Age": "age",
        "Quantity.Dimension": "dimension", "Email": "email", "URL": "url",
        "PhoneNumber": "phonenumber", "DateTime": "datetime", "DateTime.Date": "date", "DateTime.Time": "time",
        "DateTime.DateRange": "daterange", "DateTime.TimeRange": "timerange",
        "DateTime.DateTimeRange": "datetimerange", "DateTime.Duration": "duration", "DateTime.Set": "set",
    ]

    /// LUIS app JSON (`prebuiltEntities[].name`) and Bot Framework `.lu` prebuilt entities (`@ prebuilt number`).
    static let luis: [String: String] = [
        "number": "number", "ordinal": "ordinal", "ordinalV2": "ordinal", "percentage": "percentage",
        "money": "currency", "temperature": "temperature", "age": "age", "dimension": "dimension", "email": "email",
        "url": "url", "phonenumber": "phonenumber", "datetimeV2": "datetime", "datetime": "datetime",
    ]

    /// Dialogflow CX / ES system entities (`@sys.number`). Its amounts with units (`@sys.unit-length` "5 km") are
    /// dimensions; its unit names alone (`@sys.unit-length-name` "km") have no built-in.
    static let dialogflow: [String: String] = [
        "sys.number": "number", "sys.number-integer": "number", "sys.number-sequence": "number",
        "sys.cardinal": "number", "sys.ordinal": "ordinal", "sys.percentage": "percentage",
        "sys.unit-currency": "currency", "sys.temperature": "temperature", "sys.age": "age",
        "sys.unit-length": "dimension", "sys.unit-area": "dimension", "sys.unit-volume": "dimension",
        "sys.unit-weight": "dimension", "sys.unit-information": "dimension", "sys.unit-speed": "dimension",
        "sys.email": "email", "sys.url": "url",
        "sys.phone-number": "phonenumber", "sys.date-time": "datetime", "sys.date": "date", "sys.time": "time",
        "sys.date-period": "daterange", "sys.time-period": "timerange", "sys.duration": "duration",
    ]

    /// Watson / watsonx Assistant system entities (`sys-number`).
    static let watson: [String: String] = [
        "sys-number": "number", "sys-percentage": "percentage", "sys-currency": "currency", "sys-date": "date",
        "sys-time": "time", "sys-date_range": "daterange", "sys-time_range": "timerange",
        "sys-datetime": "datetime", "sys-email": "email", "sys-url": "url", "sys-phone_number": "phonenumber",
    ]

    /// Amazon Lex V1/V2 and Alexa built-in slot types, by their lower-cased name (exports write both
    /// `AMAZON.NUMBER` and `AMAZON.Number`). Amazon has no slot type for an amount with a unit of length or weight:
    /// Lex V1's `AMAZON.SpeedUnit` and `AMAZON.WeightUnit` hold the unit's name alone ("mph"), no dimension.
    static let amazon: [String: String] = [
        "amazon.number": "number", "amazon.four_digit_number": "number", "amazon.ordinal": "ordinal",
        "amazon.percentage": "percentage", "amazon.currency": "currency", "amazon.date": "date", "amazon.time": "time",
        "amazon.duration": "duration", "amazon.phonenumber": "phonenumber", "amazon.emailaddress": "email",
    ]

    /// snips-nlu built-in entities.
    static let snips: [String: String] = [
        "snips/number": "number", "snips/ordinal": "ordinal", "snips/percentage": "percentage",
        "snips/amountOfMoney": "currency", "snips/temperature": "temperature", "snips/datetime": "datetime",
        "snips/date": "date", "snips/time": "time", "snips/datePeriod": "daterange", "snips/timePeriod": "timerange",
        "snips/duration": "duration",
    ]

    /// Rasa's Duckling dimensions (`DucklingEntityExtractor` `dimensions:`; the entity names Duckling reports).
    /// Duckling's `distance` ("5 km"), `volume` ("2 liters") and `quantity` ("3 pounds") are dimensions; its
    /// `credit-card-number` has no built-in.
    static let duckling: [String: String] = [
        "number": "number", "ordinal": "ordinal", "amount-of-money": "currency", "temperature": "temperature",
        "email": "email", "url": "url", "phone-number": "phonenumber", "time": "datetime", "duration": "duration",
        "distance": "dimension", "volume": "dimension", "quantity": "dimension",
    ]
}

/// Collects an import's built-in entities: one ``EntityDefinition`` per entity name (the name the
/// annotations use: a Lex slot, a Dialogflow parameter, a Watson `sys-*` entity), and one warning
/// per platform type NLUKit has no recognizer for.
struct BuiltinCollector {
    let file: String
    let table: [String: String]
    /// How the platform calls its built-in types in the warning ("slot type", "system entity").
    let noun: String
    private(set) var definitions: [EntityDefinition] = []
    /// The names in ``definitions`` (one search of them per slot made many slots quadratic).
    private var defined: Set<String> = []
    private var warned: Set<String> = []

    init(file: String, table: [String: String], noun: String) {
        self.file = file
        self.table = table
        self.noun = noun
    }

    /// Records that entity `name` is of platform type `platformType`; returns whether that type is a
    /// built-in (an unknown one is warned about once, and the entity is left as an ordinary one).
    @discardableResult
    mutating func add(entity name: String, platformType: String, key: String? = nil, warnings: inout [String]) -> Bool {
        guard let builtin = table[key ?? platformType] else {
            if warned.insert(platformType).inserted {
                warnings.append("\(file): \(noun) \(platformType) has no NLUKit built-in; its annotations are kept as an ordinary entity")
            }
            return false
        }
        if defined.insert(name).inserted {
            definitions.append(EntityDefinition(name: name, builtin: builtin))
        }
        return true
    }
}
