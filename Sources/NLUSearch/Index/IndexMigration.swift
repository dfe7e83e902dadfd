import GRDB

/// Brings an index file written by an older version of NLUKit to ``IndexSchema/version``, inside the
/// caller's write transaction: the first `add` or `delete` on an old file upgrades it, and the upgrade
/// commits with that write or not at all. A process killed during it leaves the old file as it was
/// (SQLite rolls the transaction back), still readable.
///
/// Version 1 → 2: the chunk texts are analysed again (``KeywordAnalyzer``) into the new column
/// `chunks.keywords` and the FTS5 table is rebuilt over it; documents, chunks and vectors stay as they are.
enum IndexMigration {
    /// Upgrades the file if it is older; returns the number of chunks re-analysed (0 when it was current).
    /// `progress(done, total)` is called before the first chunk and after the last.
    @discardableResult
    static func upgrade(_ db: Database, progress: ((Int, Int) -> Void)? = nil) throws -> Int {
        let found = try Int.fetchOne(db, sql: "PRAGMA user_version") ?? 0
        guard found < IndexSchema.version else { return 0 }
        // Read while the old FTS triggers still exist, then rewrite: every chunk once.
        let chunks = try Row.fetchAll(db, sql: "SELECT number, text FROM chunks ORDER BY number")
        progress?(0, chunks.count)
        try db.execute(sql: "DROP TRIGGER IF EXISTS chunks_fts_insert")
        try db.execute(sql: "DROP TRIGGER IF EXISTS chunks_fts_delete")
        try db.execute(sql: "DROP TABLE IF EXISTS chunks_fts")
        try db.execute(sql: "ALTER TABLE chunks ADD COLUMN keywords TEXT NOT NULL DEFAULT ''")
        let update = try db.makeStatement(sql: "UPDATE chunks SET keywords = ? WHERE number = ?")
        for row in chunks {
            let number: Int64 = try row.decode(atIndex: 0)
            let text: String = try row.decode(atIndex: 1)
            // A version 1 file records no segmentation of unspaced scripts: its terms stay one per run.
            try update.execute(arguments: [KeywordAnalyzer.englishWithoutSegmentation.analysedText(text), number])
        }
        for statement in IndexSchema.keywordStatements { try db.execute(sql: statement) }
        try db.execute(sql: "INSERT INTO chunks_fts(chunks_fts) VALUES ('rebuild')")
        try db.execute(sql: "PRAGMA user_version = \(IndexSchema.version)")
        progress?(chunks.count, chunks.count)
        return chunks.count
    }
}
