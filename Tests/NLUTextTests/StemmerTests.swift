import Foundation
import Testing
@testable import NLUText

/// Every Snowball stemmer against the pure-Python stemmers of `snowballstemmer` 3.1.1
/// (scripts/fixtures/stemmers.py: words of Snowball's test vocabularies chosen so that every among
/// entry the vocabulary reaches is reached). Exact agreement: zero differences tolerated.
@Suite struct StemmerTests {
    static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/stemmer")

    static func pairs(_ name: String) throws -> [(word: String, stem: String)] {
        let text = try String(contentsOf: fixtures.appendingPathComponent("\(name).tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            let parts = line.split(separator: "\t", omittingEmptySubsequences: false)
            return parts.count == 2 ? (String(parts[0]), String(parts[1])) : nil
        }
    }

    static let snowballLanguages = StemmerLanguage.allCases.filter { $0 != .english }

    @Test(arguments: snowballLanguages)
    func agreesWithSnowballstemmer(_ language: StemmerLanguage) throws {
        let stemmer = try Stemmer(language)
        let pairs = try Self.pairs(language.rawValue)
        #expect(pairs.count >= 300)
        let differences = pairs.filter { stemmer.stem($0.word) != $0.stem }
            .map { "\($0.word): \(stemmer.stem($0.word)) ≠ \($0.stem)" }
        #expect(differences.isEmpty, "\(language): \(differences.count) differences, e.g. \(differences.prefix(10))")
    }

    /// The interpreter on Snowball's English source agrees with the English fixture too (the hand-written
    /// ``EnglishStemmer`` serves English; this checks the interpreter on a third algorithm's worth of rules).
    @Test func interpreterRunsEnglishLikeTheReference() throws {
        let program = try SnowballAlgorithms.english.get()
        var differences: [String] = []
        for (word, stem) in try Self.pairs("english") {
            var interpreter = SnowballInterpreter(program: program, word: Array(word.unicodeScalars))
            interpreter.run()
            var result = String.UnicodeScalarView()
            result.append(contentsOf: interpreter.current)
            if String(result) != stem { differences.append("\(word): \(String(result)) ≠ \(stem)") }
        }
        #expect(differences.isEmpty, "\(differences.count) differences, e.g. \(differences.prefix(10))")
    }

    @Test func knownStems() throws {
        #expect(try Stemmer(language: "fr").stem("continuellement") == "continuel")
        #expect(try Stemmer(language: "de").stem("aufeinanderfolgenden") == "aufeinanderfolg")
        #expect(try Stemmer(language: "es").stem("corriendo") == "corr")
        #expect(try Stemmer(language: "ru").stem("взъерошенными") == "взъерошен")
        #expect(try Stemmer(language: "en").stem("connections") == "connect")
    }

    @Test func languageCodesAndCultures() throws {
        #expect(try StemmerLanguage(code: "fr-fr") == .french)
        #expect(try StemmerLanguage(code: "pt_BR") == .portuguese)
        #expect(try StemmerLanguage(code: " DE ") == .german)
        #expect(try StemmerLanguage(code: "nb-NO") == .norwegian)
        #expect(try StemmerLanguage(code: "german") == .german)
        #expect(try StemmerLanguage(code: "dutch_porter") == .dutchPorter)
        #expect(try Stemmer(language: "en-US").language == .english)
        #expect(StemmerLanguage.french.code == "fr")
        #expect(StemmerLanguage.porter.code == nil)
    }

    @Test func unknownLanguagesListTheSupportedOnes() throws {
        for code in ["zh-cn", "xx", ""] {
            #expect {
                try Stemmer(language: code)
            } throws: { error in
                guard case .unsupportedLanguage(let named, let supported) = error as? StemmerError else { return false }
                return named == code && supported.contains("fr (french)") && supported.contains("porter")
            }
        }
        #expect(try StemmerLanguage(code: "fr-") == .french)
    }

    @Test func everyEmbeddedAlgorithmReads() throws {
        for language in StemmerLanguage.allCases {
            _ = try SnowballAlgorithms.program(for: language).get()
        }
    }

    @Test func syntaxErrorsNameTheLine() {
        let source = "routines ( r )\nexternals ( stem )\ndefine stem as ( r )\ndefine r as ( among ( 'a' ) 'b' ) )"
        #expect {
            try SnowballProgram.read(source)
        } throws: { error in
            (error as? SnowballSyntaxError)?.line == 4
        }
        #expect(throws: SnowballSyntaxError.self) { try SnowballProgram.read("externals ( stem )") }
        #expect(throws: SnowballSyntaxError.self) { try SnowballProgram.read("externals ( stem ) define stem as ( $x = 1 )") }
    }
}
