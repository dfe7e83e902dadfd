import Foundation
import Testing
import GRDB
import NLUText
@testable import NLUSearch

/// Keyword search in Chinese and Japanese: characters and adjacent pairs as terms, recorded in the
/// index; an index made before keeps one term per run for its documents and its queries.
@Suite struct UnspacedScriptSearchTests {
    @Test func termsAreCharactersAndPairsWithScalarRanges() {
        var found: [(String, Range<Int>)] = []
        KeywordTerms.forEachTerm(in: "Go 北京站! 𠮷野", segmentingUnspacedScripts: true) { found.append(($0, $1)) }
        #expect(found.map { $0.0 } == ["go", "北", "北京", "京", "京站", "站", "𠮷", "𠮷野", "野"])
        #expect(found.map { $0.1 } == [0..<2, 3..<4, 3..<5, 4..<5, 4..<6, 5..<6, 8..<9, 8..<10, 9..<10])
        // A voiced sound mark stays on its kana; without segmentation the run is one term, as before.
        #expect(KeywordTerms.terms("か\u{3099}な", segmentingUnspacedScripts: true) == ["か\u{3099}", "か\u{3099}な", "な"])
        #expect(KeywordTerms.terms("北京站") == ["北京站"])
        #expect(KeywordAnalyzer.englishWithoutSegmentation.terms("北京站 trains") == ["北京站", "train"])
        #expect(KeywordAnalyzer.english.terms("北京站 trains") == ["北", "北京", "京", "京站", "站", "train"])
    }

    static let documents = [
        ("weather", "明天北京会下雨吗？请告诉我天气预报。"),
        ("alarm", "请把闹钟设在明天早上七点。"),
        ("music", "播放周杰伦的歌，音量调大一点。"),
        ("japanese", "東京タワーの近くでラーメンを食べたい。"),
    ]

    func makeIndex() throws -> DocumentIndex {
        let index = try DocumentIndex.create(at: try temporaryIndexURL(), embedder: nil)
        try index.add(Self.documents.map { try IndexDocument(id: $0.0, text: $0.1) })
        return index
    }

    /// A query that shares words with one document (but is not any run of it) finds that document first.
    @Test func chineseAndJapaneseQueriesFindTheirDocument() throws {
        let index = try makeIndex()
        let keyword = SearchOptions(k: 4, mode: .keyword)
        #expect(try index.search("北京天气怎么样", options: keyword).first?.documentID == "weather")
        #expect(try index.search("闹钟", options: keyword).first?.documentID == "alarm")
        #expect(try index.search("周杰伦", options: keyword).first?.documentID == "music")
        #expect(try index.search("ラーメン食べたい", options: keyword).first?.documentID == "japanese")
        // One character is a term too.
        #expect(try index.search("雨", options: keyword).first?.documentID == "weather")
        // The hit's offsets are scalar offsets into the document.
        let hit = try #require(try index.search("闹钟", options: keyword).first)
        let text = try #require(try index.documentText(id: "alarm"))
        #expect(String(String.UnicodeScalarView(Array(text.unicodeScalars)[hit.start..<hit.end])) == hit.text)
    }

    /// The segmentation is recorded at creation (English too, which records no language) and read back.
    @Test func theIndexRecordsItsSegmentation() throws {
        let url = try temporaryIndexURL()
        _ = try DocumentIndex.create(at: url, embedder: nil)
        let index = try DocumentIndex(at: url)
        #expect(index.keywordAnalyzer.segmentsUnspacedScripts)
        func setting(_ key: String) throws -> [String] {
            try index.database.read { db in
                try String.fetchAll(db, sql: "SELECT value FROM index_info WHERE key = ?", arguments: [key])
            }
        }
        #expect(try setting(KeywordAnalyzer.segmentationSettingKey) == [KeywordAnalyzer.segmentationSettingValue])
        #expect(try setting(KeywordAnalyzer.settingKey) == [])
        #expect(try KeywordAnalyzer(language: "fr").settings.map { $0.key } == [KeywordAnalyzer.settingKey, KeywordAnalyzer.segmentationSettingKey,
                                                                        KeywordAnalyzer.elisionSettingKey])
    }

    /// An index made before records no segmentation: its stored run terms and its queries stay as they were,
    /// so a query for a whole stored run still finds it; an unknown segmentation is refused by name.
    @Test func anIndexMadeBeforeKeepsRunTerms() throws {
        let url = try temporaryIndexURL()
        _ = try DocumentIndex.create(at: url, embedder: nil)
        let created = try DocumentIndex(at: url)
        try created.database.write { db in
            try db.execute(sql: "DELETE FROM index_info WHERE key = ?", arguments: [KeywordAnalyzer.segmentationSettingKey])
        }
        let old = try DocumentIndex(at: url)
        #expect(!old.keywordAnalyzer.segmentsUnspacedScripts)
        try old.add([try IndexDocument(id: "run", text: "北京站 到了")])
        let stored = try old.database.read { db in try String.fetchAll(db, sql: "SELECT keywords FROM chunks") }
        #expect(stored == ["北京站 到了"])
        #expect(try old.search("北京站", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "run")
        #expect(KeywordAnalyzer.english.settings.map { $0.key } == [KeywordAnalyzer.segmentationSettingKey])

        try old.database.write { db in
            try db.execute(sql: "INSERT INTO index_info (key, value) VALUES (?, 'words-by-dictionary')",
                           arguments: [KeywordAnalyzer.segmentationSettingKey])
        }
        #expect {
            try DocumentIndex(at: url)
        } throws: { error in
            guard case .notAnIndex(_, let reason)? = error as? SearchError else { return false }
            return reason.contains("keyword_unspaced_scripts words-by-dictionary")
        }
    }

    /// A Chinese document is chunked by characters (a document without spaces was one chunk).
    @Test func chineseIsChunkedByCharacters() throws {
        let chunks = Chunker(options: try ChunkingOptions(size: 4, overlap: 1)).chunks(of: "请把闹钟设在明天早上")
        #expect(chunks.map(\.text) == ["请把闹钟", "钟设在明", "明天早上"])
        #expect(chunks.map { $0.start..<$0.end } == [0..<4, 3..<7, 6..<10])
        // Spaced text is chunked as ever.
        #expect(Chunker(options: try ChunkingOptions(size: 3, overlap: 1)).chunks(of: "a b c d e").map(\.text) == ["a b c", "c d e"])
    }
}
