import Foundation
import Testing
import GRDB
import NLUText
@testable import NLUSearch

/// Keyword analysis per language: Snowball stop words left out, the word stemmed as written, then the
/// stem's diacritics folded. Expected stems are snowballstemmer 3.1.1's (French "confirmées" → "confirm",
/// "réservations" → "réserv"; German "häuser" → "haus"); English stays as every earlier index has it.
@Suite struct KeywordLanguageTests {
    @Test func englishIsUnchanged() throws {
        #expect(KeywordAnalyzer.terms("Cafés connected in 2024") == ["cafe", "connect", "in", "2024"])
        #expect(try KeywordAnalyzer(language: "en-GB").terms("Cafés connected in 2024") == ["cafe", "connect", "in", "2024"])
        #expect(KeywordAnalyzer.english.language == .english)
    }

    @Test func frenchDropsStopWordsStemsThenFolds() throws {
        let french = try KeywordAnalyzer(language: "fr-FR")
        #expect(french.language == .french)
        #expect(french.terms("Les réservations de l'hôtel sont confirmées") == ["reserv", "hotel", "confirm"])
        // Decomposed accents analyse as composed ones.
        #expect(french.terms("re\u{301}servations") == ["reserv"])
        #expect(french.analysedText("Réservation confirmée") == "reserv confirm")
        #expect(try KeywordQuery("réservations et réservation", analyzer: french).terms == ["reserv"])
    }

    @Test func germanAndALanguageWithoutStopWords() throws {
        #expect(try KeywordAnalyzer(language: "de").terms("Die Häuser") == ["haus"])
        // Snowball publishes no Greek stop words: every word stays, stemmed.
        #expect(StopWords.list(for: .greek) == nil)
        #expect(try KeywordAnalyzer(language: "el").terms("και") == [Stemmer(language: "el").stem("και")])
    }

    @Test func unknownLanguageNamesTheSupportedOnes() {
        #expect {
            try KeywordAnalyzer(language: "xx")
        } throws: { error in
            guard case .invalidArgument(let message)? = error as? SearchError else { return false }
            return message.contains("'xx'") && message.contains("fr (french)")
        }
    }

    @Test func stopWordListsAreSnowballs() throws {
        let french = try #require(StopWords.list(for: .french))
        #expect(french.contains("les") && french.contains("même") && !french.contains("réservation"))
        #expect(StopWords.list(for: .russian)?.contains("и") == true)
        #expect(StemmerLanguage.allCases.filter { StopWords.list(for: $0) != nil }.count == 16)
    }

    /// The language is recorded in the file and chooses the analysis of the chunks stored after it is
    /// reopened; a file without it is English, as every index made before languages.
    @Test func indexRecordsItsLanguage() throws {
        let url = try temporaryIndexURL()
        let created = try DocumentIndex.create(at: url, embedder: nil, keywordAnalyzer: try KeywordAnalyzer(language: "fr"))
        #expect(created.keywordAnalyzer.language == .french)
        let index = try DocumentIndex(at: url)
        #expect(index.keywordAnalyzer.language == .french)
        try index.add([try IndexDocument(id: "a", text: "Les réservations sont confirmées")], progress: nil)
        let stored = try index.database.read { db in try String.fetchAll(db, sql: "SELECT keywords FROM chunks") }
        #expect(stored == ["reserv confirm"])

        let englishURL = try temporaryIndexURL()
        _ = try DocumentIndex.create(at: englishURL, embedder: nil)
        let english = try DocumentIndex(at: englishURL)
        #expect(english.keywordAnalyzer.language == .english)
        let keys = try english.database.read { db in try String.fetchAll(db, sql: "SELECT key FROM index_info") }
        #expect(!keys.contains(KeywordAnalyzer.settingKey))

        // A language this version cannot analyse is refused by name, not read as English.
        try english.database.write { db in
            try db.execute(sql: "INSERT INTO index_info (key, value) VALUES (?, 'klingon')", arguments: [KeywordAnalyzer.settingKey])
        }
        #expect {
            try DocumentIndex(at: englishURL)
        } throws: { error in
            guard case .notAnIndex(_, let reason)? = error as? SearchError else { return false }
            return reason.contains("keyword_language klingon")
        }
    }

    /// A query to a French index is analysed as its chunks are: "confirmées" finds "confirmé" (both
    /// `confirm`), which the English analysis ("confirme" and "confirm") would not match.
    @Test func queriesFollowTheIndexLanguage() throws {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: nil, keywordAnalyzer: try KeywordAnalyzer(language: "fr"))
        try index.add([try IndexDocument(id: "a", text: "Le rendez-vous est confirmé pour demain."),
                       try IndexDocument(id: "b", text: "La salle reste fermée.")], progress: nil)
        #expect(KeywordAnalyzer.terms("confirmées") != KeywordAnalyzer.terms("confirmé"))
        let results = try index.search("réservations confirmées", embedding: nil, options: SearchOptions(k: 2, mode: .keyword))
        #expect(results.map(\.documentID) == ["a"])
    }
}
