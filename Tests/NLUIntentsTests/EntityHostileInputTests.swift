import Foundation
import Testing
import NLUCore
import NLUText
@testable import NLUIntents

/// What a dataset or a model file can make the tagger and the classifier do: time linear in what the
/// file holds, and finite confidences from finite (if absurd) weights.
@Suite struct EntityHostileInputTests {
    /// An utterance of `count` words "w", each annotated.
    func annotatedWords(_ count: Int) -> (Utterance, [WordTokenizer.Token]) {
        let text = String(repeating: "w ", count: count)
        let entities = (0..<count).map { EntityAnnotation(start: 2 * $0, end: 2 * $0 + 1, entity: "e") }
        return (Utterance(text, entities: entities), WordTokenizer().tokens(in: text))
    }

    /// Every annotation searched all tokens for those inside it: quadratic in one utterance's mentions,
    /// in training (tags) and in evaluation (mentions trimmed to tokens).
    @Test func tagsOfManyMentionsTakeLinearTime() {
        expectLinearTime("tags", count: 2_000) { n in
            let (utterance, tokens) = annotatedWords(n)
            let tags = SlotTagScheme.tags(for: utterance, tokens: tokens)
            #expect(tags.count == n && tags.allSatisfy { $0 == "B-e" })
        }
        expectLinearTime("evaluation mentions", count: 2_000) { n in
            let (utterance, _) = annotatedWords(n)
            #expect(EntityEvaluation.mentions(of: utterance).map(\.start) == (0..<n).map { 2 * $0 })
        }
    }

    /// The tags still follow the rule: tokens wholly inside, the first annotation of a token wins, an
    /// annotation covering no whole token is skipped.
    @Test func tagsOfOverlappingAndPartialAnnotations() {
        let text = "fly from new york to los angeles"
        let utterance = Utterance(text, entities: [
            EntityAnnotation(start: 9, end: 17, entity: "from"),       // "new york"
            EntityAnnotation(start: 4, end: 12, entity: "overlap"),    // "from new": "new" is taken
            EntityAnnotation(start: 22, end: 24, entity: "partial"),   // "os": no whole token
            EntityAnnotation(start: 20, end: 32, entity: "to"),        // " los angeles"
        ])
        #expect(SlotTagScheme.tags(for: utterance, tokens: WordTokenizer().tokens(in: text))
                == ["O", "O", "B-from", "I-from", "O", "B-to", "I-to"])
    }

    /// A dictionary of n phrases that share their first word, matched in a text where that word comes
    /// n times: every occurrence tried every phrase (n² comparisons).
    @Test func dictionaryOfPhrasesSharingAWordTakesLinearTime() {
        expectLinearTime("gazetteer", count: 500) { n in
            let gazetteer = Gazetteer(["item": (0..<n).map { ("the thing\($0)", "v\($0)") }])
            let tokens = Array(repeating: "the", count: n) + ["the", "thing7", "the"]
            #expect(gazetteer.matches(tokens) == [Gazetteer.Match(entity: "item", tokens: n..<(n + 2), value: "v7")])
        }
    }

    /// The longest phrase wins, a phrase listed twice keeps its first value, entities report apart.
    @Test func dictionaryMatchesLongestPhraseFirstValue() {
        let gazetteer = Gazetteer(["city": [("new york", "NYC"), ("new york city", "NYC2"), ("New York", "other"), ("york", "Y")],
                                   "word": [("new", "N")]])
        let tokens = Gazetteer.normalizedTokens("new york and new york city york")
        #expect(gazetteer.matches(tokens) == [
            .init(entity: "city", tokens: 0..<2, value: "NYC"), .init(entity: "city", tokens: 3..<6, value: "NYC2"),
            .init(entity: "city", tokens: 6..<7, value: "Y"),
            .init(entity: "word", tokens: 0..<1, value: "N"), .init(entity: "word", tokens: 3..<4, value: "N"),
        ])
        #expect(Gazetteer(["e": [("", "x")]]).isEmpty)
    }
}
