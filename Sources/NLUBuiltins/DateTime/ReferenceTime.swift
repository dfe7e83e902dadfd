import Foundation

/// The "now" that relative date-times ("tomorrow", "in 3 days") are resolved against: a wall-clock
/// date and time, as LUIS takes it (no time zone arithmetic: the values are in the reference's own zone).
///
///     let reference = try ReferenceTime(iso8601: "2016-11-07T16:12:00")
public struct ReferenceTime: Sendable, Equatable {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    public init(date: CivilDate, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// Parses `YYYY-MM-DD`, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS` (a space may replace the "T";
    /// fractional seconds and a trailing `Z` or `±HH:MM` offset are accepted and ignored).
    /// - Throws: ``ReferenceTimeError`` naming what was expected.
    public init(iso8601 text: String) throws {
        let scalars = Array(text.unicodeScalars)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for index in range {
                guard TokenizedText.isDigit(scalars[index]) else { return nil }
                value = value * 10 + Int(scalars[index].value - 48)
            }
            return value
        }
        guard scalars.count >= 10, let year = number(0..<4), scalars[4] == "-", let month = number(5..<7), scalars[7] == "-",
              let day = number(8..<10), let date = CivilDate(year: year, month: month, day: day) else {
            throw ReferenceTimeError(text: text)
        }
        var hour = 0, minute = 0, second = 0
        if scalars.count > 10 {
            guard scalars[10] == "T" || scalars[10] == " ", let h = number(11..<13), scalars.count >= 16, scalars[13] == ":",
                  let m = number(14..<16), h < 24, m < 60 else { throw ReferenceTimeError(text: text) }
            hour = h
            minute = m
            var rest = 16
            if scalars.count > 16, scalars[16] == ":" {
                guard let s = number(17..<19), s < 60 else { throw ReferenceTimeError(text: text) }
                second = s
                rest = 19
                if rest < scalars.count, scalars[rest] == "." {
                    rest += 1
                    while rest < scalars.count, TokenizedText.isDigit(scalars[rest]) { rest += 1 }
                }
            }
            let zone = String(String.UnicodeScalarView(scalars[rest...]))
            guard zone.isEmpty || zone == "Z" || Self.isOffset(zone) else { throw ReferenceTimeError(text: text) }
        }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }

    /// `±HH:MM` or `±HHMM` within the offsets clocks use, −14:00 to +14:00 (an offset such as +99:00 is a
    /// typo, not a place, and was silently ignored).
    private static func isOffset(_ zone: String) -> Bool {
        let scalars = Array(zone.unicodeScalars)
        guard scalars.count == 6 || scalars.count == 5, scalars[0] == "+" || scalars[0] == "-" else { return false }
        if scalars.count == 6, scalars[3] != ":" { return false }
        let digits = scalars.dropFirst().filter { $0 != ":" }
        guard digits.count == 4, digits.allSatisfy({ TokenizedText.isDigit($0) }) else { return false }
        let values = digits.map { Int($0.value - 48) }
        let hours = values[0] * 10 + values[1], minutes = values[2] * 10 + values[3]
        return minutes < 60 && hours * 60 + minutes <= 14 * 60
    }

    /// The current local wall-clock time.
    public static func now() -> ReferenceTime {
        let calendar = Calendar.current
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date())
        let date = CivilDate(year: parts.year ?? 2000, month: parts.month ?? 1, day: parts.day ?? 1)
            ?? CivilDate(year: 2000, month: 1, day: 1)!
        return ReferenceTime(date: date, hour: parts.hour ?? 0, minute: parts.minute ?? 0, second: parts.second ?? 0)
    }

    /// "2016-11-07 16:12:00", as LUIS writes date-time values.
    var text: String { date.text + " " + Timex.clock(hour, minute, second) }
}

/// A reference time that is not ISO 8601.
public struct ReferenceTimeError: Error, CustomStringConvertible, Equatable {
    /// The text that was refused.
    public let text: String

    /// The error for `text` (a front that shortens what it echoes builds one with the shortened text).
    public init(text: String) {
        self.text = text
    }

    public var description: String {
        "invalid reference time \"\(text)\": expected ISO 8601 YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS], optionally with Z or an offset from -14:00 to +14:00 (e.g. 2016-11-07T16:12:00)"
    }
}
