import Foundation
import NLUCore
import NLUIntents
import NLUPipelines
@testable import NLUServer
import NLUTestSupport
import Testing

/// The joint intent + slot model (`--tagger transformer`) as a package: saved with its encoder, slot
/// head and CRF layer inside, loaded through NLUPipelines (the one loader every front uses), it gives
/// the intents and entities of the library's ``JointIntentSlotTagger`` after the same seeded run, and
/// its mentions merge with regex entities by the extractor's overlap policy.
@Suite struct JointTaggerPackageTests {
    static let checkpoint = FineTunedIntentPackageTests.checkpoint

    static func annotated(_ text: String, _ mentions: [(String, String)]) -> Utterance {
        Utterance(text, entities: mentions.map { entity, mention in
            let range = text.range(of: mention) ?? text.startIndex..<text.startIndex
            return EntityAnnotation(start: text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound),
                                    end: text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.upperBound), entity: entity)
        })
    }

    static func dataset() -> IntentDataset {
        IntentDataset(intents: [
            Intent(name: "book", utterances: [annotated("book a table in paris", [("city", "paris")]),
                                              annotated("a table for four in rome please", [("city", "rome")]),
                                              annotated("reserve in new york", [("city", "new york")]),
                                              annotated("book me a place in oslo", [("city", "oslo")])]),
            Intent(name: "weather", utterances: [annotated("weather in oslo today", [("city", "oslo"), ("date", "today")]),
                                                 annotated("will it rain tomorrow", [("date", "tomorrow")]),
                                                 annotated("forecast for lima", [("city", "lima")]),
                                                 annotated("is it sunny in rome today", [("city", "rome"), ("date", "today")])]),
        ])
    }

    static func options(crf: Bool) -> JointIntentSlotOptions {
        var options = JointIntentSlotOptions()
        options.crf = crf
        options.training.epochs = 12
        options.training.batchSize = 4
        options.training.learningRate = 1e-2
        options.training.seed = 11
        return options
    }

    static func temporaryPackage() throws -> URL {
        let folder = try TestScratch.folder("joint")
        return folder.appendingPathComponent("joint.nlumodel")
    }

    /// Intent probabilities and entities of the classifier in memory and loaded from its package (F32)
    /// against the library tagger's parse after the same seeded run: the package's encoder runs on the
    /// inference encoder (packed GEMM) instead of the training one, so the probabilities and the
    /// mentions' confidences agree within 1e-4 absolute, and the mentions (entity, start, end) exactly.
    @Test(arguments: [false, true])
    func loadedPackageParsesAsTheLibraryTagger(crf: Bool) throws {
        let dataset = Self.dataset()
        let texts = ["book a table in lima", "Weather in Paris tomorrow", "book THE table in NYC", "reserve in oslo today please", "hello"]
        let reference = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint, options: Self.options(crf: crf)).train(dataset).tagger
        let classifier = try IntentClassifier.fineTuneJoint(on: dataset, checkpoint: Self.checkpoint, options: Self.options(crf: crf))
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        #expect(FileManager.default.fileExists(atPath: url.appendingPathComponent("encoder/model.safetensors").path))
        let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)
        let tagger = try #require(loaded.entityExtractor?.transformerTagger)
        #expect(tagger.tags == reference.tags && (tagger.crf != nil) == crf && loaded.entityExtractor?.tagger == nil)
        #expect(tagger.usesWordShapes && reference.model.usesWordShapes, "the default options read the words' shapes")

        var worst = 0.0
        var mentions = 0
        for text in texts {
            let parse = try reference.parse(text)
            let expected = parse.entities.map { "\($0.entity) \($0.start)..<\($0.end)" }
            for model in [classifier, loaded] {
                let prediction = model.predict(text)
                #expect(prediction.entities.map { "\($0.entity) \($0.start)..<\($0.end)" } == expected, "\(text)")
                #expect(prediction.entities.allSatisfy { $0.extractor == .transformer })
                for (found, wanted) in zip(prediction.entities, parse.entities) { worst = max(worst, abs(found.confidence - wanted.confidence)) }
                let probabilities = model.probabilities(for: text)
                for (name, probability) in parse.intents { worst = max(worst, Double(abs((probabilities[name] ?? -1) - probability))) }
            }
            mentions += expected.count
        }
        #expect(mentions > 0, "the tiny model tagged nothing: the comparison would be empty")
        #expect(worst < 1e-4, "largest difference \(worst)")
        print("joint package (crf \(crf)) vs library tagger: largest probability difference \(worst), \(mentions) mentions")

        // INT8: the same package, quantized at load, answers (its figures are measured by the benchmark).
        let int8 = try IntentClassifier.loadWithSentenceFeatures(from: url, precision: .int8)
        #expect(int8.predict(texts[0]).intent != nil)
    }

    /// A regex entity is added where the transformer tagger found nothing and dropped where it overlaps
    /// a tagged mention (the extractor's one overlap policy), and the package keeps the definitions.
    @Test func regexEntitiesMergeAroundTheTaggersMentions() throws {
        var dataset = Self.dataset()
        dataset.entities = [EntityDefinition(name: "booking_code", values: [EntityValue("code", patterns: ["[A-Z]{2}[0-9]{4}"])])]
        let classifier = try IntentClassifier.fineTuneJoint(on: dataset, checkpoint: Self.checkpoint, options: Self.options(crf: false))
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        let loaded = try IntentClassifier.loadWithSentenceFeatures(from: url)
        let text = "book a table in paris AB1234"
        let tagged = try #require(loaded.entityExtractor?.transformerTagger).entities(in: text)
        let entities = loaded.predict(text).entities
        let regex = entities.filter { $0.extractor == .regex }
        let codeTagged = tagged.contains { $0.end > 22 }
        #expect(regex.map { "\($0.entity) \($0.start)..<\($0.end)" } == (codeTagged ? [] : ["booking_code 22..<28"]), "\(entities)")
        #expect(entities.filter { $0.extractor == .transformer }.count == tagged.count)
    }

    /// `nlu serve` on the package: /model/parse answers with the joint model's intent and entities
    /// (Rasa's extractor name for a transformer tagger, DIETClassifier), as `predict` does.
    @Test func servedPackageParsesWithTheJointModel() async throws {
        let classifier = try IntentClassifier.fineTuneJoint(on: Self.dataset(), checkpoint: Self.checkpoint, options: Self.options(crf: true))
        let url = try Self.temporaryPackage()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        try classifier.save(to: url)
        let text = "weather in paris tomorrow"
        let expected = try IntentClassifier.loadWithSentenceFeatures(from: url).predict(text)
        #expect(!expected.entities.isEmpty)
        try await withTestServer(models: ServedModels.load(intents: url.path, questionAnswering: nil)) { server in
            let response = try await server.request("POST", "/model/parse", json: #"{"text": "\#(text)"}"#)
            #expect(response.status == 200)
            #expect((response.object?["intent"] as? [String: Any])?["name"] as? String == expected.intent)
            let entities = response.object?["entities"] as? [[String: Any]] ?? []
            #expect(entities.map { "\($0["entity"] ?? "") \($0["start"] ?? "")..<\($0["end"] ?? "")" }
                    == expected.entities.map { "\($0.entity) \($0.start)..<\($0.end)" })
            #expect(entities.allSatisfy { $0["extractor"] as? String == "DIETClassifier" }, "\(entities)")
        }
    }
}
