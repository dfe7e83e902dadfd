import Foundation
import Testing
import GRDB
import NLUText
@testable import NLUSearch

/// Keyword search leaves out the elided words of French, Italian, Catalan and Irish (``NLUText/Elision``) when an
/// apostrophe and a letter follow them, records it in the index, and an index made before keeps them.
@Suite struct ElisionSearchTests {
    @Test func elidedWordsAreNoTermsInFrenchItalianAndCatalan() throws {
        var found: [(String, Range<Int>)] = []
        KeywordTerms.forEachTerm(in: "Qu’il règle l'alarme, l' autre", elision: Elision(language: .french)) { found.append(($0, $1)) }
        // "l' autre": no letter after the apostrophe, so "l" is a term there.
        #expect(found.map { $0.0 } == ["il", "règle", "alarme", "l", "autre"])
        #expect(found.map { $0.1 } == [3..<5, 6..<11, 14..<20, 22..<23, 25..<30])
        // Catalan has no stop words: before, "l" and "d" were terms of their own.
        #expect(try KeywordAnalyzer(language: "ca").terms("l'aigua d'Andorra") == KeywordAnalyzer(language: "ca").terms("aigua Andorra"))
        #expect(try KeywordAnalyzer(language: "it").terms("quest'anno un’ora") == KeywordAnalyzer(language: "it").terms("anno ora"))
        #expect(try KeywordAnalyzer(language: "fr").terms("Jusqu’à l’alarme") == ["alarm"])
        // Irish: "d" and "m" were terms of their own, the apostrophe ending the run.
        #expect(try KeywordAnalyzer(language: "ga").terms("d’fhág m'athair") == KeywordAnalyzer(language: "ga").terms("fhág athair"))
    }

    @Test func englishApostrophesAreUntouched() {
        #expect(KeywordAnalyzer.english.elision == nil)
        #expect(KeywordAnalyzer.terms("don't wake me at 7 o'clock") == ["don", "t", "wake", "me", "at", "7", "o", "clock"])
    }

    @Test func aFrenchQueryFindsTheWordAfterItsArticle() throws {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: nil, keywordAnalyzer: try KeywordAnalyzer(language: "fr"))
        try index.add([try IndexDocument(id: "alarme", text: "Réglez l’alarme à sept heures."),
                       try IndexDocument(id: "lumiere", text: "Allume la lumière du salon."),
                       try IndexDocument(id: "italien", text: "Dell'anno scorso, quest'estate.")])
        let keyword = SearchOptions(k: 3, mode: .keyword)
        #expect(try index.search("alarme", options: keyword).map(\.documentID) == ["alarme"])
        #expect(try index.search("l'alarme", options: keyword).map(\.documentID) == ["alarme"])
        let reopened = try DocumentIndex(at: url)
        #expect(reopened.keywordAnalyzer.elision?.language == .french)
        let recorded = try reopened.database.read { db in
            try String.fetchAll(db, sql: "SELECT value FROM index_info WHERE key = ?", arguments: [KeywordAnalyzer.elisionSettingKey])
        }
        #expect(recorded == [KeywordAnalyzer.elisionSettingValue])
    }

    /// An index made before records no elision: it stores and looks up the elided words as it did (Catalan "l"),
    /// and an unknown value is refused by name.
    @Test func anIndexMadeBeforeKeepsElidedWords() throws {
        let url = try temporaryIndexURL()
        _ = try DocumentIndex.create(at: url, embedder: nil, keywordAnalyzer: try KeywordAnalyzer(language: "ca"))
        let created = try DocumentIndex(at: url)
        try created.database.write { db in
            try db.execute(sql: "DELETE FROM index_info WHERE key = ?", arguments: [KeywordAnalyzer.elisionSettingKey])
        }
        let old = try DocumentIndex(at: url)
        #expect(old.keywordAnalyzer.elision == nil && old.keywordAnalyzer.language == .catalan)
        try old.add([try IndexDocument(id: "aigua", text: "l'aigua")])
        let stored = try old.database.read { db in try String.fetchAll(db, sql: "SELECT keywords FROM chunks") }
        #expect(stored == [try KeywordAnalyzer(language: "ca").strippingElisions(false).analysedText("l'aigua")])
        #expect(stored.first?.hasPrefix("l ") == true)

        try old.database.write { db in
            try db.execute(sql: "INSERT INTO index_info (key, value) VALUES (?, 'some-words')", arguments: [KeywordAnalyzer.elisionSettingKey])
        }
        #expect {
            try DocumentIndex(at: url)
        } throws: { error in
            guard case .notAnIndex(_, let reason)? = error as? SearchError else { return false }
            return reason.contains(KeywordAnalyzer.elisionSettingKey) && reason.contains("some-words")
        }
    }
}
