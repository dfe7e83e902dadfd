import Foundation
import NLUSearch
@testable import NLUSearchPostgres
import NLUTestSupport
import Testing

/// French keyword search ranks the same on both backends: both store and look up the terms of
/// ``KeywordAnalyzer`` in French (Snowball stems, French stop words left out), and the PostgreSQL index
/// records its language (`keyword_language`) and its removal of elided words (`keyword_elision`) and reads them
/// back when reopened.
@Suite(.serialized, .enabled(if: postgresTestServerURL != nil,
                             "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct PostgresKeywordLanguageTests {
    static let documents = [
        ("reserver", "Je voudrais réserver une table pour deux personnes ce soir."),
        ("annuler", "Comment annuler la réservation faite hier ?"),
        ("horaires", "Quels sont les horaires d'ouverture du restaurant le dimanche ?"),
        ("livraison", "La livraison à domicile est gratuite à partir de trente euros."),
        ("menu", "Le menu du jour change chaque semaine selon les saisons."),
        ("english", "Booking a table for two tonight."),
        ("alarme", "Réglez l’alarme à sept heures, jusqu'à demain."),
    ]

    @Test func frenchRankingsAreIdenticalOnBothBackendsAndTheLanguageIsRecorded() throws {
        let directory = try TestScratch.folder("nlukit-pg-fr")
        defer { try? FileManager.default.removeItem(at: directory) }
        let french = try KeywordAnalyzer(language: "fr")
        let url = PostgresIndexTests.url("fr")
        let postgres = try PostgresDocumentIndex.create(url: url, embedder: nil, keywordAnalyzer: french)
        let sqlitePath = directory.appendingPathComponent("index.db")
        let sqlite = try DocumentIndex.create(at: sqlitePath, embedder: nil, keywordAnalyzer: french)
        let recorded = try postgres.session.query("SELECT value FROM \(postgres.schema).index_info WHERE key = $1",
                                                  [.init(string: KeywordAnalyzer.settingKey)]).map { try $0.decode(String.self) }
        #expect(recorded == ["french"])
        let elision = try postgres.session.query("SELECT value FROM \(postgres.schema).index_info WHERE key = $1",
                                                 [.init(string: KeywordAnalyzer.elisionSettingKey)]).map { try $0.decode(String.self) }
        #expect(elision == [KeywordAnalyzer.elisionSettingValue])
        let documents = try Self.documents.map { try IndexDocument(id: $0.0, text: $0.1) }
        for index in [postgres, sqlite] as [any SearchableIndex] { try index.add(documents, progress: nil) }
        let options = SearchOptions(k: 5, mode: .keyword)
        let queries = ["réservations", "annulation de ma réservation", "horaire d'ouverture", "livrer à domicile", "semaines", "table", "alarme", "l'alarme", "jusqu’à demain"]
        for query in queries {
            let fromPostgres = try postgres.search(query, options: options)
            #expect(!fromPostgres.isEmpty, "\(query)")
            #expect(try sqlite.search(query, embedding: nil, options: options) == fromPostgres, "\(query)")
        }
        // Stems meet: "réservations" finds "réserver" and "réservation" (réserv), never the English "Booking".
        let found = try postgres.search("réservations", options: options).map(\.documentID)
        #expect(Set(found) == ["reserver", "annuler"], "\(found)")
        // Elided articles are no terms: "alarme" finds "l’alarme".
        #expect(try postgres.search("alarme", options: options).map(\.documentID) == ["alarme"])
        // Reopened, both read French back and rank as before.
        let reopened = try PostgresDocumentIndex(url: url, embedder: nil)
        let sqliteReopened = try DocumentIndex(at: sqlitePath, embedder: nil)
        #expect(reopened.keywordAnalyzer.language == .french && sqliteReopened.keywordAnalyzer.language == .french)
        #expect(reopened.keywordAnalyzer.elision != nil && sqliteReopened.keywordAnalyzer.elision != nil)
        for query in queries {
            #expect(try reopened.search(query, options: options) == postgres.search(query, options: options), "\(query)")
            #expect(try sqliteReopened.search(query, embedding: nil, options: options) == reopened.search(query, options: options), "\(query)")
        }
    }
}
