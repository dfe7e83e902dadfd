import NLUSearch
import PostgresNIO

extension PostgresDocumentIndex {
    /// Chunks re-analysed per UPDATE statement during an upgrade.
    static let upgradeBatch = 2000

    /// Upgrades an index of schema version 1 or 2 (keywords as a `tsvector` of PostgreSQL's English
    /// analysis) to ``latestSchemaVersion`` (the chunks' ``KeywordAnalyzer`` terms, as the SQLite
    /// backend stores them), in one transaction: the chunk texts are analysed again here, documents,
    /// chunks and vectors stay. A process killed during it leaves the old index (the server rolls the
    /// transaction back); a second process upgrading at the same time waits for the first, then finds
    /// the index current. Returns the version the index now has.
    static func upgradeIfOlder(_ session: PostgresSession, schema: String) throws -> Int {
        try session.transaction {
            // The row lock makes concurrent upgrades take turns; the version is read again under it.
            let text = try session.query("SELECT value FROM \(schema).index_info WHERE key = 'schema_version' FOR UPDATE")
                .first?.decode(String.self)
            let current = text.flatMap { Int($0) } ?? 0
            guard current < latestSchemaVersion else { return current }
            let statements = [
                "DROP TRIGGER IF EXISTS chunks_added ON \(schema).chunks",
                "DROP TRIGGER IF EXISTS chunks_removed ON \(schema).chunks",
                "DROP FUNCTION IF EXISTS \(schema).keyword_totals_added()",
                "DROP FUNCTION IF EXISTS \(schema).keyword_totals_removed()",
                "DROP TABLE IF EXISTS \(schema).keyword_totals",
                // Drops the GIN index on keywords with it.
                "ALTER TABLE \(schema).chunks DROP COLUMN IF EXISTS keyword_length, DROP COLUMN IF EXISTS keywords",
                "DROP FUNCTION IF EXISTS \(schema).token_count(tsvector)",
                "DROP TEXT SEARCH CONFIGURATION IF EXISTS \(schema).nlukit_english",
                "DROP TEXT SEARCH DICTIONARY IF EXISTS \(schema).english_all_words",
                "ALTER TABLE \(schema).chunks ADD COLUMN \(keywordColumns[0])",
            ]
            for statement in statements { try session.query(statement) }
            var chunks: [(Int64, String)] = []
            for row in try session.query("SELECT number, text FROM \(schema).chunks ORDER BY number") {
                chunks.append(try row.decode((Int64, String).self))
            }
            for start in stride(from: 0, to: chunks.count, by: upgradeBatch) {
                let batch = chunks[start..<min(start + upgradeBatch, chunks.count)]
                try session.query("""
                    UPDATE \(schema).chunks c SET terms = string_to_array(v.keywords, ' ')
                    FROM unnest($1::bigint[], $2::text[]) AS v(number, keywords) WHERE c.number = v.number
                    """, [PostgresData(array: batch.map { PostgresData(int64: $0.0) }, elementType: .int8),
                          PostgresData(array: batch.map { PostgresData(string: KeywordAnalyzer.englishWithoutSegmentation.analysedText($0.1)) }, elementType: .text)])
            }
            try session.query("ALTER TABLE \(schema).chunks ADD COLUMN \(keywordColumns[1])")
            for statement in keywordStatisticsSchema(schema) { try session.query(statement) }
            try session.query("UPDATE \(schema).index_info SET value = $1 WHERE key = 'schema_version'",
                              [PostgresData(string: String(latestSchemaVersion))])
            return latestSchemaVersion
        }
    }
}
