/// A part of a week, month or year said before it: "early May", "the end of 2000", "mid-November",
/// "later this week", "earlier in the year", "EOY". LUIS keeps the period's TIMEX and narrows the span,
/// marking it with `Mod` start, mid or end; "earlier"/"later" before the current period ("later this
/// month") cut it at the reference instead, with no `Mod`.
enum PeriodPart: String {
    case start, mid, end

    /// The part said at `index`: (part, index after the lead, whether the lead was "earlier"/"later").
    static func read(_ text: TokenizedText, at index: Int) -> (PeriodPart, Int, Bool)? {
        guard let first = text.word(index) else { return nil }
        var position = index
        // "since the end of 1989" keeps its "the"; elsewhere LUIS leaves it out ("at the end of 2000").
        if first == "the", let previous = text.word(index - 1), ["since", "before", "after", "by", "until", "till"].contains(previous) {
            position += 1
        }
        guard let word = text.word(position) else { return nil }
        let part: PeriodPart
        var relative = false
        switch word {
        case "early", "earlier": part = .start; relative = word == "earlier"
        case "late", "later": part = .end; relative = word == "later"
        case "mid": part = .mid
        case "beginning", "start", "end", "middle":
            guard text.word(position + 1) == "of" else { return nil }
            part = word == "end" ? .end : word == "middle" ? .mid : .start
            position += 1
        default: return nil
        }
        // Only "the end of", not "the early…"; "late"/"early" need no "the".
        if position > index, ["early", "earlier", "late", "later", "mid"].contains(word) { return nil }
        position += 1
        if part == .mid, let hyphen = text.token(position), hyphen.isSymbol("-"), !hyphen.spaceBefore { position += 1 }
        if relative, text.word(position) == "in", text.word(position + 1) == "the" { position += 1 }
        return (part, position, relative)
    }

    /// The part of `span` (a week, a month or a year); `numberedYear` for a year said in digits, which
    /// LUIS splits in thirds (Jan-Apr, May-Aug, Sep-Dec) rather than halves.
    func of(_ span: (start: CivilDate, end: CivilDate), numberedYear: Bool) -> (start: CivilDate, end: CivilDate)? {
        let days = span.start.days(until: span.end)
        let start = span.start
        if days == 7 {
            switch self {
            case .start: return (start, start.adding(days: 3))
            case .end: return (start.adding(days: 3), span.end)
            case .mid: return nil
            }
        }
        if start.day == 1, start.adding(months: 1) == span.end {
            switch self {
            case .start: return (start, start.adding(days: 15))
            case .mid: return (start.adding(days: 9), start.adding(days: 20))
            case .end: return (start.adding(days: 15), span.end)
            }
        }
        if start.day == 1, start.month == 1, start.adding(months: 12) == span.end {
            switch self {
            case .start: return (start, start.adding(months: numberedYear ? 4 : 6))
            case .mid: return (start.adding(months: 4), start.adding(months: 8))
            case .end: return (start.adding(months: numberedYear ? 8 : 6), span.end)
            }
        }
        return nil
    }

    /// "earlier this month", "later in the week": the current period cut at the reference and at its middle.
    func clipped(_ span: (start: CivilDate, end: CivilDate), reference: CivilDate) -> (start: CivilDate, end: CivilDate)? {
        guard span.start <= reference, reference < span.end, let half = (self == .start ? PeriodPart.end : self).of(span, numberedYear: false) else {
            return nil
        }
        switch self {
        case .start: return (span.start, min(reference, half.start))
        case .end: return (max(reference, half.start), span.end)
        case .mid: return nil
        }
    }
}

extension DateRangeParser {
    /// "early May", "the end of 2000", "mid-November", "end of this month", "later this week", "EOY".
    func partOfPeriod(at index: Int) -> (SpokenDateRange, Int)? {
        if let word = text.word(index), word == "eoy" || word == "eom" {
            guard let (range, _) = period(word == "eoy" ? "year" : "month", offset: 0, at: index) else { return nil }
            return narrowed(range, part: .end, numberedYear: false).map { ($0, index + 1) }
        }
        guard let (part, position, relative) = PeriodPart.read(text, at: index) else { return nil }
        // The period: "this week", "the year", "month" ("end of month"), "May", "May 2017", "2000".
        var found: (SpokenDateRange, Int)?
        var numberedYear = false
        if let word = text.word(position), word == "week" || word == "month" || word == "year" {
            found = period(word, offset: 0, at: position)
        } else if let candidate = relativePeriod(at: position) {
            found = candidate
        } else if let candidate = monthRange(at: position) {
            found = candidate
        } else if let (year, end) = dates.year(at: position) {
            found = (yearSpan(year), end)
            numberedYear = true
        }
        guard let (range, end) = found else { return nil }
        let current = text.word(position).map { ["this", "the", "current", "week", "month", "year"].contains($0) } ?? false
        if relative, current, let span = range.spans.first, let cut = part.clipped(span, reference: reference) {
            return (SpokenDateRange(timex: range.timex(ofSpan: 0), spans: [cut]), end)
        }
        return narrowed(range, part: part, numberedYear: numberedYear).map { ($0, end) }
    }

    private func narrowed(_ range: SpokenDateRange, part: PeriodPart, numberedYear: Bool) -> SpokenDateRange? {
        let spans = range.spans.compactMap { part.of($0, numberedYear: numberedYear) }
        guard spans.count == range.spans.count, !spans.isEmpty else { return nil }
        return SpokenDateRange(timex: range.timex, spans: spans, mod: part.rawValue, spanTimexes: range.spanTimexes)
    }
}
