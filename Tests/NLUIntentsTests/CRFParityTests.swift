import Foundation
import Testing
import NLUText
@testable import NLUIntents

/// The slot tagger's CRF against python-crfsuite 0.9.12 (fixture: scripts/fixtures/crf.py): same
/// features from the Python port of the extractor, same weights → same Viterbi paths and marginals;
/// our L-BFGS / OWL-QN training reaches crfsuite's optimum.
@Suite struct CRFParityTests {
    struct Reference: Decodable {
        struct Sentence: Decodable {
            var text: String
            var tokens: [[Int]]
            var features: [[String]]
            var tags: [String]?
            var viterbi: [String]?
            var probability: Double?
            var marginals: [[Double]]?
        }
        struct Model: Decodable {
            var c1: Double
            var c2: Double
            var loss: Double
            var labels: [String]
            var transitions: [[Entry]]
            var stateFeatures: [[Entry]]
        }
        /// A JSON array element that is a string or a number.
        enum Entry: Decodable {
            case text(String), number(Double)
            init(from decoder: Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let text = try? container.decode(String.self) { self = .text(text) } else { self = .number(try container.decode(Double.self)) }
            }
            var text: String { if case let .text(value) = self { return value }; return "" }
            var number: Double { if case let .number(value) = self { return value }; return .nan }
        }
        var gazetteer: [String: [String]]
        var train: [Sentence]
        var models: [String: Model]
        var tests: [Sentence]
    }

    static let entities = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/entities")

    static func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: entities.appendingPathComponent("crf-reference.json")))
    }

    /// crfsuite's dumped model as our CRF (attributes: those with a state feature).
    static func crf(_ model: Reference.Model) throws -> LinearChainCRF {
        let attributes = Array(Set(model.stateFeatures.map { $0[0].text })).sorted()
        let attributeIndex = Dictionary(uniqueKeysWithValues: attributes.enumerated().map { ($1, $0) })
        let labelIndex = Dictionary(uniqueKeysWithValues: model.labels.enumerated().map { ($1, $0) })
        var transitions = [Double](repeating: 0, count: model.labels.count * model.labels.count)
        for entry in model.transitions {
            transitions[labelIndex[entry[0].text]! * model.labels.count + labelIndex[entry[1].text]!] = entry[2].number
        }
        let features = model.stateFeatures.map { (attributeIndex[$0[0].text]!, labelIndex[$0[1].text]!, $0[2].number) }
        return try LinearChainCRF(labels: model.labels, attributes: attributes, stateFeatures: features, transitions: transitions)
    }

    @Test func featureExtractorMatchesPythonPort() throws {
        let reference = try Self.reference()
        let gazetteer = Gazetteer(reference.gazetteer.mapValues { $0.map { ($0, $0) } })
        let extractor = SlotFeatureExtractor(gazetteer: gazetteer)
        for sentence in reference.train + reference.tests {
            let tokens = WordTokenizer().tokens(in: sentence.text)
            #expect(tokens.map { sentence.text.scalarOffsets(of: $0.range) } == sentence.tokens.map { $0[0]..<$0[1] }, "\(sentence.text)")
            let attributes = extractor.attributes(tokens, in: sentence.text)
            for (ours, theirs) in zip(attributes, sentence.features) { #expect(ours == theirs, "\(sentence.text)") }
        }
    }

    @Test func viterbiAndMarginalsMatchCrfsuiteWithItsWeights() throws {
        let reference = try Self.reference()
        let model = try #require(reference.models["l2"])
        let crf = try Self.crf(model)
        for sentence in reference.tests {
            let sequence = crf.attributeIDs(sentence.features)
            let path = crf.viterbi(sequence).labels
            #expect(path.map { crf.labels[$0] } == sentence.viterbi, "\(sentence.text)")
            let lattice = crf.lattice(sequence)
            #expect(abs(lattice.probability(of: path) - sentence.probability!) < 1e-4, "\(sentence.text)")
            for (t, row) in sentence.marginals!.enumerated() {
                for (label, expected) in row.enumerated() {
                    #expect(abs(lattice.marginal(label: label, at: t) - expected) < 1e-4, "\(sentence.text) token \(t) \(crf.labels[label])")
                }
            }
            // A span's probability: one token = its marginal; the whole path = the path's probability.
            #expect(abs(lattice.probability(of: [path[0]], from: 0) - lattice.marginal(label: path[0], at: 0)) < 1e-12)
            #expect(abs(lattice.probability(of: path, from: 0) - lattice.probability(of: path)) < 1e-12)
        }
    }

    @Test(arguments: ["l2", "l1"]) func trainingReachesCrfsuiteOptimum(_ name: String) throws {
        let reference = try Self.reference()
        let model = try #require(reference.models[name])
        let trainer = try CRFTrainer(sequences: reference.train.map { ($0.features, $0.tags!) })
        var options = CRFTrainer.Options()
        options.c1 = model.c1
        options.c2 = model.c2
        options.epsilon = 1e-8
        options.delta = 1e-10
        options.period = 20
        let (ours, loss, _) = trainer.train(options: options)
        // Our objective at crfsuite's weights equals the loss crfsuite reported (same objective) ...
        let theirs = try Self.crf(model)
        let template = trainer.crfTemplate
        var mapped = [Double](repeating: 0, count: template.weights.count)
        for (a, attribute) in template.attributes.enumerated() {
            for k in Int(template.attributeOffsets[a])..<Int(template.attributeOffsets[a + 1]) {
                mapped[k] = theirs.stateWeight(attribute: attribute, label: theirs.labels.firstIndex(of: template.labels[Int(template.featureLabels[k])])!)
            }
        }
        for i in template.labels.indices {
            for j in template.labels.indices {
                mapped[template.stateFeatureCount + i * template.labelCount + j] =
                    theirs.transitionWeight(from: theirs.labels.firstIndex(of: template.labels[i])!, to: theirs.labels.firstIndex(of: template.labels[j])!)
            }
        }
        #expect(abs(trainer.objective(mapped, options: options) - model.loss) < 1e-4 * model.loss)
        // ... and ours is as low (a convex objective: the same optimum).
        #expect(loss <= model.loss * (1 + 1e-5), "ours \(loss), crfsuite \(model.loss)")
        var largest = 0.0
        for (i, w) in ours.weights.enumerated() { largest = max(largest, abs(w - mapped[i])) }
        #expect(largest < 2e-3, "largest weight difference \(largest)")
    }
}
