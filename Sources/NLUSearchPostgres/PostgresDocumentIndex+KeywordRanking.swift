import NLUSearch

extension PostgresDocumentIndex {
    /// The keyword columns of `chunks` (schema version 3): the chunk's terms as ``KeywordAnalyzer``
    /// gives them — the analysis the SQLite backend stores — and their number, BM25's document length.
    static let keywordColumns = [
        "terms text[] NOT NULL DEFAULT '{}'",
        "keyword_length integer GENERATED ALWAYS AS (cardinality(terms)) STORED",
    ]

    /// The GIN index over the terms (each term's document frequency, the chunks holding any query
    /// term) and the side table BM25 needs besides: the number of chunks and their total length, one
    /// row kept current by statement triggers on `chunks` (inserts, deletes, the cascade of a
    /// document's delete), inside the writer's transaction. Averaging the lengths per query would
    /// read every row. The totals start from the chunks already there (an upgraded index).
    static func keywordStatisticsSchema(_ schema: String) -> [String] {
        [
            "CREATE INDEX chunks_terms ON \(schema).chunks USING gin (terms)",
            "CREATE TABLE \(schema).keyword_totals (chunks bigint NOT NULL, tokens bigint NOT NULL)",
            "INSERT INTO \(schema).keyword_totals SELECT count(*), coalesce(sum(keyword_length), 0) FROM \(schema).chunks",
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

    /// BM25 exactly as SQLite's FTS5 bm25() computes it, operation for operation in double precision,
    /// so that both backends give the same scores to the last bit: k1 = 1.2, b = 0.75,
    /// idf = ln((N − n + 0.5) / (n + 0.5)) (1e-6 when not positive), each query term's part
    /// idf · (tf · (k1 + 1)) / (tf + k1 · (1 − b + b · dl / avgdl)), added in the query's order, each
    /// distinct term once (``KeywordQuery``, as the SQLite backend's FTS5 query has it). N is the chunks,
    /// n those holding the term, dl a chunk's number of terms, avgdl the total over N.
    ///
    /// `$1` is the query's distinct analysed terms (text[], in the order first written); `filterSQL` keeps documents `d`;
    /// the limit is `$limit`.
    func bm25SQL(filterSQL: String, limit: Int) -> String {
        // MATERIALIZED: each part once (inlined, the planner re-counted the terms per row).
        """
        WITH query AS MATERIALIZED (
            SELECT q.term, q.ord FROM unnest($1::text[]) WITH ORDINALITY AS q(term, ord)
        ), totals AS MATERIALIZED (
            SELECT chunks::float8 AS n, CASE WHEN chunks > 0 THEN tokens::float8 / chunks::float8 ELSE 0 END AS avgdl
            FROM \(schema).keyword_totals
        ), idf AS MATERIALIZED (
            SELECT t.term, CASE WHEN t.v > 0 THEN t.v ELSE 1e-6::float8 END AS idf
            FROM (SELECT u.term, ln((s.n - u.df + 0.5::float8) / (u.df + 0.5::float8)) AS v
                  FROM (SELECT DISTINCT q.term,
                            (SELECT count(*) FROM \(schema).chunks c WHERE c.terms @> ARRAY[q.term])::float8 AS df
                        FROM query q) u CROSS JOIN totals s) t
        ), matched AS MATERIALIZED (
            SELECT d.id, c.position, c.start, c."end", c.text, c.terms, c.keyword_length::float8 AS dl
            FROM \(schema).chunks c JOIN \(schema).documents d ON d.number = c.document
            WHERE c.terms && $1::text[]\(filterSQL)
        )
        SELECT m.id, m.position,
            sum(i.idf * ((f.tf * (1.2::float8 + 1.0::float8))
                / (f.tf + 1.2::float8 * (1::float8 - 0.75::float8 + 0.75::float8 * m.dl / s.avgdl))) ORDER BY q.ord) AS score,
            m.start, m."end", m.text
        FROM matched m CROSS JOIN totals s
        CROSS JOIN LATERAL (SELECT x AS term, count(*)::float8 AS tf FROM unnest(m.terms) x WHERE x = ANY($1::text[]) GROUP BY x) f
        JOIN idf i ON i.term = f.term JOIN query q ON q.term = f.term
        GROUP BY m.id, m.position, m.start, m."end", m.text
        ORDER BY score DESC, m.id COLLATE "C", m.position LIMIT $\(limit)
        """
    }
}
