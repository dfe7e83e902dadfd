import Foundation
import NLUCore
import Testing
@testable import NLUIntents

/// A learning rate that makes the loss non-finite stops training with an error: no model comes out
/// of it (before, 1e30 trained to NaN weights, was saved and predicted "a (-nan%)").
@Suite struct DivergenceTests {
    @Test func aNonFiniteLossIsAnErrorNotAModel() {
        var options = TrainingOptions()
        options.learningRate = 1e30
        options.epochs = 5
        options.hiddenSizes = [16]
        options.validationSplit = 0
        do {
            _ = try IntentClassifier.train(on: MinimumDocumentFrequencyTests.tinyDataset, training: options)
            Issue.record("training with learning rate 1e30 should diverge")
        } catch let error as TrainingDivergedError {
            #expect(!error.loss.isFinite)
            #expect(error.description.contains("nothing was saved: lower the learning rate (now 1e+30)"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }
}
