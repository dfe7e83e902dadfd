/// The scripts NLUKit's languages are written in, and the script of a letter (Unicode's Scripts.txt, letters
/// only: digits, punctuation and marks belong to no language's script here).
///
///     WritingScript(letter: "ж")   // .cyrillic
///     WritingScript(letter: "7")   // nil
public enum WritingScript: UInt8, CaseIterable, Sendable, CustomStringConvertible {
    // The order is the table's (scripts/generate-script-tables.py).
    case latin, greek, cyrillic, armenian, hebrew, arabic, devanagari, bengali, tamil, thai, lao, georgian, hangul
    case hiragana, katakana, han, khmer, myanmar

    /// The script of `letter`, nil when it is not a letter of one of these scripts.
    public init?(letter: Unicode.Scalar) {
        let runs = Self.letterRuns
        let key = letter.value << 8 | 0xFF
        // The last run starting at or before the scalar.
        var low = 0, high = runs.count
        while low < high {
            let middle = (low + high) / 2
            if runs[middle] <= key { low = middle + 1 } else { high = middle }
        }
        guard low > 0, let script = WritingScript(rawValue: UInt8(truncatingIfNeeded: runs[low - 1])) else { return nil }
        self = script
    }

    /// Unicode's name of the script ("Latin", "Han").
    public var description: String {
        switch self {
        case .latin: "Latin"
        case .greek: "Greek"
        case .cyrillic: "Cyrillic"
        case .armenian: "Armenian"
        case .hebrew: "Hebrew"
        case .arabic: "Arabic"
        case .devanagari: "Devanagari"
        case .bengali: "Bengali"
        case .tamil: "Tamil"
        case .thai: "Thai"
        case .lao: "Lao"
        case .georgian: "Georgian"
        case .hangul: "Hangul"
        case .hiragana: "Hiragana"
        case .katakana: "Katakana"
        case .han: "Han"
        case .khmer: "Khmer"
        case .myanmar: "Myanmar"
        }
    }
}
