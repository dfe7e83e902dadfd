/// The Snowball English stemmer ("Porter2"), as `snowballstemmer` 3.1 (Snowball 3.1.1) implements
/// it: `connection`, `connected` and `connecting` all become `connect`. Checked word for word against
/// the Python package on a generated list (Tests/Fixtures/stemmer).
///
/// Give it lowercase words; it works on Unicode scalars, as the reference works on Python code points.
///
///     let stemmer = EnglishStemmer()
///     stemmer.stem("generously")   // "generous"
///     stemmer.stem("skies")        // "sky"
public struct EnglishStemmer: Sendable {
    /// Makes a stemmer (it has no state; one instance can be shared).
    public init() {}

    /// The stem of `word` (a lowercase word).
    public func stem(_ word: String) -> String {
        var machine = SnowballMachine(Array(word.unicodeScalars))
        machine.stem()
        var result = String.UnicodeScalarView()
        result.append(contentsOf: machine.current[0..<machine.limit])
        return String(result)
    }
}

/// One entry of a Snowball `among` table: a string and the result it selects.
private struct Among: Sendable {
    let string: [Unicode.Scalar]
    let result: Int
    init(_ string: String, _ result: Int) {
        self.string = Array(string.unicodeScalars)
        self.result = result
    }
}

/// The Snowball runtime state (a port of `snowballstemmer.basestemmer.BaseStemmer`) and the English
/// rules (a port of the generated `english_stemmer.py`), step by step, so the two agree exactly.
private struct SnowballMachine {
    var current: [Unicode.Scalar]
    var cursor = 0
    var limit: Int
    var limitBackward = 0
    var bra = 0
    var ket: Int
    var p1 = 0
    var p2 = 0
    var yFound = false

    init(_ word: [Unicode.Scalar]) {
        current = word
        limit = word.count
        ket = word.count
    }

    // MARK: Groupings

    // Groupings as switches: this runs for every word of every utterance at prediction time.
    static func isVowel(_ c: Unicode.Scalar) -> Bool {
        switch c { case "a", "e", "i", "o", "u", "y": return true; default: return false }
    }
    static func isVowelWXY(_ c: Unicode.Scalar) -> Bool {
        switch c { case "Y", "a", "e", "i", "o", "u", "w", "x", "y": return true; default: return false }
    }
    static func isAEO(_ c: Unicode.Scalar) -> Bool {
        switch c { case "a", "e", "o": return true; default: return false }
    }
    static func isValidLI(_ c: Unicode.Scalar) -> Bool {
        switch c { case "c", "d", "e", "g", "h", "k", "m", "n", "r", "t": return true; default: return false }
    }

    mutating func inGroupingBackward(_ test: (Unicode.Scalar) -> Bool) -> Bool {
        guard cursor > limitBackward, test(current[cursor - 1]) else { return false }
        cursor -= 1
        return true
    }

    mutating func outGroupingBackward(_ test: (Unicode.Scalar) -> Bool) -> Bool {
        guard cursor > limitBackward, !test(current[cursor - 1]) else { return false }
        cursor -= 1
        return true
    }

    /// Moves forward to the next member of the grouping.
    mutating func goOutGrouping(_ test: (Unicode.Scalar) -> Bool) -> Bool {
        while cursor < limit {
            if test(current[cursor]) { return true }
            cursor += 1
        }
        return false
    }

    /// Moves forward to the next non-member of the grouping.
    mutating func goInGrouping(_ test: (Unicode.Scalar) -> Bool) -> Bool {
        while cursor < limit {
            if !test(current[cursor]) { return true }
            cursor += 1
        }
        return false
    }

    /// Moves backward to just after the previous member of the grouping.
    mutating func goOutGroupingBackward(_ test: (Unicode.Scalar) -> Bool) -> Bool {
        while cursor > limitBackward {
            if test(current[cursor - 1]) { return true }
            cursor -= 1
        }
        return false
    }

    func charBefore(_ c: Unicode.Scalar) -> Bool { cursor > limitBackward && current[cursor - 1] == c }

    mutating func equalsBackward(_ s: String) -> Bool {
        let count = s.unicodeScalars.count
        guard cursor - limitBackward >= count,
              current[(cursor - count)..<cursor].elementsEqual(s.unicodeScalars) else { return false }
        cursor -= count
        return true
    }

    // MARK: Among search (the longest entry that matches, as Snowball's find_among returns)

    mutating func findAmong(_ table: [Among]) -> Int {
        var best: Among?
        for entry in table where entry.string.count <= limit - cursor
            && current[cursor..<(cursor + entry.string.count)].elementsEqual(entry.string) {
            if best == nil || entry.string.count > best!.string.count { best = entry }
        }
        guard let best else { return 0 }
        cursor += best.string.count
        return best.result
    }

    mutating func findAmongBackward(_ table: [Among]) -> Int {
        var best: Among?
        for entry in table where entry.string.count <= cursor - limitBackward
            && current[(cursor - entry.string.count)..<cursor].elementsEqual(entry.string) {
            if best == nil || entry.string.count > best!.string.count { best = entry }
        }
        guard let best else { return 0 }
        cursor -= best.string.count
        return best.result
    }

    // MARK: Slices

    mutating func replace(_ cBra: Int, _ cKet: Int, _ s: String) {
        let adjustment = s.unicodeScalars.count - (cKet - cBra)
        current.replaceSubrange(cBra..<cKet, with: s.unicodeScalars)
        limit += adjustment
        if cursor >= cKet { cursor += adjustment } else if cursor > cBra { cursor = cBra }
    }

    mutating func sliceFrom(_ s: String) {
        replace(bra, ket, s)
        ket = bra + s.unicodeScalars.count
    }

    mutating func sliceDelete() { sliceFrom("") }

    var inR1: Bool { p1 <= cursor }
    var inR2: Bool { p2 <= cursor }

    // MARK: Tables

    static let a0 = ["arsen", "commun", "emerg", "gener", "inter", "later", "organ", "past", "univers"].map { Among($0, -1) }
    static let a1 = [Among("'", 1), Among("'s'", 1), Among("'s", 1)]
    static let a2 = [Among("ied", 2), Among("s", 3), Among("ies", 2), Among("sses", 1), Among("ss", -1), Among("us", -1)]
    static let a3 = [Among("succ", 1), Among("proc", 1), Among("exc", 1)]
    static let a4 = [Among("even", 2), Among("cann", 2), Among("inn", 2), Among("earr", 2), Among("herr", 2),
                     Among("out", 2), Among("y", 1)]
    static let a5 = [Among("", -1), Among("ed", 2), Among("eed", 1), Among("ing", 3), Among("edly", 2),
                     Among("eedly", 1), Among("ingly", 2)]
    static let a6 = [Among("", 3), Among("bb", 2), Among("dd", 2), Among("ff", 2), Among("gg", 2), Among("bl", 1),
                     Among("mm", 2), Among("nn", 2), Among("pp", 2), Among("rr", 2), Among("at", 1), Among("tt", 2),
                     Among("iz", 1)]
    static let a7 = [Among("anci", 3), Among("enci", 2), Among("ogi", 14), Among("li", 16), Among("bli", 12),
                     Among("abli", 4), Among("alli", 8), Among("fulli", 9), Among("lessli", 15), Among("ousli", 10),
                     Among("entli", 5), Among("aliti", 8), Among("biliti", 12), Among("iviti", 11), Among("tional", 1),
                     Among("ational", 7), Among("alism", 8), Among("ation", 7), Among("ization", 6), Among("izer", 6),
                     Among("ator", 7), Among("iveness", 11), Among("fulness", 9), Among("ousness", 10), Among("ogist", 13)]
    static let a7Replacements = [1: "tion", 2: "ence", 3: "ance", 4: "able", 5: "ent", 6: "ize", 7: "ate", 8: "al",
                                 9: "ful", 10: "ous", 11: "ive", 12: "ble", 13: "og", 15: "less"]
    static let a8 = [Among("icate", 4), Among("ative", 6), Among("alize", 3), Among("iciti", 4), Among("ical", 4),
                     Among("tional", 1), Among("ational", 2), Among("ful", 5), Among("ness", 5)]
    static let a9 = ["ic", "ance", "ence", "able", "ible", "ate", "ive", "ize", "iti", "al", "ism", "er", "ous",
                     "ant", "ent", "ment", "ement"].map { Among($0, 1) } + [Among("ion", 2)]
    static let a10 = [Among("e", 1), Among("l", 2)]
    static let a11 = [Among("andes", -1), Among("atlas", -1), Among("bias", -1), Among("cosmos", -1), Among("early", 6),
                      Among("gently", 4), Among("howe", -1), Among("idly", 3), Among("news", -1), Among("only", 7),
                      Among("singly", 8), Among("skies", 2), Among("skis", 1), Among("sky", -1), Among("ugly", 5)]
    static let a11Replacements = ["ski", "sky", "idl", "gentl", "ugli", "earli", "onli", "singl"]

    // MARK: Rules

    mutating func prelude() {
        yFound = false
        cursor = 0
        if cursor < limit, current[cursor] == "'" {
            bra = 0; ket = 1; sliceDelete()
        }
        cursor = 0
        if cursor < limit, current[cursor] == "y" {
            bra = 0; ket = 1; sliceFrom("Y"); yFound = true
        }
        cursor = 0
        // A y after a vowel is a consonant: mark it Y (scanning left to right over the updated word).
        var index = 0
        while index + 1 < limit {
            if Self.isVowel(current[index]), current[index + 1] == "y" {
                current[index + 1] = "Y"
                yFound = true
            }
            index += 1
        }
        cursor = 0
    }

    mutating func markRegions() {
        p1 = limit
        p2 = limit
        cursor = 0
        defer { cursor = 0 }
        if findAmong(Self.a0) == 0 {
            cursor = 0
            guard goOutGrouping(Self.isVowel) else { return }
            cursor += 1
            guard goInGrouping(Self.isVowel) else { return }
            cursor += 1
        }
        p1 = cursor
        guard goOutGrouping(Self.isVowel) else { return }
        cursor += 1
        guard goInGrouping(Self.isVowel) else { return }
        cursor += 1
        p2 = cursor
    }

    mutating func shortSyllable() -> Bool {
        let saved = limit - cursor
        if outGroupingBackward(Self.isVowelWXY), inGroupingBackward(Self.isVowel), outGroupingBackward(Self.isVowel) {
            return true
        }
        cursor = limit - saved
        if outGroupingBackward(Self.isVowel), inGroupingBackward(Self.isVowel), cursor <= limitBackward {
            return true
        }
        cursor = limit - saved
        return equalsBackward("past")
    }

    mutating func step1a() {
        let saved = limit - cursor
        ket = cursor
        if findAmongBackward(Self.a1) == 0 {
            cursor = limit - saved
        } else {
            bra = cursor
            sliceDelete()
        }
        ket = cursor
        let among = findAmongBackward(Self.a2)
        guard among != 0 else { return }
        bra = cursor
        switch among {
        case 1: sliceFrom("ss")
        case 2:
            if cursor - 2 < limitBackward { sliceFrom("ie") } else { cursor -= 2; sliceFrom("i") }
        case 3:
            guard cursor > limitBackward else { return }
            cursor -= 1
            guard goOutGroupingBackward(Self.isVowel) else { return }
            cursor -= 1
            sliceDelete()
        default: break
        }
    }

    mutating func step1b() {
        ket = cursor
        var among = findAmongBackward(Self.a5)
        bra = cursor
        let start = limit - cursor
        var deleteSuffix = false
        switch among {
        case 1:
            let saved = limit - cursor
            if inR1 {
                let before = limit - cursor
                if !(findAmongBackward(Self.a3) != 0 && cursor <= limitBackward) {
                    cursor = limit - before
                    sliceFrom("ee")
                }
            }
            cursor = limit - saved
        case 2:
            deleteSuffix = true
        case 3:
            among = findAmongBackward(Self.a4)
            if among == 0 {
                deleteSuffix = true
            } else if among == 1 {
                let saved = limit - cursor
                if outGroupingBackward(Self.isVowel), cursor <= limitBackward {
                    cursor = limit - saved
                    bra = cursor
                    sliceFrom("ie")
                } else {
                    deleteSuffix = true
                }
            } else if cursor > limitBackward {
                deleteSuffix = true
            }
        default:
            break
        }
        guard deleteSuffix else { return }
        cursor = limit - start
        let saved = limit - cursor
        guard goOutGroupingBackward(Self.isVowel) else { return }
        cursor = limit - saved
        sliceDelete()
        ket = cursor
        bra = cursor
        let end = limit - cursor
        switch findAmongBackward(Self.a6) {
        case 1:
            sliceFrom("e")
            return
        case 2:
            let before = limit - cursor
            if inGroupingBackward(Self.isAEO), cursor <= limitBackward { return }
            cursor = limit - before
        default:
            guard cursor == p1 else { return }
            let before = limit - cursor
            guard shortSyllable() else { return }
            cursor = limit - before
            sliceFrom("e")
            return
        }
        cursor = limit - end
        ket = cursor
        guard cursor > limitBackward else { return }
        cursor -= 1
        bra = cursor
        sliceDelete()
    }

    mutating func step1c() {
        ket = cursor
        guard charBefore("y") || charBefore("Y") else { return }
        cursor -= 1
        bra = cursor
        guard outGroupingBackward(Self.isVowel), cursor > limitBackward else { return }
        sliceFrom("i")
    }

    mutating func step2() {
        ket = cursor
        let among = findAmongBackward(Self.a7)
        guard among != 0 else { return }
        bra = cursor
        guard inR1 else { return }
        switch among {
        case 14:
            guard charBefore("l") else { return }
            cursor -= 1
            sliceFrom("og")
        case 16:
            guard inGroupingBackward(Self.isValidLI) else { return }
            sliceDelete()
        default:
            if let replacement = Self.a7Replacements[among] { sliceFrom(replacement) }
        }
    }

    mutating func step3() {
        ket = cursor
        let among = findAmongBackward(Self.a8)
        guard among != 0 else { return }
        bra = cursor
        guard inR1 else { return }
        switch among {
        case 1: sliceFrom("tion")
        case 2: sliceFrom("ate")
        case 3: sliceFrom("al")
        case 4: sliceFrom("ic")
        case 5: sliceDelete()
        default:
            guard inR2 else { return }
            sliceDelete()
        }
    }

    mutating func step4() {
        ket = cursor
        let among = findAmongBackward(Self.a9)
        guard among != 0 else { return }
        bra = cursor
        guard inR2 else { return }
        if among == 1 {
            sliceDelete()
        } else {
            guard charBefore("s") || charBefore("t") else { return }
            cursor -= 1
            sliceDelete()
        }
    }

    mutating func step5() {
        ket = cursor
        let among = findAmongBackward(Self.a10)
        guard among != 0 else { return }
        bra = cursor
        if among == 1 {
            if !inR2 {
                guard inR1 else { return }
                let saved = limit - cursor
                if shortSyllable() { return }
                cursor = limit - saved
            }
            sliceDelete()
        } else {
            guard inR2, charBefore("l") else { return }
            cursor -= 1
            sliceDelete()
        }
    }

    mutating func exception1() -> Bool {
        cursor = 0
        bra = cursor
        let among = findAmong(Self.a11)
        guard among != 0 else { return false }
        ket = cursor
        guard cursor >= limit else { return false }
        if among > 0 { sliceFrom(Self.a11Replacements[among - 1]) }
        return true
    }

    mutating func postlude() {
        guard yFound else { return }
        for index in 0..<limit where current[index] == "Y" { current[index] = "y" }
    }

    mutating func stem() {
        if exception1() { return }
        cursor = 0
        guard limit >= 3 else { return }
        prelude()
        markRegions()
        limitBackward = cursor
        cursor = limit; step1a()
        cursor = limit; step1b()
        cursor = limit; step1c()
        cursor = limit; step2()
        cursor = limit; step3()
        cursor = limit; step4()
        cursor = limit; step5()
        cursor = limitBackward
        postlude()
    }
}
