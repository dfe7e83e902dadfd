/// Where the windows of a truncated pair cut the second text: the fast tokenizer's
/// `truncation="only_second"` with `return_overflowing_tokens=True` and a stride (Rust
/// `truncate_encodings` + `Encoding::truncate`, direction right).
///
/// The second text gets `maxLength - 3 - firstCount` tokens per window (3 special tokens); windows
/// start every `windowLength - stride` tokens until one reaches the end.
///
///     try OverflowWindows.ranges(firstCount: 2, secondCount: 10, maxLength: 9, stride: 1)
///     // [0..<4, 3..<7, 6..<10]
enum OverflowWindows {
    static func ranges(firstCount: Int, secondCount: Int, maxLength: Int?, stride: Int) throws -> [Range<Int>] {
        guard let maxLength else { return [0..<secondCount] }
        guard maxLength >= 3 else {
            throw BertTokenizerError.invalidOption("max length must be at least 3 for a pair (3 special tokens), got \(maxLength)")
        }
        guard stride >= 0 else { throw BertTokenizerError.invalidOption("stride must not be negative, got \(stride)") }
        let budget = maxLength - 3
        let total = firstCount + secondCount
        guard total > budget else { return [0..<secondCount] }
        let toRemove = total - budget
        guard secondCount > toRemove else {
            throw BertTokenizerError.firstSequenceTooLong(firstTokens: firstCount, maxLength: maxLength)
        }
        return try split(count: secondCount, windowLength: secondCount - toRemove, stride: stride)
    }

    /// Windows of a single text truncated to `maxLength` tokens with its 2 special tokens (the fast
    /// tokenizer's single-sequence truncation with `return_overflowing_tokens=True`).
    ///
    ///     try OverflowWindows.ranges(count: 10, maxLength: 6, stride: 1) // [0..<4, 3..<7, 6..<10]
    static func ranges(count: Int, maxLength: Int, stride: Int) throws -> [Range<Int>] {
        guard maxLength >= 3 else {
            throw BertTokenizerError.invalidOption("max length must be at least 3 (2 special tokens and a token), got \(maxLength)")
        }
        guard stride >= 0 else { throw BertTokenizerError.invalidOption("stride must not be negative, got \(stride)") }
        guard count > maxLength - 2 else { return [0..<count] }
        return try split(count: count, windowLength: maxLength - 2, stride: stride)
    }

    /// Rust `Encoding::truncate` (direction right): windows of `windowLength` every `windowLength - stride`.
    private static func split(count: Int, windowLength: Int, stride: Int) throws -> [Range<Int>] {
        guard stride < windowLength else {
            throw BertTokenizerError.strideTooLarge(stride: stride, windowLength: windowLength)
        }
        var windows: [Range<Int>] = []
        var start = 0
        while start < count {
            let stop = min(start + windowLength, count)
            windows.append(start..<stop)
            if stop == count { break }
            start += windowLength - stride
        }
        return windows
    }
}
