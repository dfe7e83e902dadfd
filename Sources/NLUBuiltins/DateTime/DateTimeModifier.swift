/// Words before a date-time that make it open-ended or approximate, as LUIS marks them with `Mod`:
/// "before May 4th" (a range ending there), "after 6pm", "since 2016", "around 1pm".
enum DateTimeModifier: String {
    case before, after, since, until, approx

    private static let phrases: [([String], DateTimeModifier)] = [
        (["as", "late", "as"], .until), (["starting", "on"], .since), (["beginning", "on"], .since),
        (["greater", "than"], .after), (["no", "later", "than"], .before), (["prior", "to"], .before), (["by"], .before), (["earlier", "than"], .before), (["before"], .before),
        (["later", "than"], .after), (["after"], .after), (["since"], .since), (["starting", "from"], .since),
        (["starting"], .since), (["beginning"], .since), (["as", "early", "as"], .since), (["any", "time", "from"], .since),
        (["around"], .approx), (["about"], .approx), (["approximately"], .approx), (["circa"], .approx), (["approx"], .approx),
    ]

    /// The modifier phrase at `index` and the index after it.
    static func read(_ text: TokenizedText, at index: Int) -> (DateTimeModifier, Int)? {
        guard let first = text.word(index) else { return nil }
        // "how about", "what about" ask; they do not approximate.
        if first == "about", let previous = text.word(index - 1), previous == "how" || previous == "what" { return nil }
        for (words, modifier) in phrases where words[0] == first {
            if words.indices.allSatisfy({ text.word(index + $0) == words[$0] }) { return (modifier, index + words.count) }
        }
        return nil
    }

    /// A modifier said after the date-time: "2018 or later", "1/1/2016 and after", "3 pm or later".
    static func readSuffix(_ text: TokenizedText, at index: Int) -> (DateTimeModifier, Int)? {
        guard let joiner = text.word(index), joiner == "or" || joiner == "and", let word = text.word(index + 1) else { return nil }
        // "and after" ends the phrase; "and after 6PM" starts another one.
        if word == "after" || word == "before", let next = text.token(index + 2), next.kind != .symbol { return nil }
        switch word {
        case "later", "after", "greater", "newer": return (.since, index + 2)
        case "earlier", "before", "sooner": return (.until, index + 2)
        default: return nil
        }
    }

    /// What `values` of kind `type` become under the modifier, or nil when it does not apply.
    static func apply(_ modifier: DateTimeModifier, type: BuiltinEntityType,
                      values: [DateTimeValue]) -> (BuiltinEntityType, [DateTimeValue])? {
        switch (modifier, type) {
        case (.approx, .time), (.approx, .date), (.approx, .datetime):
            let rangeType = type == .time ? "timerange" : type == .date ? "daterange" : "datetimerange"
            return (type, values.map { DateTimeValue(timex: $0.timex, type: rangeType, value: $0.value, mod: "approx") })
        case (.approx, _):
            return nil
        case (_, .date), (_, .time), (_, .datetime):
            let rangeType: BuiltinEntityType = type == .date ? .daterange : type == .time ? .timerange : .datetimerange
            return (rangeType, values.compactMap { value in
                guard let point = value.value else { return nil }
                switch modifier {
                case .before: return DateTimeValue(timex: value.timex, type: rangeType.rawValue, end: point, mod: "before")
                case .until: return DateTimeValue(timex: value.timex, type: rangeType.rawValue, end: point, mod: "until")
                case .after:
                    let start = type == .date ? CivilDate.parse(point).map { $0.adding(days: 1).text } ?? point : point
                    return DateTimeValue(timex: value.timex, type: rangeType.rawValue, start: start, mod: "after")
                default: return DateTimeValue(timex: value.timex, type: rangeType.rawValue, start: point, mod: "since")
                }
            })
        case (_, .daterange), (_, .datetimerange), (_, .timerange):
            return (type, values.compactMap { value in
                // "before early September", "since late July": a part of a period, the Mods joined.
                if let part = value.mod, ["start", "mid", "end"].contains(part) {
                    switch modifier {
                    case .before:
                        return (part == "end" ? value.end : value.start).map {
                            DateTimeValue(timex: value.timex, type: value.type, end: $0, mod: "before-" + part)
                        }
                    case .after:
                        return (part == "start" ? value.start : value.end).map {
                            DateTimeValue(timex: value.timex, type: value.type, start: $0, mod: "after-" + part)
                        }
                    default:
                        return value.start.map { DateTimeValue(timex: value.timex, type: value.type, start: $0, mod: "since-" + part) }
                    }
                }
                switch modifier {
                case .before: return value.start.map { DateTimeValue(timex: value.timex, type: value.type, end: $0, mod: "before") }
                case .until: return value.end.map { DateTimeValue(timex: value.timex, type: value.type, end: $0, mod: "until") }
                case .after: return value.end.map { DateTimeValue(timex: value.timex, type: value.type, start: $0, mod: "after") }
                default: return value.start.map { DateTimeValue(timex: value.timex, type: value.type, start: $0, mod: "since") }
                }
            })
        default:
            return nil
        }
    }
}

extension CivilDate {
    /// "2016-11-07" read back.
    static func parse(_ text: String) -> CivilDate? {
        let parts = text.split(separator: "-")
        guard parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]) else { return nil }
        return CivilDate(year: year, month: month, day: day)
    }
}
