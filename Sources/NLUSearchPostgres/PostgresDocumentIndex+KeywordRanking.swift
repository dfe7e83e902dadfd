import NLUSearch

extension PostgresDocumentIndex {
    /// The side table BM25 needs besides the GIN index: the number of chunks and their total
    /// length, one row kept current by statement triggers on `chunks` (inserts, deletes, the
    /// cascade of a document's delete), inside the writer's transaction. Averaging the lengths
    /// per query would read every row; each term's document frequency comes from the GIN index.
    static func keywordStatisticsSchema(_ schema: String) -> [String] {
        [
            "CREATE TABLE \(schema).keyword_totals (chunks bigint NOT NULL, tokens bigint NOT NULL)",
            "INSERT INTO \(schema).keyword_totals VALUES (0, 0)",
            """
            CREATE FUNCTION \(schema).keyword_totals_added() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(schema).keyword_totals SET chunks = chunks + s.n, tokens = tokens + s.t
                FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS t FROM added) s;
                RETURN NULL;
            END $$
            """,
            """
            CREATE FUNCTION \(schema).keyword_totals_removed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE \(schema).keyword_totals SET chunks = chunks - s.n, tokens = tokens - s.t
                FROM (SELECT count(*) AS n, coalesce(sum(keyword_length), 0) AS t FROM removed) s;
                RETURN NULL;
            END $$
            """,
            """
            CREATE TRIGGER chunks_added AFTER INSERT ON \(schema).chunks REFERENCING NEW TABLE AS added
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).keyword_totals_added()
            """,
            """
            CREATE TRIGGER chunks_removed AFTER DELETE ON \(schema).chunks REFERENCING OLD TABLE AS removed
            FOR EACH STATEMENT EXECUTE FUNCTION \(schema).keyword_totals_removed()
            """,
        ]
    }

    /// BM25 as SQLite's FTS5 computes it (k1 = 1.2, b = 0.75; idf = ln((N − n + 0.5) / (n + 0.5)),
    /// floored at 1e-6), over the index's English lexemes: a chunk's length is its tokens, N the
    /// chunks, n those holding the term. A term the query holds twice counts twice (`qtf`), as FTS5
    /// scores each of its OR-ed phrases, repeated or not. The query's terms are `$1` (words separated by
    /// spaces) and `$2` (the same OR-ed, a tsquery); `filterSQL` keeps documents `d`; the limit is `$limit`.
    func bm25SQL(filterSQL: String, limit: Int) -> String {
        let configuration = keepsKeywordStatistics ? "'\(schema).nlukit_english'" : "'english'"
        let length = keepsKeywordStatistics ? "c.keyword_length" : "(SELECT coalesce(sum(array_length(u.positions, 1)), 0) FROM unnest(c.keywords) u)"
        let totals = keepsKeywordStatistics
            ? "SELECT chunks::float8 AS n, CASE WHEN chunks > 0 THEN tokens::float8 / chunks ELSE 0 END AS avgdl FROM \(schema).keyword_totals"
            : "SELECT count(*)::float8 AS n, coalesce(avg(\(length)), 0)::float8 AS avgdl FROM \(schema).chunks c"
        // MATERIALIZED: each part once (inlined, the planner re-counted the terms per row).
        return """
            WITH terms AS MATERIALIZED (
                SELECT t.lexeme, array_length(t.positions, 1)::float8 AS qtf,
                    (SELECT count(*) FROM \(schema).chunks c WHERE c.keywords @@ quote_literal(t.lexeme)::tsquery)::float8 AS df
                FROM unnest(to_tsvector(\(configuration), $1)) AS t
            ), totals AS MATERIALIZED (\(totals)),
            matched AS MATERIALIZED (
                SELECT d.id, c.position, c.start, c."end", c.text, c.keywords, \(length)::float8 AS dl
                FROM \(schema).chunks c JOIN \(schema).documents d ON d.number = c.document
                WHERE c.keywords @@ to_tsquery(\(configuration), $2)\(filterSQL)
            )
            SELECT m.id, m.position,
                sum(t.qtf * greatest(ln((s.n - t.df + 0.5) / (t.df + 0.5)), 1e-6) * array_length(u.positions, 1) * 2.2
                    / (array_length(u.positions, 1) + 1.2 * (0.25 + 0.75 * m.dl / greatest(s.avgdl, 1e-9))))::float8 AS score,
                m.start, m."end", m.text
            FROM matched m CROSS JOIN totals s CROSS JOIN LATERAL unnest(m.keywords) u JOIN terms t ON t.lexeme = u.lexeme
            GROUP BY m.id, m.position, m.start, m."end", m.text
            ORDER BY score DESC, m.id COLLATE "C", m.position LIMIT $\(limit)
            """
    }
}
