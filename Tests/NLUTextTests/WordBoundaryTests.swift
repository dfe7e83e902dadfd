import Foundation
import Testing
@testable import NLUText

/// UAX #29 word boundaries: every case of the standard's WordBreakTest.txt (Unicode 15.0.0, committed
/// without its comments as Tests/Fixtures/unicode/word-break-test.txt by
/// scripts/generate-word-break-tables.py), then the tailoring the word tokenizer uses.
@Suite struct WordBoundaryTests {
    static let fixture = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/unicode/word-break-test.txt")

    /// One case: its scalars and the offsets the standard puts a boundary at.
    struct Case {
        var scalars: [Unicode.Scalar]
        var boundaries: [Int]
        var line: Int
    }

    static func cases() throws -> [Case] {
        let text = try String(contentsOf: fixture, encoding: .utf8)
        var cases: [Case] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            var scalars: [Unicode.Scalar] = []
            var boundaries: [Int] = []
            for field in line.split(separator: " ") {
                switch field {
                case "÷": boundaries.append(scalars.count)
                case "×": break
                default:
                    let scalar = try #require(UInt32(field, radix: 16).flatMap(Unicode.Scalar.init), "line \(number + 1): \(field)")
                    scalars.append(scalar)
                }
            }
            cases.append(Case(scalars: scalars, boundaries: boundaries, line: number + 1))
        }
        return cases
    }

    @Test func everyWordBreakTestCaseGivesTheStandardsBoundaries() throws {
        let cases = try Self.cases()
        #expect(cases.count == 1823)
        var mismatches: [String] = []
        for testCase in cases {
            let found = WordBoundaries.boundaryOffsets(testCase.scalars, rules: .unicode)
            if found != testCase.boundaries {
                let scalars = testCase.scalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
                mismatches.append("line \(testCase.line): \(scalars): expected \(testCase.boundaries), got \(found)")
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.count) mismatches, first: \(mismatches.prefix(5))")
    }

    /// The same cases through the String API: the indices are the scalar offsets' indices.
    @Test func stringIndicesAreTheScalarBoundaries() throws {
        for testCase in try Self.cases().prefix(300) {
            var text = ""
            text.unicodeScalars.append(contentsOf: testCase.scalars)
            let offsets = WordBoundaries.boundaries(in: text).map { text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: $0) }
            #expect(offsets == testCase.boundaries, "line \(testCase.line)")
        }
        #expect(WordBoundaries.boundaries(in: "").isEmpty)
    }

    private func segments(_ text: String, _ rules: WordBoundaries.Rules) -> [String] {
        let boundaries = WordBoundaries.boundaries(in: text, rules: rules)
        return zip(boundaries, boundaries.dropFirst()).map { String(text.unicodeScalars[$0..<$1]) }
    }

    /// Where NLUKit's tailoring differs from the standard, side by side (section 4 of UAX #29 allows it).
    @Test func tailoringKeepsLatinWordsAndSplitsUnspacedScripts() {
        #expect(segments("e.g. a:b", .unicode) == ["e.g", ".", " ", "a:b"])
        #expect(segments("e.g. a:b", .nlukit) == ["e", ".", "g", ".", " ", "a", ":", "b"])
        #expect(segments("don't", .nlukit) == ["don't"])
        #expect(segments("v1.2 1;2", .unicode) == ["v1.2", " ", "1;2"])
        #expect(segments("v1.2 1;2", .nlukit) == ["v1", ".", "2", " ", "1", ";", "2"])
        #expect(segments("1,000.5", .nlukit) == ["1,000.5"])
        #expect(segments("snake_case", .unicode) == ["snake_case"])
        #expect(segments("snake_case", .nlukit) == ["snake", "_", "case"])
        #expect(segments("co\u{AD}op", .unicode) == ["co\u{AD}op"])
        #expect(segments("co\u{AD}op", .nlukit) == ["co", "\u{AD}", "op"])
        #expect(segments("m² H₂O", .unicode) == ["m", "²", " ", "H", "₂", "O"])
        #expect(segments("m² H₂O", .nlukit) == ["m²", " ", "H₂O"])
        // Han and Hiragana are apart in both; Katakana runs only in the standard.
        #expect(segments("東京タワーへ", .unicode) == ["東", "京", "タワー", "へ"])
        #expect(segments("東京タワーへ", .nlukit) == ["東", "京", "タ", "ワ", "ー", "へ"])
        // A combining voiced sound mark stays on its kana; a Thai vowel sign on its consonant.
        #expect(segments("か\u{3099}", .nlukit) == ["か\u{3099}"])
        #expect(segments("สวัสดี", .nlukit) == ["ส", "วั", "ส", "ดี"])
        // Keycaps end their segment: "1️⃣2" is the keycap and the digit.
        #expect(segments("1\u{FE0F}\u{20E3}2", .unicode) == ["1\u{FE0F}\u{20E3}2"])
        #expect(segments("1\u{FE0F}\u{20E3}2", .nlukit) == ["1\u{FE0F}\u{20E3}", "2"])
    }

    @Test func unspacedScriptLetters() {
        #expect(WordBoundaries.isUnspacedScriptLetter("語"))
        #expect(WordBoundaries.isUnspacedScriptLetter("あ"))
        #expect(WordBoundaries.isUnspacedScriptLetter("ア"))
        #expect(WordBoundaries.isUnspacedScriptLetter("ｱ"))     // halfwidth Katakana
        #expect(WordBoundaries.isUnspacedScriptLetter("ー"))     // prolonged sound mark (Word_Break Katakana)
        #expect(WordBoundaries.isUnspacedScriptLetter("\u{20BB7}"))  // 𠮷, outside the BMP
        #expect(WordBoundaries.isUnspacedScriptLetter("ก"))     // Thai
        #expect(!WordBoundaries.isUnspacedScriptLetter("한"))
        #expect(!WordBoundaries.isUnspacedScriptLetter("a"))
        #expect(!WordBoundaries.isUnspacedScriptLetter("。"))
        #expect(!WordBoundaries.isUnspacedScriptLetter("\u{3099}"))  // a mark, not a letter
    }
}
