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

    /// A word under a storm of combining marks: Hebrew points (letters, classes 14 and 10 in turn), or Tibetan
    /// vowel signs whose classes (129, 130) Foundation sorts by insertion. Swift hashes such a word, and Foundation
    /// normalizes it, in time quadratic in the run: 20,000 pairs took seconds in the terms, the dictionaries and
    /// the tagger's attributes, 200,000 minutes.
    @Test(arguments: ["\u{5B4}\u{5B0}", "\u{F71}\u{F72}"])
    func wordsUnderAStormOfMarksTakeLinearTime(pair: String) {
        func text(_ n: Int) -> String { "turn \u{5D0}" + String(repeating: pair, count: n) + " on" }
        let extractor = TermExtractor(options: FeatureOptions())
        expectLinearTime("terms", count: 1_000) { n in
            let terms = extractor.terms(in: text(n))
            #expect(terms.count > 3 && terms[0] == "turn" && terms[2] == "on")
        }
        expectLinearTime("dictionary", count: 1_000) { n in
            // Both kinds of marks are nonspacing: the dictionaries' form drops them.
            #expect(Gazetteer.normalizedTokens(text(n)) == ["turn", "\u{5D0}", "on"])
        }
        let features = SlotFeatureExtractor()
        expectLinearTime("attributes", count: 1_000) { n in
            let sentence = text(n)
            #expect(features.attributes(WordTokenizer().tokens(in: sentence), in: sentence).count == 3)
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

    /// Transition weights above 709 are finite in a model file; exp of them was infinite and every
    /// entity's confidence NaN. Adding a constant to every transition changes no probability (every
    /// path crosses the same number), so the answers must equal those of the weights 990 lower.
    @Test func crfConfidencesStayFiniteWithHugeTransitionWeights() throws {
        func crf(shift: Double) throws -> LinearChainCRF {
            try LinearChainCRF(labels: ["O", "B-x"], attributes: ["a", "b"], stateFeatures: [(0, 1, 0.5), (1, 0, 1.25)],
                               transitions: [1000, 1000.5, 999, 1000.25].map { $0 - shift })
        }
        let sequence: [[Int32]] = [[0], [1], [0, 1], [0]]
        let huge = try crf(shift: 0).lattice(sequence), ordinary = try crf(shift: 990).lattice(sequence)
        for t in 0..<sequence.count {
            for label in 0..<2 {
                let marginal = huge.marginal(label: label, at: t)
                #expect(marginal.isFinite && abs(marginal - ordinary.marginal(label: label, at: t)) < 1e-9)
            }
        }
        let span = huge.probability(of: [1, 0], from: 1)
        #expect(span.isFinite && abs(span - ordinary.probability(of: [1, 0], from: 1)) < 1e-9)
        let path = huge.probability(of: [1, 1, 0, 1])
        #expect(path.isFinite && abs(path - ordinary.probability(of: [1, 1, 0, 1])) < 1e-9)
    }

    /// Intent weights of 1e30 (finite) overflowed Float: logits of ±infinity and ∞ − ∞, so every
    /// probability was NaN (`nlu intents predict` printed `nan%`). Worked by hand in Double: the hidden
    /// layer is [1e30, 1e30]; the logits 2e60, −2e60 and 0 are held to ±Float.greatestFiniteMagnitude,
    /// so the first class takes all.
    @Test func intentProbabilitiesStayFiniteWithHugeWeights() throws {
        let network = try IntentNetwork(
            inputWeight: Tensor(shape: [2, 2], scalars: [1e30, 1e30, 1e30, 1e30]), inputBias: Tensor(shape: [2], scalars: [0, 0]),
            hiddenWeights: [], hiddenBiases: [],
            outputWeight: Tensor(shape: [3, 2], scalars: [1e30, 1e30, -1e30, -1e30, 1e30, -1e30]),
            outputBias: Tensor(shape: [3], scalars: [0, 0, 0]))
        #expect(network.probabilities(for: SparseVector(indices: [0], values: [1])) == [1, 0, 0])
        // Two features of 3e38 overflow the hidden unit's sum (6e38): held at Float's limit, both classes tie.
        let tied = try IntentNetwork(
            inputWeight: Tensor(shape: [2, 1], scalars: [3e38, 3e38]), inputBias: Tensor(shape: [1], scalars: [0]),
            hiddenWeights: [], hiddenBiases: [],
            outputWeight: Tensor(shape: [2, 1], scalars: [1e30, 1e30]), outputBias: Tensor(shape: [2], scalars: [1, 1]))
        #expect(tied.probabilities(for: SparseVector(indices: [0, 1], values: [1, 1])) == [0.5, 0.5])
    }

    /// A runaway regex (`(a+)+$` on a run of "a" that stops short of the end) cost its whole budget on
    /// every training utterance like this (0.5 s each: half an hour on a few thousand) and then matched
    /// nothing; training now refuses it at the first, naming the entity and the pattern.
    @Test func trainingRefusesARunawayPatternNamingIt() throws {
        let run = String(repeating: "a", count: 40) + "!"
        let dataset = IntentDataset(intents: [
            Intent(name: "call", utterances: [Utterance("call bob now", entities: [EntityAnnotation(start: 5, end: 8, entity: "name")])]
                   + (0..<8).map { Utterance("call \($0) \(run)") }),
            Intent(name: "stop", utterances: ["stop it", "halt"]),
        ], entities: [EntityDefinition(name: "code", values: [EntityValue("code", patterns: ["(a+)+$"])])])
        let start = ContinuousClock.now
        #expect {
            _ = try SlotTagger.train(on: dataset)
        } throws: { error in
            guard case let EntityTaggerError.invalidPattern(entity, pattern, reason) = error else { return false }
            return entity == "code" && pattern == "(a+)+$" && reason.contains("took longer than its share of the time budget")
        }
        // Only a hang is caught here (unbounded, `(a+)+$` on 41 letters takes 2^40 steps): the bound leaves
        // room for a busy machine, what the budget itself is worth is pinned by the error above.
        #expect(ContinuousClock.now - start < .seconds(120))
    }

    /// A model trained on benign text whose regex runs away on a crafted utterance at prediction: the
    /// pattern matches nothing there (its entity is missing), and the prediction says so, naming the
    /// entity and the pattern, once however many extractors ran it (as a tagger feature and as an
    /// extractor); an ordinary utterance has no warning, and its JSON no `warnings` key.
    @Test func aPatternRunningOutOfTimeAtPredictionIsReported() throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "call", utterances: [Utterance("call bob now", entities: [EntityAnnotation(start: 5, end: 8, entity: "name")]),
                                              Utterance("call code aaa", entities: [EntityAnnotation(start: 10, end: 13, entity: "code")]),
                                              "call alice", "phone carol"]),
            Intent(name: "stop", utterances: ["stop it", "halt", "stop now"]),
        ], entities: [EntityDefinition(name: "code", values: [EntityValue("code", patterns: ["(a+)+$"])])])
        let classifier = try IntentClassifier.train(on: dataset, training: ClassifierTests.quickOptions(seed: 1))

        let benign = classifier.predict("call code aaaa")
        #expect(benign.warnings.isEmpty)
        #expect(benign.entities.contains { $0.entity == "code" && $0.text == "aaaa" })
        let benignJSON = String(decoding: try JSONEncoder().encode(benign), as: UTF8.self)
        #expect(!benignJSON.contains("warnings"))

        // The tagger's regex features reuse the extractor's search (same patterns): one time budget, not two
        // (searching twice takes 2× one search; the bound leaves room for a loaded machine).
        let runaway = "call code " + String(repeating: "a", count: 40) + "!"
        let tagger = try #require(classifier.entityExtractor?.tagger)
        let matcher = try RegexEntityMatcher(dataset.entities)
        #expect(try #require(tagger.features.patterns).hasSamePatterns(as: matcher))
        // The budget's time is counted (a clock that advances a fixed step at each reading), not measured on a machine
        // that may be loaded: the prediction spends what one search does, where two searches spend twice that.
        let searchClock = SteppingClock(), predictionClock = SteppingClock()
        RegexEntityMatcher.$budgetClock.withValue(searchClock) { _ = matcher.matches(in: runaway, tokens: WordTokenizer().tokens(in: runaway)) }
        var predicted: IntentPrediction?
        RegexEntityMatcher.$budgetClock.withValue(predictionClock) { predicted = classifier.predict(runaway) }
        let oneSearch = searchClock.elapsed, prediction = predictionClock.elapsed
        #expect(oneSearch > .zero && prediction > .zero, "the searches did not read the bound clock")
        #expect(prediction < oneSearch * 1.7, "one search spent \(oneSearch), the prediction \(prediction)")
        let crafted = try #require(predicted)
        #expect(crafted.warnings.count == 1, "\(crafted.warnings)")
        let warning = crafted.warnings.first ?? ""
        #expect(warning.contains("entity 'code'") && warning.contains("pattern '(a+)+$'")
                && warning.contains("matched nothing") && warning.contains("rewrite the pattern"), "\(warning)")
        #expect(!crafted.entities.contains { $0.extractor == .regex })
        let craftedJSON = String(decoding: try JSONEncoder().encode(crafted), as: UTF8.self)
        #expect(craftedJSON.contains("\"warnings\""))
    }

    /// The tagger given the extractor's regex matches tags exactly as when it searches the text itself.
    @Test func sharedRegexMatchesTagAsTheTaggersOwnSearch() throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "ship", utterances: [Utterance("ship to 75001 now", entities: [EntityAnnotation(start: 8, end: 13, entity: "zip")]),
                                              Utterance("send it to 10115", entities: [EntityAnnotation(start: 11, end: 16, entity: "zip")]),
                                              Utterance("deliver to 94103 please", entities: [EntityAnnotation(start: 11, end: 16, entity: "zip")])]),
            Intent(name: "stop", utterances: ["stop it", "halt", "cancel the order"]),
        ], entities: [EntityDefinition(name: "zip", values: [EntityValue("zip", patterns: ["\\b\\d{5}\\b"])])])
        let tagger = try #require(try SlotTagger.train(on: dataset))
        let matcher = try RegexEntityMatcher(dataset.entities)
        for text in ["ship to 75001", "send 10115 and 94103 today", "no code here", "12345"] {
            var timeouts: [RegexEntityMatcher.Timeout] = []
            let matches = matcher.matches(in: text, tokens: WordTokenizer().tokens(in: text), timeouts: &timeouts)
            #expect(tagger.entities(in: text, patternTimeouts: &timeouts, regexMatches: matches) == tagger.entities(in: text), "\(text)")
        }
    }

    /// Every pair of tags has a CRF weight: annotations naming 20,000 entities made 40,001 tags, 1.6·10⁹
    /// transition weights (12.8 GB each time training copies them), and training was killed for memory.
    /// The trainer now refuses before allocating, saying how much it needs (here 307 GB) and what to do.
    @Test func tooManyTagsAreRefusedBeforeAllocating() throws {
        let sequences = (0..<20_000).flatMap { i in [(attributes: [["w"]], labels: ["B-e\(i)"]), (attributes: [["w"]], labels: ["I-e\(i)"])] }
            + [(attributes: [["w"]], labels: ["O"])]
        #expect {
            _ = try CRFTrainer(sequences: sequences)
        } throws: { error in
            guard case let EntityTaggerError.tooManyTags(file, count, needed, _) = error else { return false }
            return file == nil && count == 40_001 && needed == (40_001 * 40_001 * CRFTrainer.weightVectorsInTraining * 8) >> 20
                && "\(error)".contains("use fewer distinct entity names, roles and groups")
        }
        // A few tags are nowhere near the limit.
        #expect(throws: Never.self) { try CRFTrainer.checkMemory(labelCount: 200) }
    }
}
