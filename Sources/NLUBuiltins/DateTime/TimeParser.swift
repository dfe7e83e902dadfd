/// Reads times of day: "7pm", "7:30 p.m.", "19:00", "1140 a.m.", "seven thirty", "noon", "midnight",
/// "half past seven", "quarter to 8", "20 min past eight in the evening", "7 o'clock", "11ish".
struct TimeParser {
    let text: TokenizedText
    let numbers: NumberParser

    init(_ text: TokenizedText, numbers: NumberParser) {
        self.text = text
        self.numbers = numbers
    }

    /// A time at `index`. A bare hour ("7", "seven") counts only when `bare` is allowed (after "at",
    /// in a range "from 9 to 5", next to a date) or when something marks it as a time.
    func time(at index: Int, bare: Bool) -> (SpokenTime, Int)? {
        if let found = namedTime(at: index) { return withDayPart(found) }
        if let found = pastOrTo(at: index) { return withDayPart(found) }
        guard let (time, end, marked) = clockTime(at: index, bare: bare) else { return nil }
        guard marked || bare else {
            // "7 in the evening": a part of the day makes it a time.
            if let (marked, end) = dayPartSuffix(time, at: end) { return (marked, end) }
            return nil
        }
        return withDayPart((time, end))
    }

    /// "noon", "midday", "12 noon", "noonish", "midnight", "mid night".
    private func namedTime(at index: Int) -> (SpokenTime, Int)? {
        var position = index
        if let token = text.token(position), token.isDigits, token.text == "12", let next = text.word(position + 1),
           next == "noon" || next == "midnight" {
            position += 1
        }
        guard let word = text.word(position) else { return nil }
        switch word {
        case "noon", "midday", "noonish", "noontime":
            return (SpokenTime(hour: 12, minute: 0, second: 0, precision: 1, ambiguous: false), position + 1)
        case "midnight":
            return (SpokenTime(hour: 0, minute: 0, second: 0, precision: 1, ambiguous: false), position + 1)
        case "mid" where text.word(position + 1) == "day":
            return (SpokenTime(hour: 12, minute: 0, second: 0, precision: 1, ambiguous: false), position + 2)
        case "mid" where text.word(position + 1) == "night":
            return (SpokenTime(hour: 0, minute: 0, second: 0, precision: 1, ambiguous: false), position + 2)
        default:
            return nil
        }
    }

    /// "half past seven", "quarter past 7", "quarter to 8", "20 min past eight", "10 past 9", "ten to six".
    private func pastOrTo(at index: Int) -> (SpokenTime, Int)? {
        var position = index
        var minutes: Int
        if text.word(position) == "a" { position += 1 }
        if text.word(position) == "half" {
            minutes = 30
            position += 1
        } else if text.word(position) == "quarter" {
            minutes = 15
            position += 1
        } else if let number = numbers.parse(at: position), number.kind == .cardinal, number.value.isInteger,
                  number.value.double >= 1, number.value.double < 60 {
            minutes = Int(number.value.double)
            position = number.endToken
            if let unit = text.word(position), ["min", "mins", "minute", "minutes"].contains(unit) { position += 1 }
        } else {
            return nil
        }
        // "15 minutes from 1pm": "from" only after the unit.
        let afterUnit = text.word(position - 1).map { ["min", "mins", "minute", "minutes"].contains($0) } == true
        guard let relation = text.word(position), relation == "past" || relation == "to" || relation == "after" || relation == "before"
                || relation == "from" && afterUnit,
              let (hour, open, end) = pastOrToHour(at: position + 1) else { return nil }
        var hourValue = hour
        // "5 to seven" is more often a range than 6:55: "to" counts only with quarter, half or "minutes".
        if relation == "to" || relation == "before", text.word(position - 1).map({ ["half", "quarter", "min", "mins", "minute", "minutes"].contains($0) }) != true,
           minutes % 5 != 0 || minutes < 10 {
            return nil
        }
        if relation == "to" || relation == "before" {
            minutes = 60 - minutes
            hourValue = (hour + 23) % 24
        }
        var end2 = end
        if let oclock = oclock(at: end2) { end2 = oclock }
        var time = SpokenTime(hour: hourValue, minute: minutes, second: 0, precision: 2, ambiguous: open && hourValue <= 12)
        // "half past three pm": the half of the day said after the whole.
        if open, let (pm, after) = meridiem(at: end2), time.hour <= 12 {
            time = pm ? time.afternoon() : time.morning()
            end2 = after
        }
        return (time, end2)
    }

    /// The hour after "past"/"to": "3", "three", "3pm", "15h", "noon", "midnight": (hour, whether its half
    /// of the day is open, index after).
    private func pastOrToHour(at index: Int) -> (Int, Bool, Int)? {
        if let (time, end) = namedTime(at: index) { return (time.hour, false, end) }
        if let (time, end, marked) = clockTime(at: index), marked || !time.ambiguous, time.precision == 1 { return (time.hour, time.ambiguous, end) }
        return hourNumber(at: index).map { ($0.0, true, $0.1) }
    }

    /// An hour 0…24 in digits or words.
    private func hourNumber(at index: Int) -> (Int, Int)? {
        guard let number = numbers.parse(at: index), number.kind == .cardinal, number.value.isInteger,
              number.value.double >= 0, number.value.double <= 24, number.endToken - index <= 3 else { return nil }
        return (Int(number.value.double), number.endToken)
    }

    /// Digits or words: "7", "7:30", "7:56:30", "0730", "1140", "seven", "seven thirty", with "am"/"pm",
    /// "o'clock" or "ish" after. `marked` tells whether something besides the number says it is a time.
    private func clockTime(at index: Int, bare: Bool = false) -> (SpokenTime, Int, Bool)? {
        guard let token = text.token(index) else { return nil }
        var time: SpokenTime
        var end: Int
        var marked = false
        if token.isDigits {
            if index > 0, !token.spaceBefore, text[index - 1].isDigits || text[index - 1].isWord { return nil }
            let digits = token.text
            if digits.count <= 2, let hour = Int(digits), hour <= 24 {
                time = SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: hour >= 1 && hour <= 12)
                end = index + 1
                if let colon = text.token(end), colon.isSymbol(":") || colon.isSymbol("."), !colon.spaceBefore,
                   let minuteToken = text.token(end + 1), minuteToken.isDigits, !minuteToken.spaceBefore,
                   minuteToken.text.count == 2, let minute = Int(minuteToken.text), minute < 60 {
                    let isDot = colon.isSymbol(".")
                    var candidate = time
                    candidate.minute = minute
                    candidate.precision = 2
                    var candidateEnd = end + 2
                    if let colon2 = text.token(candidateEnd), colon2.isSymbol(":"), !colon2.spaceBefore,
                       let secondToken = text.token(candidateEnd + 1), secondToken.isDigits, secondToken.text.count == 2,
                       let second = Int(secondToken.text), second < 60 {
                        candidate.second = second
                        candidate.precision = 3
                        candidateEnd += 2
                    }
                    // "7.30" is a time only when something else says so ("at 7.30", "7.30 pm").
                    if !isDot {
                        marked = true
                    } else if text.token(candidateEnd).map({ $0.isSymbol(".") && !$0.spaceBefore }) == true {
                        return nil
                    }
                    time = candidate
                    end = candidateEnd
                } else if let h = text.token(end), h.text == "h", !h.spaceBefore {
                    // "15h30", "9h00", "16h": the French-style clock (with minutes it is surely a time; "15h"
                    // alone is as often a duration and needs "at" or a range).
                    end += 1
                    if let minuteToken = text.token(end), minuteToken.isDigits, !minuteToken.spaceBefore,
                       minuteToken.text.count == 2, let minute = Int(minuteToken.text), minute < 60 {
                        time.minute = minute
                        time.precision = 2
                        end += 1
                        marked = true
                    }
                    time.ambiguous = false      // a 24-hour clock: "9h30" is morning
                    if text.token(end).map({ ($0.isWord || $0.isDigits) && !$0.spaceBefore }) == true { return nil }
                }
            } else if digits.count == 3 || digits.count == 4, let value = Int(digits), value % 100 < 60, value / 100 <= 24 {
                // "1140 a.m.", "0730", "at 1030": hours and minutes run together; only with am/pm, a leading
                // zero, or after "at" with an hour up to 12 ("at 2014" is no time, "at 650-650-6500" a phone).
                time = SpokenTime(hour: value / 100, minute: value % 100, second: 0, precision: 2, ambiguous: value / 100 <= 12)
                end = index + 1
                let afterAt = bare && text.word(index - 1) == "at" && text.token(end).map({ $0.kind == .symbol && !$0.spaceBefore }) != true
                guard meridiem(at: end) != nil || digits.hasPrefix("0") || afterAt && value / 100 <= 12 else { return nil }
            } else {
                return nil
            }
        } else if token.isWord, let number = numbers.parse(at: index), number.spelled, number.kind == .cardinal,
                  number.value.isInteger, number.value.double >= 1, number.value.double <= 12, number.endToken - index <= 2 {
            let hour = Int(number.value.double)
            time = SpokenTime(hour: hour, minute: 0, second: 0, precision: 1, ambiguous: true)
            end = number.endToken
            // "seven thirty", "two forty five", "nine oh five".
            if let minutes = numbers.parse(at: end), minutes.spelled, minutes.kind == .cardinal, minutes.value.isInteger,
               minutes.value.double >= 1, minutes.value.double < 60, minutes.endToken - end <= 3,
               text.word(end) != "and" {
                time.minute = Int(minutes.value.double)
                time.precision = 2
                end = minutes.endToken
            }
        } else {
            return nil
        }
        if let (pm, after) = meridiem(at: end) {
            guard time.hour <= 12 else { return nil }
            time = pm ? time.afternoon() : time.morning()
            return (time, after, true)
        }
        if let after = oclock(at: end) {
            // "3 oclock pm".
            if let (pm, afterMeridiem) = meridiem(at: after), time.hour <= 12 { return (pm ? time.afternoon() : time.morning(), afterMeridiem, true) }
            return (time, after, true)
        }
        if text.word(end) == "ish", !text[end].spaceBefore || text.token(end - 1).map({ $0.isSymbol("-") }) == true {
            // "3ish pm".
            if let (pm, afterMeridiem) = meridiem(at: end + 1), time.hour <= 12 { return (pm ? time.afternoon() : time.morning(), afterMeridiem, true) }
            time.ambiguous = false
            return (time, end + 1, true)
        }
        if time.hour > 12 || time.hour == 0 && time.precision >= 2 { time.ambiguous = false }
        return (time, end, marked)
    }

    /// "am", "pm", "a.m.", "p . m .", "a", "p", "ampm": (is afternoon, index after).
    func meridiem(at index: Int) -> (Bool, Int)? {
        guard let word = text.word(index) else {
            // "9.am": a dot between.
            if let dot = text.token(index), dot.isSymbol("."), !dot.spaceBefore, let next = text.word(index + 1), next == "am" || next == "pm" {
                return (next == "pm", index + 2)
            }
            return nil
        }
        switch word {
        case "am", "pm":
            var end = index + 1
            if let dot = text.token(end), dot.isSymbol("."), !dot.spaceBefore { end += 1 }
            return (word == "pm", end)
        case "a", "p":
            // "a.m.", "a . m .", or a lone "a"/"p" glued to the digits ("9:00a", "7p").
            if let dot = text.token(index + 1), dot.isSymbol("."), text.word(index + 2) == "m" {
                var end = index + 3
                if let dot2 = text.token(end), dot2.isSymbol(".") { end += 1 }
                return (word == "p", end)
            }
            if !text[index].spaceBefore, text.token(index + 1).map({ $0.isWord && !$0.spaceBefore }) != true {
                return (word == "p", index + 1)
            }
            // "3:30 p m", "nine fifty nine a m": the letters apart.
            if text.word(index + 1) == "m", text.token(index + 2).map({ $0.isWord || $0.isDigits }) != true {
                return (word == "p", index + 2)
            }
            return nil
        default:
            return nil
        }
    }

    /// "o'clock", "oclock", "o clock": the index after.
    private func oclock(at index: Int) -> Int? {
        guard let word = text.word(index) else { return nil }
        if word == "o'clock" || word == "oclock" || word == "o\u{2019}clock" { return index + 1 }
        if word == "o", text.word(index + 1) == "clock" { return index + 2 }
        return nil
    }

    /// A part of the day after a time sets its half: "8 in the evening", "5 in the morning", "10 at night".
    func dayPartSuffix(_ time: SpokenTime, at index: Int) -> (SpokenTime, Int)? {
        var position = index
        guard let lead = text.word(position), lead == "in" || lead == "at" || lead == "this" else { return nil }
        position += 1
        if lead == "in", text.word(position) == "the" { position += 1 }
        guard let word = text.word(position), let part = DateTimeWords.partsOfDay[word] else { return nil }
        if lead == "at" && word != "night" { return nil }
        return (part.afternoon ? time.afternoon() : time.morning(), position + 1)
    }

    private func withDayPart(_ found: (SpokenTime, Int)) -> (SpokenTime, Int) {
        dayPartSuffix(found.0, at: found.1) ?? found
    }
}
