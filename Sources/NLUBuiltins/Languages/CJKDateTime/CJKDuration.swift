/// A duration as said in Chinese or Japanese: amounts of units, read by ``CJKDurations`` ("3天", "两个小时",
/// "一年多三个月又20天", "1時間半", "数週間"), written as LUIS writes one: its TIMEX with the units in calendar order
/// ("P1Y3M20DT8H", "PT0.5H") and its length in seconds (a month 30 days, a year 365).
struct CJKDuration {
    var amounts: [(amount: Double, unit: DateTimeWords.Unit)]

    var seconds: Double { amounts.reduce(0) { $0 + $1.amount * $1.unit.seconds } }

    /// Whether every unit is a day or longer (a moment that far away is a date, not a time).
    var isCalendar: Bool { amounts.allSatisfy { !$0.unit.isTime } }

    var timex: String {
        var date = "", time = ""
        for (letter, isTime) in [("Y", false), ("M", false), ("W", false), ("D", false), ("H", true), ("M", true), ("S", true)] {
            let total = amounts.filter { $0.unit.letter == letter && $0.unit.isTime == isTime }.reduce(0) { $0 + $1.amount }
            guard total > 0 else { continue }
            if isTime { time += Self.amountText(total) + letter } else { date += Self.amountText(total) + letter }
        }
        return "P" + date + (time.isEmpty ? "" : "T" + time)
    }

    /// "3", "0.5", "123.45": whole amounts without a decimal point.
    static func amountText(_ amount: Double) -> String {
        if amount.rounded() == amount, abs(amount) < 1e15 { return String(Int64(amount)) }
        return String(amount)
    }

    /// The day this calendar duration away from `day` (`sign` −1: before it), or nil when a fraction is said or the
    /// years leave 1…9999.
    func day(from day: CivilDate, sign: Int) -> CivilDate? {
        var months = 0, days = 0
        for (amount, unit) in amounts {
            guard amount.rounded() == amount, amount < 100_000 else { return nil }
            switch unit.letter {
            case "Y": months += 12 * Int(amount)
            case "M": months += Int(amount)
            case "W": days += 7 * Int(amount)
            default: days += Int(amount)
            }
        }
        guard let moved = months == 0 ? day : day.addingIfInRange(months: sign * months) else { return nil }
        let result = moved.adding(days: sign * days)
        return result.isInSupportedYears ? result : nil
    }

    var values: [DateTimeValue] {
        [DateTimeValue(timex: timex, type: "duration", value: Self.amountText(seconds))]
    }
}

/// Reads durations at a position of a Chinese or Japanese text with the language's ``CJKDateTimeWords``.
struct CJKDurations {
    let text: CJKDateTimeText
    let words: CJKDateTimeWords

    /// The duration at `index`: amounts and units, joined ("8天又二十个小时") or one after the other ("1年3か月"), a half
    /// after a unit ("三年半") or before one ("半小时", "半个月"); spaces may stand between an amount and its unit.
    func duration(at index: Int) -> (CJKDuration, Int)? {
        var amounts: [(amount: Double, unit: DateTimeWords.Unit)] = []
        var position = text.match(any: words.durationLeads, at: index) ?? index, end = index
        while amounts.count < 8 {
            var amount: Double
            var after: Int
            if let afterHalf = text.match(words.half, at: position) {
                amount = 0.5
                after = afterHalf
            } else if let (value, valueEnd) = text.amount(at: position, few: words.fewWord) {
                amount = value
                after = valueEnd
            } else { break }
            after = text.skipSpaces(after)
            // "三个月": the unit may itself begin with the classifier ("个月"), or follow it ("两个小时", "一个星期").
            guard let (unit, unitEnd) = text.match(words.durationUnits, at: after)
                    ?? text.match(any: words.classifiers, at: after).flatMap({ text.match(words.durationUnits, at: $0) }) else { break }
            // "2019年" is a year, not 2019 years.
            if unit.letter == "Y", !unit.isTime, amount >= 1000 { break }
            var stop = unitEnd
            if amount != 0.5, let afterHalf = text.match(words.half, at: stop) {
                amount += 0.5
                stop = afterHalf
            }
            amounts.append((amount, unit))
            end = stop
            position = text.match(any: words.durationJoiners, at: stop) ?? stop
        }
        guard !amounts.isEmpty, amounts.allSatisfy({ $0.amount < 1e9 }) else { return nil }
        return (CJKDuration(amounts: amounts), end)
    }
}
