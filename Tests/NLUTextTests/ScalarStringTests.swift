import NLUText
import Testing

/// `String(scalars:)` builds the same string as the standard library's scalar view, for every UTF-8 length.
@Suite struct ScalarStringTests {
    @Test func sameTextAsTheStandardLibrarysScalarView() {
        let samples = ["", "a", "abc XYZ 123", "é", "ß\u{7FF}\u{800}", "两千三百五十", "カタカナ", "😀🇫🇷", "e\u{301}\u{302}", "\u{0}\u{7F}\u{80}",
                       "\u{FFFF}\u{10000}\u{10FFFF}", "mixed 中文 and emoji 🎉 and accents àéï"]
        for sample in samples {
            let scalars = Array(sample.unicodeScalars)
            let built = String(scalars: scalars)
            #expect(built == String(String.UnicodeScalarView(scalars)))
            #expect(Array(built.utf8) == Array(sample.utf8))
            // A slice in the middle, as the recognizers take a token's or an entity's scalars.
            if scalars.count > 2 {
                let middle = scalars[1..<(scalars.count - 1)]
                #expect(Array(String(scalars: middle).unicodeScalars) == Array(middle))
            }
        }
    }
}
