import Foundation
import Testing
@testable import NLUText

/// The stream-safe format and normalization by pieces: the same result as Foundation's over the whole text.
@Suite struct StreamSafeTextTests {
    @Test func aJoinerFollowsEveryThirtyMarksInARow() {
        let marks = String(repeating: "\u{301}", count: 65)
        let safe = StreamSafeText.string(of: "a" + marks + "b\u{301}")
        let expected = "a" + String(repeating: "\u{301}", count: 30) + "\u{34F}" + String(repeating: "\u{301}", count: 30)
            + "\u{34F}" + String(repeating: "\u{301}", count: 5) + "b\u{301}"
        #expect(Array(safe.unicodeScalars) == Array(expected.unicodeScalars))
        // Thirty in a row, or runs broken by starters, are left alone.
        let thirty = "a" + String(repeating: "\u{316}", count: 30) + "e\u{301}"
        #expect(Array(StreamSafeText.string(of: thirty).unicodeScalars) == Array(thirty.unicodeScalars))
        // Tibetan U+0F73 is a starter that decomposes into marks: counted as one.
        #expect(StreamSafeText.string(of: String(repeating: "\u{F73}", count: 31)).unicodeScalars.count == 32)
    }

    /// Random texts of letters, marks (of several classes), Hangul jamo that compose backwards, Tibetan
    /// signs and compatibility characters, normalized by pieces and whole: the same scalars in every form.
    @Test func normalizingByPiecesGivesFoundationsResult() {
        let alphabet: [UInt32] = [0x61, 0x20, 0x301, 0x316, 0x5D0, 0x5B4, 0xF40, 0xF73, 0xF71, 0x1100, 0x1161, 0x11A8,
                                  0xAC00, 0xFF76, 0xFF9E, 0xB47, 0xB3E, 0xE9, 0x1E0B, 0x323, 0xFB03, 0x130, 0x4E00, 0x3099, 0x304B]
        var state: UInt64 = 0x5EED_7E47
        func random(_ bound: Int) -> Int {
            // xorshift64, so a failure reproduces.
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(state % UInt64(bound))
        }
        let forms: [(String) -> String] = [
            { $0.decomposedStringWithCanonicalMapping }, { $0.precomposedStringWithCanonicalMapping },
            { $0.decomposedStringWithCompatibilityMapping }, { $0.precomposedStringWithCompatibilityMapping },
        ]
        var compared = 0
        for _ in 0..<200 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<(300 + random(600)) {
                scalars.append(Unicode.Scalar(alphabet[random(alphabet.count)])!)
            }
            let text = String(scalars)
            guard !StreamSafeText.needsJoiners(text.unicodeScalars) else { continue }
            for form in forms {
                #expect(Array(StreamSafeText.normalized(text, by: form).unicodeScalars) == Array(form(text).unicodeScalars))
                compared += 1
            }
        }
        #expect(compared > 400)
    }
}
