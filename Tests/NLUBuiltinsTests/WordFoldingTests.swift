@testable import NLUBuiltins
import Testing

/// ``NumberLexicon/fold(_:)`` rewrites UTF-8 bytes and ``NumberLexicon/foldedScalars(_:)`` maps scalars; both must
/// say what the tables were written against: lower-case Latin-1 letters without their accents, everything else as
/// it is ("ß", "ñ", capitals, other scripts, combining marks).
@Suite struct WordFoldingTests {
    /// The folding the tables assume, written as a plain mapping of characters.
    private static let plain: [Character: Character] = [
        "à": "a", "á": "a", "â": "a", "ã": "a", "ä": "a", "å": "a", "ç": "c", "è": "e", "é": "e", "ê": "e", "ë": "e",
        "ì": "i", "í": "i", "î": "i", "ï": "i", "ò": "o", "ó": "o", "ô": "o", "õ": "o", "ö": "o",
        "ù": "u", "ú": "u", "û": "u", "ü": "u",
    ]

    private static func expected(_ word: String) -> String {
        String(word.unicodeScalars.map { scalar -> Character in
            let character = Character(scalar)
            return plain[character] ?? character
        })
    }

    /// Every scalar up to U+07FF (all of Latin-1, Latin Extended, combining marks, Greek, Cyrillic, Hebrew, Arabic)
    /// alone and between ASCII letters, and the two-byte sequences a byte-wise rewrite could misread.
    @Test func everyScalarOfTwoBytesOrFewerFoldsAsTheTableSays() {
        for value in UInt32(1)...0x7FF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            for word in [String(scalar), "x\(scalar)y", "\(scalar)\(scalar)"] {
                #expect(NumberLexicon.fold(word) == Self.expected(word), "U+\(String(value, radix: 16)) in \(word)")
                #expect(NumberLexicon.foldedScalars(word) == Array(Self.expected(word).unicodeScalars),
                        "U+\(String(value, radix: 16)) in \(word)")
            }
        }
    }

    @Test(arguments: [
        ("cinquième", "cinquieme"), ("zwölf", "zwolf"), ("dreißig", "dreißig"), ("año", "año"), ("milhões", "milhoes"),
        ("tweeëntwintig", "tweeentwintig"), ("français", "francais"), ("ÉTÉ", "ÉTÉ"), ("e\u{301}", "e\u{301}"),
        ("二十", "二十"), ("", ""), ("vingt", "vingt"),
    ])
    func wordsFoldToTheirTableForm(word: String, folded: String) {
        #expect(NumberLexicon.fold(word) == folded)
        #expect(NumberLexicon.foldedScalars(word) == Array(folded.unicodeScalars))
    }
}
