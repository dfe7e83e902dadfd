import Testing
import NLUText

/// Elided words before an apostrophe (Lucene's `ElisionFilter` semantics): removed in French, Italian, Catalan and
/// Irish only, before `'` and `’` alike, in any case, when a word follows; the remainder is a slice of the original text.
@Suite struct ElisionTests {
    @Test func frenchArticlesAndConjunctionsAreRemovedBeforeEitherApostrophe() throws {
        let french = try #require(Elision(language: .french))
        #expect(french.remainder(of: "l'alarme") == "alarme")
        #expect(french.remainder(of: "L’alarme") == "alarme")
        #expect(french.remainder(of: "qu'il") == "il")
        #expect(french.remainder(of: "Jusqu’à") == "à")
        #expect(french.remainder(of: "d'accord") == "accord")
        // Not an elided word before the apostrophe, or nothing after it: the word stays whole.
        #expect(french.remainder(of: "aujourd'hui") == "aujourd'hui")
        #expect(french.remainder(of: "l'") == "l'")
        #expect(french.remainder(of: "alarme") == "alarme")
        // Only the first apostrophe counts, as in Lucene.
        #expect(french.remainder(of: "d'aujourd'hui") == "aujourd'hui")
    }

    @Test func italianAndCatalanHaveTheirOwnLists() throws {
        let italian = try #require(Elision(language: .italian))
        #expect(italian.remainder(of: "dell'anno") == "anno")
        #expect(italian.remainder(of: "un’ora") == "ora")
        #expect(italian.remainder(of: "quest'anno") == "anno")
        // "qu'" is French, not Italian.
        #expect(italian.remainder(of: "qu'il") == "qu'il")
        let catalan = try #require(Elision(language: .catalan))
        #expect(catalan.remainder(of: "l'aigua") == "aigua")
        #expect(catalan.remainder(of: "dell'anno") == "dell'anno")
    }

    /// Irish "do" before a verb or a vowel, "mo" and "ba" (Lucene's Irish articles): the remainder stems as Snowball
    /// stems the whole word written with `'`, now with `’` too.
    @Test func irishParticlesAndPossessivesAreRemoved() throws {
        let irish = try #require(Elision(language: .irish))
        #expect(irish.remainder(of: "d'fhág") == "fhág")
        #expect(irish.remainder(of: "D’fhág") == "fhág")
        #expect(irish.remainder(of: "m'athair") == "athair")
        #expect(irish.remainder(of: "b'fhéidir") == "fhéidir")
        // "l'" is French, not Irish; a hyphenated prefix is no elision.
        #expect(irish.remainder(of: "l'athair") == "l'athair")
        #expect(irish.remainder(of: "t-athair") == "t-athair")
        let stemmer = try Stemmer(.irish)
        #expect(stemmer.stem(String(irish.remainder(of: "d’fhág"))) == stemmer.stem("d'fhág"))
        #expect(stemmer.stem("d'fhág") == "fág")
    }

    /// Revision 1 of the lists (what models trained before Irish was added ask for) has no Irish.
    @Test func anEarlierRevisionHasTheListsItHad() {
        #expect(Elision(language: .irish, revision: 1) == nil)
        #expect(Elision(language: .french, revision: 1)?.remainder(of: "l'alarme") == "alarme")
        #expect(Elision(language: .irish, revision: Elision.revision) != nil)
    }

    @Test func otherLanguagesElideNothing() {
        #expect(Elision(language: .english) == nil)
        #expect(Elision(language: .german) == nil)
        #expect(Elision(language: .spanish) == nil)
    }

    /// The remainder's range is exact: its scalar offsets count the text the word was cut from.
    @Test func theRemainderKeepsItsRangeInTheText() throws {
        let text = "Réglez l’alarme"
        let word = try #require(WordTokenizer().tokens(in: text).last)
        #expect(word.text == "l’alarme")
        let remainder = try #require(Elision(language: .french)).remainder(of: word.text)
        #expect(text.scalarOffsets(of: [remainder.startIndex..<remainder.endIndex]) == [9..<15])
    }
}
