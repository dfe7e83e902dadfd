import Testing
@testable import NLUText

/// The script of a letter (the table generated from Unicode 15.0's Scripts.txt) and whether a text is written
/// in its language's scripts.
@Suite struct LanguageScriptsTests {
    /// Letters from each script's blocks, first and last letters of runs, an astral Han ideograph; non-letters
    /// (digits, punctuation, marks, Common-script letters such as the Katakana prolonged sound mark) have none.
    @Test func lettersHaveTheirScript() {
        let letters: [(Unicode.Scalar, WritingScript)] = [
            ("A", .latin), ("z", .latin), ("é", .latin), ("\u{24F}", .latin), ("\u{1E9E}", .latin), ("Ω", .greek),
            ("ж", .cyrillic), ("\u{52F}", .cyrillic), ("Ա", .armenian), ("א", .hebrew), ("ب", .arabic), ("क", .devanagari),
            ("ক", .bengali), ("க", .tamil), ("ก", .thai), ("ກ", .lao), ("ა", .georgian), ("한", .hangul),
            ("あ", .hiragana), ("ア", .katakana), ("ｱ", .katakana), ("漢", .han), ("々", .han), ("\u{20000}", .han), ("\u{3134A}", .han),
            ("ក", .khmer), ("က", .myanmar),
        ]
        for (letter, script) in letters {
            #expect(WritingScript(letter: letter) == script, "U+\(String(letter.value, radix: 16, uppercase: true))")
        }
        for other: Unicode.Scalar in ["7", "!", " ", "\u{301}", "ー", "\u{0}", "\u{10FFFF}", "€", "😀"] {
            #expect(WritingScript(letter: other) == nil, "U+\(String(other.value, radix: 16, uppercase: true))")
        }
    }

    @Test func aTextInAnotherScriptThanItsLanguagesIsTold() throws {
        let han = try #require(LanguageScripts.mismatch(in: "明天会下雨吗", language: "de"))
        #expect(han.found == .han && han.expected == [.latin])
        #expect(LanguageScripts.describe(han, language: "de") == "written in Han, not in the Latin script of 'de'")
        let latin = try #require(LanguageScripts.mismatch(in: "wake me up at seven", language: "ja-JP"))
        #expect(LanguageScripts.describe(latin, language: "ja-JP") == "written in Latin, not in the Hiragana, Katakana, Han scripts of 'ja-JP'")
        // Japanese is three scripts; Serbian two; a few foreign letters (a name) or mostly digits are normal.
        #expect(LanguageScripts.mismatch(in: "明日の天気はどう", language: "ja") == nil)
        #expect(LanguageScripts.mismatch(in: "Dobar dan, kako ste", language: "sr") == nil)
        #expect(LanguageScripts.mismatch(in: "Добар дан", language: "sr-Cyrl") == nil)
        #expect(LanguageScripts.mismatch(in: "play 周杰伦 on spotify please", language: "en") == nil)
        #expect(LanguageScripts.mismatch(in: "東京", language: "en") == nil)
        #expect(LanguageScripts.mismatch(in: "12:30 24.5 €", language: "fr") == nil)
        // Most letters decide: more Cyrillic than Latin in an English text is told.
        #expect(LanguageScripts.mismatch(in: "Как дела? ok", language: "en")?.found == .cyrillic)
        // A language NLUKit has no scripts recorded for is not judged.
        #expect(LanguageScripts.scripts(of: "xx") == nil)
        #expect(LanguageScripts.mismatch(in: "明天会下雨吗", language: "xx") == nil)
        #expect(LanguageScripts.scripts(of: "pt_BR") == [.latin])
    }
}
