import Foundation
import NLUCore
import Testing
@testable import NLUCoreML

/// The three models the seeds' users have, as coremltools writes them.
@Suite struct SeedModelTests {
    @Test func denseClassifierReturnsLabelAndProbabilities() throws {
        try CoreMLFixtures.check("dense_classifier", tolerance: 1e-4)
        let model = try CoreMLFixtures.model("dense_classifier")
        #expect(model.modelType == "neuralNetworkClassifier")
        #expect(model.modelDescription.inputs.map(\.name) == ["embeddings"])
        #expect(Set(model.modelDescription.outputs.map(\.name)) == ["entities", "label"])
        #expect(model.modelDescription.metadata["author"] == "NLUKit fixtures")
        #expect(model.modelDescription.metadata["vocabulary"] == "bag-of-words-8")
    }

    @Test func languageModelStepsTokenByTokenCarryingState() throws {
        // Each case is one step; from the second step on, its stateIn/cellStateIn are the previous step's outputs,
        // and the first step leaves them out (zeros).
        try CoreMLFixtures.check("lstm_language_model", tolerance: 1e-4)
        let model = try CoreMLFixtures.model("lstm_language_model")
        let optional = model.modelDescription.inputs.filter(\.isOptional).map(\.name)
        #expect(optional == ["stateIn", "cellStateIn"])

        // Carrying our own stateOut back in gives the same steps as the fixture's NumPy state.
        var state: [String: FeatureValue] = [:]
        for (index, fixture) in try CoreMLFixtures.cases("lstm_language_model").enumerated() {
            var input = try FeatureJSON.provider(from: fixture.inputs, for: model.modelDescription)
            input["stateIn"] = state["stateOut"]
            input["cellStateIn"] = state["cellStateOut"]
            let output = try model.prediction(from: input)
            for name in ["stateOut", "cellStateOut"] { state[name] = output.featureValue(for: name) }
            CoreMLFixtures.compare(try #require(output.featureValue(for: "stateOut")), fixture.outputs["stateOut"] as Any,
                                   tolerance: 1e-4, context: "step \(index)", sourceLocation: #_sourceLocation)
            #expect(output.featureValue(for: "nextWord")?.stringValue == fixture.outputs["nextWord"] as? String)
        }
    }

    @Test func bertQAGivesStartAndEndLogits() throws {
        try CoreMLFixtures.check("bert_qa", tolerance: 1e-4)
        let model = try CoreMLFixtures.model("bert_qa")
        #expect(model.modelDescription.inputs.map(\.type) == [.tensor(.int32, shape: [1, 12]), .tensor(.int32, shape: [1, 12])])
        #expect(model.layerCounts["batchedMatmul"] == 17)
        #expect(model.layerCounts["layerNormalization"] == 5)
    }

    @Test func bertFromThePyTorchConverterMatchesPyTorch() throws {
        // Written by coremltools' own PyTorch converter (scripts/fixtures/coreml_converted_bert.py): LayerNorm as
        // mvn + scale, rank-3 innerProducts, reshapeStatic with -1. Expected: the traced PyTorch model's logits,
        // one case with a full window and one padded with 9 [PAD]s (no mask, as the converted model has none).
        try CoreMLFixtures.check("bert_qa_converted", tolerance: 1e-4)
        let model = try CoreMLFixtures.model("bert_qa_converted")
        #expect(model.layerCounts["mvn"] == 5)
        #expect(model.layerCounts["scale"] == 5)
        #expect(model.modelDescription.inputs.map(\.name) == ["wordIDs", "wordTypes"])
    }

    @Test func fp16BertQAMatchesItsHalfPrecisionWeights() throws {
        // Apple's BERT-SQuAD ships FP16: expected values use the same half-precision weights, so 1e-4 holds.
        try CoreMLFixtures.check("bert_qa_fp16", tolerance: 1e-4)
    }
}
