/// TIMEX 3 expressions and LUIS value text for dates, times and durations.
enum Timex {
    static func pad(_ value: Int, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }

    /// "19:00:00".
    static func clock(_ hour: Int, _ minute: Int, _ second: Int) -> String {
        pad(hour, 2) + ":" + pad(minute, 2) + ":" + pad(second, 2)
    }

    /// A time's TIMEX as LUIS writes it: "T19", "T19:30", "T19:30:15" (only the precision said).
    static func time(_ hour: Int, _ minute: Int, _ second: Int, precision: Int) -> String {
        var text = "T" + pad(hour, 2)
        if precision >= 2 || minute != 0 || second != 0 { text += ":" + pad(minute, 2) }
        if precision >= 3 || second != 0 { text += ":" + pad(second, 2) }
        return text
    }

    /// A duration's TIMEX: "P3D", "PT2H30M", "P1.5Y"; `seconds` decides the T part.
    static func duration(seconds: Double) -> String {
        var remaining = seconds
        var text = "P"
        let units: [(Double, String, Bool)] = [(86400, "D", false), (3600, "H", true), (60, "M", true), (1, "S", true)]
        var inTime = false
        for (size, letter, timePart) in units {
            let count = (remaining / size).rounded(.down)
            guard count >= 1 || (size == 1 && remaining > 0) else { continue }
            if timePart && !inTime { text += "T"; inTime = true }
            if size == 1 {
                text += NumberValue.real(remaining).text + letter
                remaining = 0
            } else {
                text += NumberValue.real(count).text + letter
                remaining -= count * size
            }
        }
        return text == "P" ? "PT0S" : text
    }
}
