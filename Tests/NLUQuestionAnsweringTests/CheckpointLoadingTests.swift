import Foundation
import NLUCore
import Testing
@testable import NLUQuestionAnswering

/// Loading Hugging Face checkpoints: both config key schemes, and every error naming what is wrong.
@Suite struct CheckpointLoadingTests {
    @Test func bertConfigurationDecodesWithDefaults() throws {
        let json = #"{"architectures": ["BertForQuestionAnswering"], "hidden_size": 64, "num_attention_heads": 4, "hidden_act": "gelu_new"}"#
        let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
        #expect(config.architecture == .bert)
        #expect(config.hiddenSize == 64 && config.headSize == 16)
        #expect(config.layerCount == 12 && config.intermediateSize == 3072 && config.vocabularySize == 30522)
        #expect(config.activation == .geluTanh && config.typeVocabularySize == 2 && config.layerNormEpsilon == 1e-12)
    }

    @Test func distilBertConfigurationUsesItsOwnKeys() throws {
        let json = #"{"model_type": "distilbert", "dim": 48, "n_layers": 2, "n_heads": 4, "hidden_dim": 96, "activation": "relu", "vocab_size": 700}"#
        let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
        #expect(config == BertConfiguration(architecture: .distilbert, vocabularySize: 700, hiddenSize: 48, layerCount: 2,
                                            attentionHeadCount: 4, intermediateSize: 96, activation: .relu))
        #expect(config.typeVocabularySize == 0)
    }

    @Test func unsupportedModelTypeAndActivationAreNamed() {
        #expect(throws: BertConfigurationError.unsupportedModelType("deberta-v2")) {
            try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "deberta-v2"}"#.utf8))
        }
        #expect(throws: BertConfigurationError.unsupportedValue(field: "hidden_act", value: "swish",
                                                                supported: "gelu, gelu_new, gelu_pytorch_tanh, relu")) {
            try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "bert", "hidden_act": "swish"}"#.utf8))
        }
        #expect(throws: BertConfigurationError.self) {
            try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "bert", "hidden_size": 30, "num_attention_heads": 4}"#.utf8))
        }
    }

    /// A size past its limit is refused before it sizes a loop or a table (the fuzz harness once
    /// found `num_hidden_layers` 2^63 - 1 allocating one block per layer up front and aborting).
    @Test func hugeOrNegativeSizesAreNamedNotAllocated() {
        let cases: [(key: String, value: String, field: String)] = [
            ("num_hidden_layers", "9223372036854775807", "layer count"), ("vocab_size", "4611686018427387904", "vocab_size"),
            ("hidden_size", "1099511627776", "hidden size"), ("intermediate_size", "-3", "intermediate size"),
            ("max_position_embeddings", "2097152", "max_position_embeddings"), ("num_attention_heads", "4096", "attention heads"),
            ("type_vocab_size", "70000", "type_vocab_size"),
        ]
        for (key, value, field) in cases {
            let json = #"{"model_type": "bert", "\#(key)": \#(value)}"#
            #expect(throws: BertConfigurationError.self, "\(key) \(value)") {
                try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
            }
            do {
                _ = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
            } catch let error as BertConfigurationError {
                #expect("\(error)".contains(field), "\(error)")
            } catch {
                Issue.record("\(key): \(error)")
            }
        }
    }

    /// A negative `layer_norm_eps` made NaN hidden states and one past Float's range made every hidden state its bias,
    /// both without an error.
    @Test func layerNormEpsilonOutsideZeroToOneIsNamed() {
        for value in ["-10", "-1e-12", "1e39", "2"] {
            #expect(throws: BertConfigurationError.self, "\(value)") {
                try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "bert", "layer_norm_eps": \#(value)}"#.utf8))
            }
        }
        #expect(throws: BertConfigurationError.unsupportedValue(field: "layer_norm_eps", value: "-10.0", supported: "a number from 0 to 1")) {
            try JSONDecoder().decode(BertConfiguration.self, from: Data(#"{"model_type": "roberta", "layer_norm_eps": -10}"#.utf8))
        }
    }

    @Test func checkpointWithoutModelTypeUsesArchitectures() throws {
        let directory = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(directory) }
        try editConfig(directory) { $0["model_type"] = nil; $0["architectures"] = ["BertForQuestionAnswering"] }
        #expect(try BertQAModel(modelDirectory: directory).configuration.architecture == .bert)
    }

    @Test func missingDirectoryConfigOrWeightsAreNamed() throws {
        let nowhere = URL(fileURLWithPath: "/nonexistent/model")
        #expect(throws: CheckpointError.missingFile(path: nowhere.path, expected: "a model directory with config.json and model.safetensors")) {
            try BertQAModel(modelDirectory: nowhere)
        }
        let noWeights = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(noWeights) }
        try FileManager.default.removeItem(at: noWeights.appendingPathComponent("model.safetensors"))
        let error = #expect(throws: CheckpointError.self) { try BertQAModel(modelDirectory: noWeights) }
        #expect("\(error!)".contains("model.safetensors"))
        let noConfig = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(noConfig) }
        try FileManager.default.removeItem(at: noConfig.appendingPathComponent("config.json"))
        let configError = #expect(throws: CheckpointError.self) { try BertQAModel(modelDirectory: noConfig) }
        #expect("\(configError!)".contains("config.json"))
    }

    @Test func corruptConfigAndWeightsAreErrorsNotCrashes() throws {
        let directory = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(directory) }
        try Data("{not json".utf8).write(to: directory.appendingPathComponent("config.json"))
        let error = #expect(throws: CheckpointError.self) { try BertQAModel(modelDirectory: directory) }
        #expect("\(error!)".contains("config.json"))
        let weights = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(weights) }
        try Data(repeating: 7, count: 100).write(to: weights.appendingPathComponent("model.safetensors"))
        #expect(throws: (any Error).self) { try BertQAModel(modelDirectory: weights) }
    }

    @Test func unsupportedModelTypeInDirectoryIsNamed() throws {
        let directory = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(directory) }
        try editConfig(directory) { $0["model_type"] = "gpt2" }
        let error = #expect(throws: CheckpointError.self) { try BertQAModel(modelDirectory: directory) }
        #expect("\(error!)".contains("unsupported model_type \"gpt2\""))
    }

    @Test func missingWrongShapeAndUnusedTensorsAreNamed() throws {
        let missing = try rewriteWeights(of: "bert-tiny") { $0["bert.encoder.layer.1.output.dense.bias"] = nil }
        defer { QAFixtures.remove(missing) }
        #expect(throws: CheckpointError.missingLayerTensor(name: "bert.encoder.layer.1.output.dense.bias", layer: 1, layers: 2,
                                                           file: missing.appendingPathComponent("model.safetensors").path)) {
            try BertQAModel(modelDirectory: missing)
        }
        // A layer count above the checkpoint's: the message names config.json beside the weights file.
        let deeper = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(deeper) }
        try editConfig(deeper) { $0["num_hidden_layers"] = 3 }
        let error = #expect(throws: CheckpointError.self) { try BertQAModel(modelDirectory: deeper) }
        #expect("\(error!)".contains("missing tensor 'bert.encoder.layer.2.") && "\(error!)".contains("(config.json gives 3 layers)"),
                "\(error!)")
        let wrong = try rewriteWeights(of: "bert-tiny") { $0["qa_outputs.weight"] = Tensor(shape: [3, 32]) }
        defer { QAFixtures.remove(wrong) }
        #expect(throws: CheckpointError.wrongShape(name: "qa_outputs.weight", expected: [2, 32], actual: [3, 32],
                                                   file: wrong.appendingPathComponent("model.safetensors").path)) {
            try BertQAModel(modelDirectory: wrong)
        }
        let extra = try rewriteWeights(of: "distilbert-tiny") { $0["distilbert.extra.weight"] = Tensor(shape: [2]) }
        defer { QAFixtures.remove(extra) }
        #expect(throws: CheckpointError.unusedTensors(names: ["distilbert.extra.weight"],
                                                      file: extra.appendingPathComponent("model.safetensors").path)) {
            try BertQAModel(modelDirectory: extra)
        }
    }

    @Test func poolerAndPositionIDsMayBeLeftUnused() throws {
        let directory = try rewriteWeights(of: "bert-tiny") {
            $0["bert.pooler.dense.weight"] = Tensor(shape: [32, 32])
            $0["bert.pooler.dense.bias"] = Tensor(shape: [32])
            $0["bert.embeddings.position_ids"] = Tensor(shape: [1, 512])
        }
        defer { QAFixtures.remove(directory) }
        #expect(try BertQAModel(modelDirectory: directory).configuration.layerCount == 2)
    }

    @Test func questionAnsweringHeadIsReadFromTheFileRoot() throws {
        // The encoder's names are tried under its family's prefix (distilbert.), the head's at the root only.
        let missing = try rewriteWeights(of: "distilbert-tiny") { $0["qa_outputs.bias"] = nil }
        defer { QAFixtures.remove(missing) }
        #expect(throws: CheckpointError.missingTensor(name: "qa_outputs.bias", file: missing.appendingPathComponent("model.safetensors").path)) {
            try BertQAModel(modelDirectory: missing)
        }
    }

    @Test func pretrainingHeadsOfTheFamilyMayBeLeftUnused() throws {
        let directory = try rewriteWeights(of: "bert-tiny") { $0["cls.predictions.bias"] = Tensor(shape: [4]) }
        defer { QAFixtures.remove(directory) }
        #expect(try BertQAModel(modelDirectory: directory).configuration.architecture == .bert)
    }

    // MARK: helpers

    private func editConfig(_ directory: URL, _ edit: (inout [String: Any]) -> Void) throws {
        let url = directory.appendingPathComponent("config.json")
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        edit(&object)
        try JSONSerialization.data(withJSONObject: object).write(to: url)
    }

    private func rewriteWeights(of name: String, _ edit: (inout [String: Tensor<Float>]) -> Void) throws -> URL {
        let directory = try QAFixtures.temporaryCopy(of: name)
        let url = directory.appendingPathComponent("model.safetensors")
        let file = try SafeTensors(contentsOf: url)
        var tensors: [String: Tensor<Float>] = [:]
        for tensorName in file.names { tensors[tensorName] = try file.floatTensor(tensorName).contiguous() }
        edit(&tensors)
        let copy = tensors.mapValues { Tensor(shape: $0.shape, scalars: $0.scalars) }
        try SafeTensors.write(copy, to: url)
        return directory
    }
}
