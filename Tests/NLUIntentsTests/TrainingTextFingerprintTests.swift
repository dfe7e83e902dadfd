import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// The fingerprint of the training texts: stable hashes (FNV-1a of the normalized text), a base64 form that
/// survives the manifest, and a count that ignores case and spacing.
@Suite struct TrainingTextFingerprintTests {
    @Test func countsTextsIgnoringCaseAndSpacing() {
        let fingerprint = TrainingTextFingerprint(["Turn the radio on", "play some jazz"])
        #expect(fingerprint.count(of: ["turn  the RADIO on ", "play some jazz", "play some blues"]) == 2)
        #expect(fingerprint.count(of: ["turntheradioon"]) == 0)
    }

    @Test func hashIsFNV1aOfTheNormalizedUTF8() {
        // FNV-1a 32 of "a b" computed by hand: offset basis 2166136261, prime 16777619.
        var expected: UInt32 = 2_166_136_261
        for byte in "a b".utf8 { expected = (expected ^ UInt32(byte)) &* 16_777_619 }
        #expect(TrainingTextFingerprint.hash("  A \t B ") == expected)
    }

    @Test func encodedFormRoundTripsAndDamageIsRefused() throws {
        let fingerprint = TrainingTextFingerprint(["one", "two", "three"])
        let decoded = try #require(TrainingTextFingerprint(encoded: fingerprint.encoded))
        #expect(decoded == fingerprint)
        #expect(Data(base64Encoded: fingerprint.encoded)?.count == 12)
        #expect(TrainingTextFingerprint(encoded: "not base64!") == nil)
        #expect(TrainingTextFingerprint(encoded: Data([1, 2, 3]).base64EncodedString()) == nil)  // not whole hashes
    }

    @Test func aTrainedModelKeepsItsTextsThroughSaveAndLoad() throws {
        let dataset = IntentDataset(intents: [
            Intent(name: "greet", utterances: ["hello there", "hi", "good morning"]),
            Intent(name: "bye", utterances: ["goodbye", "see you later", "bye now"]),
        ])
        var training = TrainingOptions()
        training.epochs = 2
        let classifier = try IntentClassifier.train(on: dataset, training: training, entities: nil)
        #expect(classifier.trainingTexts?.count(of: ["Hello there", "farewell"]) == 1)
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try classifier.save(to: folder.appendingPathComponent("m.nlumodel"))
        let loaded = try IntentClassifier.load(from: folder.appendingPathComponent("m.nlumodel"))
        #expect(loaded.trainingTexts == classifier.trainingTexts)
    }
}
