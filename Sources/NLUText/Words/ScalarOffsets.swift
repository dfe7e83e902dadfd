extension String {
    /// The `String.Index` range of the Unicode-scalar offsets `range` (as Python and the JSON output
    /// count characters), or `nil` when the range lies outside the string.
    ///
    ///     "naïve café".scalarIndexRange(6..<10).map { "naïve café"[$0] } // "café"
    public func scalarIndexRange(_ range: Range<Int>) -> Range<String.Index>? {
        guard range.lowerBound >= 0 else { return nil }
        let scalars = unicodeScalars
        guard let lower = scalars.index(scalars.startIndex, offsetBy: range.lowerBound, limitedBy: scalars.endIndex),
              let upper = scalars.index(lower, offsetBy: range.count, limitedBy: scalars.endIndex)
        else { return nil }
        return lower..<upper
    }

    /// The Unicode-scalar offsets of `range` (the inverse of ``scalarIndexRange(_:)``).
    ///
    ///     let s = "naïve café"
    ///     s.scalarOffsets(of: s.range(of: "café")!) // 6..<10
    public func scalarOffsets(of range: Range<String.Index>) -> Range<Int> {
        let scalars = unicodeScalars
        let lower = scalars.distance(from: scalars.startIndex, to: range.lowerBound)
        return lower..<(lower + scalars.distance(from: range.lowerBound, to: range.upperBound))
    }

    /// The Unicode-scalar offsets of each of `ranges`, walking the string once when they come in
    /// text order (the tokens of a text): each bound is counted from the previous one, where
    /// ``scalarOffsets(of:)`` per range counts from the start, quadratic over a long text's tokens.
    ///
    ///     let s = "naïve café"
    ///     s.scalarOffsets(of: WordTokenizer().tokens(in: s).map(\.range)) // [0..<5, 6..<10]
    public func scalarOffsets(of ranges: [Range<String.Index>]) -> [Range<Int>] {
        let scalars = unicodeScalars
        var index = scalars.startIndex, offset = 0
        func offsetOf(_ bound: String.Index) -> Int {
            offset += scalars.distance(from: index, to: bound)  // negative for a bound before the last one
            index = bound
            return offset
        }
        return ranges.map { range in
            let lower = offsetOf(range.lowerBound)
            return lower..<offsetOf(range.upperBound)
        }
    }
}
