import Foundation
import NLUSearch
@testable import NLUSearchPostgres
import NLUTestSupport
import Testing

/// Chinese and Japanese keyword search ranks the same on both backends: both store and look up the
/// characters and character pairs of ``KeywordAnalyzer``, and record that they do.
@Suite(.serialized, .enabled(if: postgresTestServerURL != nil,
                             "NLUKIT_TEST_POSTGRES_URL is not set: no PostgreSQL server with pgvector to test against (scripts/postgres-test-server.sh starts one)"))
struct PostgresUnspacedScriptTests {
    static let documents = [
        ("weather", "明天北京会下雨吗？请告诉我天气预报。"),
        ("weather-2", "上海今天的天气怎么样？会不会下雨。"),
        ("alarm", "请把闹钟设在明天早上七点。"),
        ("music", "播放周杰伦的歌，音量调大一点。"),
        ("japanese", "東京タワーの近くでラーメンを食べたい。"),
        ("japanese-2", "明日の東京の天気を教えてください。"),
        ("english", "Will it rain in Beijing tomorrow?"),
    ]

    @Test func chineseAndJapaneseRankingsAreIdenticalOnBothBackends() throws {
        let directory = try TestScratch.folder("nlukit-pg-cjk")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = PostgresIndexTests.url("cjk")
        let postgres = try PostgresDocumentIndex.create(url: url, embedder: nil)
        let sqlite = try DocumentIndex.create(at: directory.appendingPathComponent("index.db"), embedder: nil)
        #expect(postgres.keywordAnalyzer.segmentsUnspacedScripts && sqlite.keywordAnalyzer.segmentsUnspacedScripts)
        let documents = try Self.documents.map { try IndexDocument(id: $0.0, text: $0.1) }
        for index in [postgres, sqlite] as [any SearchableIndex] { try index.add(documents, progress: nil) }
        let options = SearchOptions(k: 5, mode: .keyword)
        for query in ["北京天气怎么样", "明天会下雨吗", "闹钟", "東京の天気", "ラーメン", "雨", "rain Beijing 北京"] {
            let fromPostgres = try postgres.search(query, options: options)
            #expect(!fromPostgres.isEmpty, "\(query)")
            #expect(try sqlite.search(query, embedding: nil, options: options) == fromPostgres, "\(query)")
        }
        // "北京会下雨" shares 北京 and 会下 with the first weather question only; "天气怎么样" is all the second's.
        #expect(try postgres.search("北京会下雨", options: options).first?.documentID == "weather")
        #expect(try postgres.search("天气怎么样", options: options).first?.documentID == "weather-2")
        #expect(try postgres.search("東京の天気", options: options).first?.documentID == "japanese-2")
        // Reopened, the index reads its recorded segmentation back.
        let reopened = try PostgresDocumentIndex(url: url, embedder: nil)
        #expect(reopened.keywordAnalyzer.segmentsUnspacedScripts)
    }
}
