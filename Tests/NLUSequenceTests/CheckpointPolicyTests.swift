import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUSequence

/// Retraining over an existing model keeps that model until the last epoch is done: epochs are
/// checkpointed to NAME.partial, which is removed once the new model is in place.
@Suite struct CheckpointPolicyTests {
    static let corpus = "the cat sat on the mat\nthe dog sat on the log\na cat and a dog\n"

    func options(epochs: Int, seed: UInt64) -> LanguageModelTrainingOptions {
        LanguageModelTrainingOptions(cell: .lstm, level: .word, layers: 1, hiddenSize: 8, embeddingSize: 4, epochs: epochs,
                                     sequenceLength: 4, batchSize: 2, learningRate: 0.01, dropout: 0, seed: seed)
    }

    @Test func anExistingModelIsReplacedOnlyAtTheEnd() throws {
        let directory = try TestScratch.folder("nlukit-checkpoint")
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("m.nlumodel")
        _ = try LanguageModelTrainer(options: options(epochs: 1, seed: 1)).train(texts: [Self.corpus], checkpoint: url)
        let original = try Data(contentsOf: url.appendingPathComponent("weights.safetensors"))
        let partial = LanguageModelTrainer.partialCheckpointURL(for: url)
        var savedTo: [String] = []
        var unchangedDuringTraining = true
        _ = try LanguageModelTrainer(options: options(epochs: 3, seed: 2)).train(texts: [Self.corpus], checkpoint: url) { event in
            guard case .checkpointSaved(let saved) = event else { return }
            savedTo.append(saved.lastPathComponent)
            if saved == partial {
                unchangedDuringTraining = unchangedDuringTraining
                    && (try? Data(contentsOf: url.appendingPathComponent("weights.safetensors"))) == original
            }
        }
        #expect(savedTo == ["m.nlumodel.partial", "m.nlumodel.partial", "m.nlumodel.partial", "m.nlumodel"])
        #expect(unchangedDuringTraining, "the old model stayed until the last epoch")
        #expect(try Data(contentsOf: url.appendingPathComponent("weights.safetensors")) != original)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["m.nlumodel"])
        let model = try LanguageModel(contentsOf: url)
        #expect(model.metadata[LanguageModelTrainer.MetadataKey.epochsCompleted] == "3")
    }

    @Test func aDivergingRunSavesNothing() throws {
        let directory = try TestScratch.folder("nlukit-diverge")
        defer { try? FileManager.default.removeItem(at: directory) }
        var options = options(epochs: 2, seed: 1)
        options.learningRate = 1e38  // weights of 1e38 overflow to inf - inf = NaN in the first epoch
        options.clipNorm = 1e30
        let url = directory.appendingPathComponent("m.nlumodel")
        #expect(throws: TrainingDivergedError.self) {
            try LanguageModelTrainer(options: options).train(texts: [Self.corpus], checkpoint: url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }
}
