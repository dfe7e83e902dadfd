import Foundation
@testable import NLUBuiltins
import NLUTestSupport
import Testing

/// Extraction is linear in the input: no pattern can make the recognizers backtrack.
@Suite struct LinearTimeTests {
    /// Inputs built to hurt a backtracking matcher: long runs of digits and separators, dotted labels,
    /// "@" signs, number words that never end a number.
    static let adversarialPieces = [
        "1-2-3-4-5-6-7-8-9-", "a.b.c.d.e.f.g.h.", "x@y@z@w@", "one one one one ", "$ $ $ 1,2,3,4,", "+1 (2) (3) 4 5 ",
        "twenty and three and ", "monday tuesday next last ", "12/12/12/12/", "hundred thousand million ",
    ]

    func line(bytes: Int) -> String {
        var text = ""
        var index = 0
        while text.utf8.count < bytes {
            text += Self.adversarialPieces[index % Self.adversarialPieces.count]
            index += 1
        }
        return text
    }


    @Test func tenTimesTheInputTakesAboutTenTimesTheWork() {
        let recognizer = BuiltinRecognizer()
        // Debug builds are slow; the 1 MB figure is measured in release by benchmarks/builtins.py.
        let small = line(bytes: 10_000), large = line(bytes: 100_000)
        let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
        #expect(growth.ratio < linearWorkBound, "10 kB → 10x: \(growth)")
    }

    /// One long run of hyphen-joined tokens, where a domain could start at every token ("1-1-1-…",
    /// "x-www.x-www.…"): the URL recognizer rescanned the rest of the run from each token (200 kB of
    /// "-1" took 12 s in release) until it kept where a failed scan stopped.
    @Test(arguments: ["-1", "ab-", "x-www.", "localhost-", "http://a-"])
    func longHyphenatedRunsAreReadOnce(piece: String) {
        let recognizer = BuiltinRecognizer(types: [.url, .email])
        let small = String(repeating: piece, count: 10_000 / piece.count) + "1"
        let large = String(repeating: piece, count: 100_000 / piece.count) + "1"
        let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
        #expect(growth.ratio < linearWorkBound, "\(piece): 10 kB → 10x: \(growth)")
    }

    /// Runs of digit groups a number may go on through ("123 123 123 …" grouped by spaces, "12,12,12,…" in Indian
    /// pairs): the date-time patterns ask for a number at every group, the number recognizer at every pair, and
    /// each read the run to its end (10 kB of "123 " took 16 s, 100 kB minutes). Groups are now read at most
    /// `NumberParser.maxTokens` ahead.
    @Test(arguments: ["123 ", "12,"])
    func longRunsOfDigitGroupsAreReadABoundedWayAhead(piece: String) {
        let recognizer = BuiltinRecognizer()
        let small = String(repeating: piece, count: 250), large = String(repeating: piece, count: 2_500)
        let growth = linearWorkGrowth { #expect(!recognizer.entities(in: small).isEmpty) } large: { #expect(!recognizer.entities(in: large).isEmpty) }
        #expect(growth.ratio < linearWorkBound, "\(piece): 250 times → 10x: \(growth)")
    }

    /// One word under a storm of combining marks that are letters (Hebrew points, classes 14 and 10 in turn), alone
    /// or as the last label of a domain: Swift hashes such a word by sorting its marks, in time quadratic in the
    /// run, and the recognizers looked the word up in their tables (100,000 pairs took minutes per lookup).
    @Test(arguments: ["", "mail@a.", "see a."])
    func runsOfCombiningMarksAreHashedInLinearTime(prefix: String) {
        let recognizer = BuiltinRecognizer()
        func word(pairs: Int) -> String { prefix + "\u{5D0}" + String(repeating: "\u{5B4}\u{5B0}", count: pairs) + " 3 apples" }
        let small = word(pairs: 1_000), large = word(pairs: 10_000)
        let growth = linearWorkGrowth { #expect(recognizer.entities(in: small).last?.text == "3") } large: { #expect(recognizer.entities(in: large).last?.text == "3") }
        #expect(growth.ratio < linearWorkBound, "1,000 pairs → 10x: \(growth)")
    }

    /// Digits and the separators numbers, money, phone numbers, dates and e-mails are read across: every
    /// recognizer's look-ahead meets a run that could go on. 200 kB would take seconds if any were quadratic.
    @Test func twoHundredKilobytesOfDigitsAndSeparatorsCostTenTimesTwenty() {
        let pieces = [
            "1,23,456.7", "-8.9^--1", "2x10^3 ", "(+1)(2)-3.4.5 ext 6 ", "$1 2 3 and 4c ", "12/3/4-5:6 ", "1,2,3,4,5,",
            "a dot b dot c@d dot e ", "f at g.h at ", "30%25%2020% ", "1 point 2 point 3 ", "forty-five (45 (46 ",
        ]
        func digits(bytes: Int) -> String {
            var text = ""
            var index = 0
            while text.utf8.count < bytes {
                text += pieces[index % pieces.count]
                index += 1
            }
            return text
        }
        // The non-date kinds (date-times have the test above); a debug build reads 200 kB in about a second.
        let recognizer = BuiltinRecognizer(types: Set(BuiltinEntityType.allCases).subtracting(BuiltinEntityType.dateTimeTypes))
        let small = digits(bytes: 20_000), large = digits(bytes: 200_000)
        let growth = linearWorkGrowth { _ = recognizer.entities(in: small) } large: { _ = recognizer.entities(in: large) }
        #expect(growth.ratio < linearWorkBound, "20 kB → 10x: \(growth)")
    }
}

/// A long text is read in windows (bounded memory); the windows report exactly what one reading of the whole
/// text reports, entities near the cuts included.
@Suite struct WindowedRecognitionTests {
    @Test func windowsReportWhatTheWholeTextHolds() throws {
        let sentences = [
            "Remind me tomorrow at 7pm to transfer $1.5k ", "call me on +1 (425) 555-0199 or mail bob@example.com ",
            "set it to twenty-two degrees, 15% off ", "the meeting runs from 3pm to 5pm next Friday ",
            "one hundred and twenty three thousand people visited https://example.org/a-b in 2016 ",
        ]
        var text = ""
        var index = 0
        while text.unicodeScalars.count < 3 * BuiltinRecognizer.windowScalars {
            text += sentences[index % sentences.count]
            index += 1
        }
        let reference = try ReferenceTime(iso8601: "2016-11-07T10:00:00")
        let recognizer = BuiltinRecognizer()
        let windowed = recognizer.entities(in: text, reference: reference)
        let whole = recognizer.wholeTextEntities(in: text, reference: reference)
        #expect(windowed.count == whole.count)
        #expect(windowed == whole)
        #expect(windowed.allSatisfy { String(text[$0.range]) == $0.text })
    }
}
