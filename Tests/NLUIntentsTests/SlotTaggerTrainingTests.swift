import Foundation
import Testing
import NLUText
@testable import NLUIntents

/// How the slot tagger is trained beyond the CRF itself: out-of-fold dictionary features for the
/// annotated mentions, and the pruning of zero weights before the model is stored.
@Suite struct SlotTaggerTrainingTests {
    /// Ten utterances, each naming a city no other utterance names.
    static var uniqueCities: IntentDataset {
        let cities = ["Berlin", "Paris", "Rome", "Oslo", "Madrid", "Lisbon", "Vienna", "Prague", "Dublin", "Athens"]
        let utterances = cities.map { EntityTests.marked("fly to [\($0)](city) tomorrow") }
        return IntentDataset(language: "en", intents: [Intent(name: "fly", utterances: utterances)])
    }

    @Test func trainingFeaturesSeeOnlyOtherFoldsMentionsButPredictionSeesAll() throws {
        // With its own mention in the dictionary, every training city fires "g:city:B": the CRF learns it.
        var allIn = SlotTaggerOptions()
        allIn.gazetteerFolds = 1
        let leaky = try #require(try SlotTagger.train(on: Self.uniqueCities, options: allIn))
        #expect(leaky.crf.attributes.contains("g:city:B"))
        #expect(leaky.crf.stateWeight(attribute: "g:city:B", label: try #require(leaky.crf.labels.firstIndex(of: "B-city"))) > 0)
        // Out of fold, no training utterance sees a city of its own in the dictionary, and no other
        // utterance holds its city: the attribute never fires in training.
        var folded = SlotTaggerOptions()
        folded.gazetteerFolds = 5
        let tagger = try #require(try SlotTagger.train(on: Self.uniqueCities, options: folded))
        #expect(!tagger.crf.attributes.contains("g:city:B"))
        // Prediction's dictionary still holds every training mention.
        #expect(tagger.dictionaryPhrases["city"]?.count == 10)
        #expect(tagger.entities(in: "fly to Tokyo tomorrow").map(\.text) == ["Tokyo"])
    }

    @Test func optionsOfOldModelsReadAsAllMentionsInOneFold() throws {
        let old = try JSONDecoder().decode(SlotTaggerOptions.self, from: Data(#"{"c1":0.1,"c2":0.1,"maxIterations":150,"delta":0.0001}"#.utf8))
        #expect(old.gazetteerFolds == 1)
        #expect(SlotTaggerOptions().gazetteerFolds == 5)
        var bad = SlotTaggerOptions()
        bad.gazetteerFolds = 101
        #expect(throws: EntityTaggerError.self) { try SlotTagger.train(on: Self.uniqueCities, options: bad) }
    }

    @Test func pruningZeroWeightsKeepsEveryPathScoreAndMarginal() throws {
        let dataset = EntityTests.devices
        let extractor = SlotFeatureExtractor()
        let utterances = dataset.intents.flatMap(\.utterances)
        let sequences = utterances.map { utterance in
            let tokens = WordTokenizer().tokens(in: utterance.text)
            return (attributes: extractor.attributes(tokens, in: utterance.text), labels: SlotTagScheme.tags(for: utterance, tokens: tokens))
        }
        var options = CRFTrainer.Options()
        options.c1 = 0.5
        options.maxIterations = 100
        let full = try CRFTrainer(sequences: sequences).train(options: options).crf
        let zeros = (0..<full.stateFeatureCount).filter { full.weights[$0] == 0 }.count
        #expect(zeros > full.stateFeatureCount / 4, "L1 should zero many weights (\(zeros) of \(full.stateFeatureCount))")
        let pruned = full.pruned()
        #expect(pruned.stateFeatureCount == full.stateFeatureCount - zeros)
        #expect(pruned.attributes.count < full.attributes.count)
        for (utterance, sequence) in zip(utterances, sequences) {
            let a = full.attributeIDs(sequence.attributes), b = pruned.attributeIDs(sequence.attributes)
            let path = full.viterbi(a)
            #expect(pruned.viterbi(b).labels == path.labels, "\(utterance.text)")
            #expect(abs(pruned.viterbi(b).score - path.score) < 1e-9)
            let marginalsFull = full.lattice(a), marginalsPruned = pruned.lattice(b)
            for t in 0..<sequence.attributes.count {
                for label in 0..<full.labelCount {
                    #expect(abs(marginalsFull.marginal(label: label, at: t) - marginalsPruned.marginal(label: label, at: t)) < 1e-12)
                }
            }
        }
    }
}
