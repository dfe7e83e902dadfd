import Foundation
import Testing
import NLUText
@testable import NLUIntents

/// The intent featurizer removes the elided words of French, Italian, Catalan and Irish (``NLUText/Elision``): "l'alarme"
/// and "l’alarme" give the terms "alarme" gives; English words with apostrophes stay whole; a model saved before
/// the option existed featurizes as it did.
@Suite struct ElisionFeatureTests {
    static func terms(_ text: String, language: String, strips: Bool? = true) -> [String] {
        var options = FeatureOptions()
        options.language = language
        options.stripsElisions = strips
        return TermExtractor(options: options).terms(in: text)
    }

    @Test func frenchElidedArticleGivesTheTermsOfTheBareWord() {
        let bare = Self.terms("règle alarme", language: "fr")
        #expect(Self.terms("règle l'alarme", language: "fr") == bare)
        #expect(Self.terms("Règle L’alarme", language: "fr") == bare)
        // The stem and the character n-grams are the bare word's, and no n-gram holds the article.
        #expect(bare.contains("alarm") && bare.contains("#ala"))
        #expect(!Self.terms("l’alarme", language: "fr").contains { $0.contains("’") || $0.contains("'") })
    }

    @Test func italianAndCatalanToo() {
        #expect(Self.terms("dell'anno", language: "it") == Self.terms("anno", language: "it"))
        #expect(Self.terms("un’ora", language: "it-IT") == Self.terms("ora", language: "it"))
        #expect(Self.terms("l'aigua", language: "ca") == Self.terms("aigua", language: "ca"))
    }

    /// Irish "d’fhág" gives the terms of "fhág" (whose stem is Snowball's "fág", as for "d'fhág"); a model trained
    /// before Irish was added (its manifest has `stripsElisions` but no `elisionRevision`) keeps the word whole.
    @Test func irishToo() throws {
        #expect(Self.terms("d’fhág sé", language: "ga") == Self.terms("fhág sé", language: "ga"))
        #expect(Self.terms("m'athair", language: "ga") == Self.terms("athair", language: "ga"))
        var options = FeatureOptions()
        options.language = "ga"
        var manifest = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any])
        #expect(manifest["elisionRevision"] as? Int == Elision.revision)
        manifest["elisionRevision"] = nil
        let earlier = try JSONDecoder().decode(FeatureOptions.self, from: JSONSerialization.data(withJSONObject: manifest))
        #expect(earlier.stripsElisions == true && earlier.elisionRevision == nil)
        #expect(TermExtractor(options: earlier).terms(in: "d’fhág").contains("# d’"))
        #expect(TermExtractor(options: earlier).terms(in: "l'alarme") == TermExtractor(options: options).terms(in: "l'alarme"))
    }

    /// A revision from a file is range-checked: one this NLUKit does not know is refused, naming the field.
    @Test func anUnknownRevisionIsRefused() {
        var options = FeatureOptions()
        options.elisionRevision = Elision.revision + 1
        #expect(throws: (any Error).self) { try options.validate(file: "manifest.json") }
        options.elisionRevision = 0
        #expect(throws: (any Error).self) { try options.validate(file: "manifest.json") }
    }

    @Test func englishApostrophesAreUntouched() {
        let terms = Self.terms("don't wake me at 7 o'clock", language: "en")
        #expect(terms.contains("don't") && terms.contains("o'clock"))
        #expect(terms.contains("# do") && terms.contains("#n't "))
    }

    /// A French model saved before the option (its manifest has no `stripsElisions`) keeps "l'alarme" whole.
    @Test func aModelSavedBeforeKeepsElidedWords() throws {
        var options = FeatureOptions()
        options.language = "fr"
        var manifest = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(options)) as? [String: Any])
        #expect(manifest["stripsElisions"] as? Bool == true)
        manifest["stripsElisions"] = nil
        let earlier = try JSONDecoder().decode(FeatureOptions.self, from: JSONSerialization.data(withJSONObject: manifest))
        #expect(earlier.stripsElisions == nil)
        let terms = TermExtractor(options: earlier).terms(in: "l’alarme")
        #expect(terms.contains("l’alarm") && terms.contains("# l’"))
    }
}
