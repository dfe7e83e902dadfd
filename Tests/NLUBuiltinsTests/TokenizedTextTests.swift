@testable import NLUBuiltins
import NLUText
import Testing

/// ``TokenizedText`` decodes a text's scalars and cuts its tokens in one pass with shortcuts for ASCII, Latin-1,
/// kana and ideographs; each must say what the plain definitions say: the text's own scalars, a word's text
/// lowercased by Unicode's tables (stream-safe beyond those scripts), other tokens as written, and letters as
/// Unicode's Alphabetic property has them.
@Suite struct TokenizedTextTests {
    static let texts = [
        "", " ", "Größe ÉTÉ VINGTIÈME × 12,5 km", "两千 km，三点一。", "カタカナー、ヽヾ「日本語」々〆〇 〻",
        "abc's O’Neil 3rd", "ΣΑΣ Ωμέγα İstanbul ǅemal", "emoji 🙂👍🏽 end", "ﾃｽﾄ ＡＢＣ１２３", "a\u{0301}b\u{05B0}\u{05B1}",
        "tab\there\nnew line\u{3000}ideographic space", "𠀀𠀁 (extension B)",
    ]

    @Test(arguments: texts)
    func scalarsAndTokensAreWhatThePlainDefinitionsSay(text: String) {
        let tokenized = TokenizedText(text)
        #expect(tokenized.scalars == Array(text.unicodeScalars))
        for token in tokenized.tokens {
            let written = String(String.UnicodeScalarView(tokenized.scalars[token.start..<token.end]))
            let expected = token.isWord ? StreamSafeText.string(of: written).lowercased() : written
            #expect(token.text == expected, "\(written) in \(text)")
        }
    }

    @Test func lettersAreTheAlphabeticScalars() {
        var mismatches: [UInt32] = []
        for value in UInt32(0)...0x10_FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let alphabetic = value < 128 ? (value | 0x20 >= 97 && value | 0x20 <= 122) : scalar.properties.isAlphabetic
            if TokenizedText.isLetter(scalar) != alphabetic { mismatches.append(value) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10).map { String($0, radix: 16) })")
    }
}
