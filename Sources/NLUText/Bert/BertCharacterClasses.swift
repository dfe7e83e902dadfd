/// The per-scalar classes and mappings of the fast BERT tokenizer, read from the generated tables
/// (``BertUnicodeTables``) once per process.
///
/// ASCII is answered inline; everything else by binary search in range tables or by dictionary lookup.
struct BertCharacterClasses: Sendable {
    /// The process-wide tables (parsed lazily, thread-safe as a global `let`).
    static let shared = BertCharacterClasses()

    private let decompositions: [UInt32: [UInt32]]
    private let combiningClasses: [UInt32: UInt8]
    private let lowercased: [UInt32: [UInt32]]

    private init() {
        decompositions = Self.parseMap(BertUnicodeTables.decompositions)
        combiningClasses = Self.parseMap(BertUnicodeTables.combiningClasses).mapValues { UInt8(truncatingIfNeeded: $0.first ?? 0) }
        lowercased = Self.parseMap(BertUnicodeTables.lowercased)
    }

    /// `clean_text` deletes this scalar (NUL, U+FFFD, controls and format characters but tab/LF/CR).
    func isRemovedByCleaning(_ scalar: UInt32) -> Bool {
        Self.contains(BertUnicodeTables.removedByCleaning, scalar)
    }

    /// `clean_text` replaces this scalar with a space.
    func isCleanedToSpace(_ scalar: UInt32) -> Bool {
        Self.contains(BertUnicodeTables.cleanedToSpace, scalar)
    }

    /// The pre-tokenizer splits on this scalar and drops it.
    func isWhitespace(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return scalar == 0x20 || (scalar >= 0x09 && scalar <= 0x0D) }
        return Self.contains(BertUnicodeTables.whitespace, scalar)
    }

    /// The pre-tokenizer isolates this scalar as a word of its own.
    func isPunctuation(_ scalar: UInt32) -> Bool {
        if scalar < 0x80 { return Self.isASCIIPunctuation(UInt8(scalar)) }
        return Self.contains(BertUnicodeTables.punctuation, scalar)
    }

    /// Canonical decomposition (NFD) of `scalar`, or nil when it has none.
    func decomposition(_ scalar: UInt32) -> [UInt32]? {
        if scalar >= 0xAC00 && scalar <= 0xD7A3 {
            // Hangul syllables decompose algorithmically into two or three jamo.
            let index = scalar - 0xAC00
            let trailing = index % 28
            let leading: UInt32 = 0x1100 + index / 588, vowel: UInt32 = 0x1161 + (index % 588) / 28
            return trailing == 0 ? [leading, vowel] : [leading, vowel, 0x11A7 + trailing]
        }
        return decompositions[scalar]
    }

    /// Canonical combining class as the tokenizer's normalization crate knows it (0 for starters).
    func combiningClass(_ scalar: UInt32) -> UInt8 {
        scalar < 0x300 ? 0 : combiningClasses[scalar] ?? 0
    }

    /// `strip_accents` removes this scalar after NFD (a nonspacing mark in the tokenizer's tables).
    func isNonspacingMark(_ scalar: UInt32) -> Bool {
        scalar >= 0x300 && Self.contains(BertUnicodeTables.nonspacingMarks, scalar)
    }

    /// `lowercase` output for a non-ASCII `scalar`, or nil when unchanged.
    func lowercasing(_ scalar: UInt32) -> [UInt32]? {
        lowercased[scalar]
    }

    /// CJK ideographs that `handle_chinese_chars` surrounds with spaces. The Rust tokenizer's third
    /// extension range starts at U+2B920 where the Python one starts at U+2B820 (fast/slow difference 3).
    static func isChineseCharacter(_ scalar: UInt32) -> Bool {
        switch scalar {
        case 0x4E00...0x9FFF, 0x3400...0x4DBF, 0x20000...0x2A6DF, 0x2A700...0x2B73F,
             0x2B740...0x2B81F, 0x2B920...0x2CEAF, 0xF900...0xFAFF, 0x2F800...0x2FA1F:
            return true
        default:
            return false
        }
    }

    /// Rust's `char::is_ascii_punctuation`: ASCII punctuation and symbols.
    @inline(__always)
    static func isASCIIPunctuation(_ byte: UInt8) -> Bool {
        (byte >= 0x21 && byte <= 0x2F) || (byte >= 0x3A && byte <= 0x40)
            || (byte >= 0x5B && byte <= 0x60) || (byte >= 0x7B && byte <= 0x7E)
    }

    private static func contains(_ ranges: [ClosedRange<UInt32>], _ scalar: UInt32) -> Bool {
        var low = 0, high = ranges.count
        while low < high {
            let middle = (low + high) / 2
            if ranges[middle].upperBound < scalar { low = middle + 1 } else { high = middle }
        }
        return low < ranges.count && ranges[low].contains(scalar)
    }

    /// Parses `SCALAR:REPLACEMENT,...;` entries (hex) of the generated tables.
    private static func parseMap(_ table: String) -> [UInt32: [UInt32]] {
        var map: [UInt32: [UInt32]] = [:]
        for entry in table.split(whereSeparator: { $0 == ";" || $0 == "\n" || $0 == " " }) {
            let parts = entry.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let key = UInt32(parts[0], radix: 16) else { continue }
            map[key] = parts[1].split(separator: ",").compactMap { UInt32($0, radix: 16) }
        }
        return map
    }
}
