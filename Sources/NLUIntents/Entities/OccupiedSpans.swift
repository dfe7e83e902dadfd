/// The scalar spans of the entity mentions kept so far, so that whether a candidate overlaps one is
/// answered in time proportional to the candidate's length, not to the number kept: checking every
/// candidate against every kept mention made a 100,000-character text with 14,000 dictionary
/// matches take seconds (`/model/parse` on the longest text the server accepts).
///
/// Overlap is that of half-open ranges, `a.start < b.end && b.start < a.end`. The extractors never
/// give empty spans; should one be kept or asked about, every check compares against each kept span,
/// as before, so the answer is the same in every case.
struct OccupiedSpans {
    /// Whether each scalar position lies in a kept span.
    private var covered: [Bool] = []
    private var spans: [Range<Int>] = []
    private var keptAnEmptySpan = false

    /// Whether `span` overlaps a kept span.
    func overlaps(_ span: Range<Int>) -> Bool {
        if span.isEmpty || keptAnEmptySpan {
            return spans.contains { $0.lowerBound < span.upperBound && span.lowerBound < $0.upperBound }
        }
        let end = min(span.upperBound, covered.count)
        var position = max(span.lowerBound, 0)
        while position < end {
            if covered[position] { return true }
            position += 1
        }
        return false
    }

    /// Keeps `span`.
    mutating func insert(_ span: Range<Int>) {
        spans.append(span)
        guard !span.isEmpty else {
            keptAnEmptySpan = true
            return
        }
        if span.upperBound > covered.count { covered += repeatElement(false, count: span.upperBound - covered.count) }
        for position in max(span.lowerBound, 0)..<span.upperBound { covered[position] = true }
    }
}
