import Foundation
import GRDB
@testable import NLUSearch
import Testing

/// The one keyword analysis both backends store and query (KeywordAnalyzer).
@Suite struct KeywordAnalyzerTests {
    @Test func termsAreLowerCasedFoldedStemmedWithDigitsKept() {
        #expect(KeywordAnalyzer.terms("Cafés connected in 2024, CONNECTIONS!") == ["cafe", "connect", "in", "2024", "connect"])
        #expect(KeywordAnalyzer.terms("The naïve résumé") == ["the", "naiv", "resum"])
        // Written decomposed (e + U+0301) or composed: one term either way.
        #expect(KeywordAnalyzer.terms("cafe\u{301} au lait") == KeywordAnalyzer.terms("café au lait"))
        #expect(KeywordAnalyzer.terms("!!! -- ...").isEmpty)
        // A run longer than any word (a hash, base64) is left out of documents and queries alike.
        let long = String(repeating: "ab", count: 200)
        #expect(KeywordAnalyzer.terms("key \(long) value") == ["key", "valu"])
        #expect(KeywordAnalyzer.analysedText("Invoices are emailed") == "invoic are email")
    }

    /// Diacritics are removed as SQLite's own `unicode61 remove_diacritics 2` tokenizer removes them (the
    /// tokenizer schema 1 used), on real words of ten languages: FTS5 tokenizes them in an in-memory
    /// table and fts5vocab lists its terms; the analyser's folding (before stemming) must give the same.
    @Test func diacriticsAreFoldedAsFTS5RemoveDiacritics2Folds() throws {
        let words = """
            café crème brûlée naïve façade garçon élève où déjà noël français être île hôpital
            über schön Mädchen Straße größer fünf Grüße
            niño señor mañana corazón años está
            coração não português informação
            łódź żółć źródło zażółć gęślą jaźń
            příliš žluťoučký kůň úpěl ďábelské ódy
            Tiếng Việt người được những
            Ångström Øresund æble
            Ελλάδα άνθρωπος καλημέρα ΟΔΟΣ λόγος
            Москва йогурт ёлка
            """
        let queue = try DatabaseQueue()
        let distinct = Array(Set(words.split(whereSeparator: \.isWhitespace).map(String.init))).sorted()
        let reference: [String: String] = try queue.write { db in
            try db.execute(sql: "CREATE VIRTUAL TABLE t USING fts5(w, tokenize='unicode61 remove_diacritics 2')")
            try db.execute(sql: "CREATE VIRTUAL TABLE v USING fts5vocab(t, 'row')")
            var folded: [String: String] = [:]
            for word in distinct {
                try db.execute(sql: "DELETE FROM t")
                try db.execute(sql: "INSERT INTO t (w) VALUES (?)", arguments: [word])
                folded[word] = try String.fetchAll(db, sql: "SELECT term FROM v").joined(separator: " ")
            }
            return folded
        }
        var mismatches: [String] = []
        for word in distinct {
            let ours = KeywordTerms.terms(word).map(KeywordAnalyzer.foldingDiacritics).joined(separator: " ")
            if ours != reference[word] { mismatches.append("\(word): \(ours) ≠ \(reference[word] ?? "-")") }
        }
        #expect(distinct.count >= 59)
        // Zero mismatches tolerated.
        #expect(mismatches.isEmpty, "\(mismatches.count) of \(distinct.count): \(mismatches)")
    }
}
