import Foundation
import NLUTestSupport
import NLUTransformers
import Testing
@testable import NLUEmbeddings

/// Bad model directories fail with errors that name the file, module or field at fault.
@Suite struct ModelDirectoryErrorTests {
    @Test func directoryWithoutModelFilesIsNotAModel() throws {
        let empty = try TestScratch.folder("nlukit-emb-empty")
        defer { try? FileManager.default.removeItem(at: empty) }
        #expect(throws: SentenceEmbedderError.notAModel(path: empty.path)) { try SentenceEmbedder(modelDirectory: empty) }
        let nowhere = empty.appendingPathComponent("missing")
        #expect(throws: SentenceEmbedderError.notAModel(path: nowhere.path)) { try SentenceEmbedder(modelDirectory: nowhere) }
    }

    /// Without sentence_bert_config.json the tokenizer's model_max_length bounds the input; one too
    /// short for [CLS] and [SEP] is an error at load, not a trap at the first text.
    @Test func aMaximumLengthWithoutRoomForTextIsRefused() throws {
        let configURL = EmbeddingFixtures.model.appendingPathComponent("tokenizer_config.json")
        var tokenizerConfig = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: configURL)) as? [String: Any])
        tokenizerConfig["model_max_length"] = 2
        let text = String(decoding: try JSONSerialization.data(withJSONObject: tokenizerConfig), as: UTF8.self)
        let directory = try EmbeddingFixtures.variant(["sentence_bert_config.json": nil, "tokenizer_config.json": text])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("the longest input is 2 tokens") == true, "\(String(describing: error))")
    }

    @Test func unsupportedModuleIsNamed() throws {
        let directory = try EmbeddingFixtures.variant([
            "modules.json": EmbeddingFixtures.modulesJSON([("Pooling", "1_Pooling"), ("LSTM", "2_LSTM")]),
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error == .unsupportedModule(type: "sentence_transformers.models.LSTM",
                                            file: directory.appendingPathComponent("modules.json").path))
        #expect(error?.description.contains("unsupported module \"sentence_transformers.models.LSTM\"") == true)
    }

    @Test func poolingWidthOtherThanTheEncoderIsRejected() throws {
        let directory = try EmbeddingFixtures.variant(["1_Pooling/config.json": #"{"word_embedding_dimension": 384}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("embedding dimension 384 does not match the encoder's hidden size 32") == true)
    }

    @Test func unknownPoolingModeIsNamed() throws {
        let directory = try EmbeddingFixtures.variant(["1_Pooling/config.json": #"{"pooling_mode": "median"}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("unsupported pooling_mode \"median\"") == true)
    }

    @Test func poolingModeListedTwiceIsNamed() throws {
        // Each listed mode widens every embedding by the hidden size: repeats were accepted without bound.
        let modes = [String](repeating: #""mean""#, count: 1000).joined(separator: ", ")
        let directory = try EmbeddingFixtures.variant(["1_Pooling/config.json": #"{"pooling_mode": [\#(modes)]}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("field 'pooling_mode' lists \"mean\" more than once") == true)
    }

    @Test func denseWeightsOfAnotherShapeNameTheTensor() throws {
        let directory = try EmbeddingFixtures.variant([
            "2_Dense/config.json": #"{"in_features": 32, "out_features": 20, "bias": true, "activation_function": "torch.nn.modules.activation.Tanh"}"#,
        ])
        defer { try? FileManager.default.removeItem(at: directory) }
        let weights = directory.appendingPathComponent("2_Dense/model.safetensors").path
        #expect(throws: CheckpointError.wrongShape(name: "linear.weight", expected: [20, 32], actual: [24, 32], file: weights)) {
            try SentenceEmbedder(modelDirectory: directory)
        }
    }

    @Test func denseInputMustMatchThePooledWidth() throws {
        // Two pooling modes give 64 floats; the Dense module takes 32.
        let directory = try EmbeddingFixtures.variant(["1_Pooling/config.json": #"{"pooling_mode": ["cls", "mean"]}"#])
        defer { try? FileManager.default.removeItem(at: directory) }
        let error = #expect(throws: SentenceEmbedderError.self) { try SentenceEmbedder(modelDirectory: directory) }
        #expect(error?.description.contains("in_features 32 does not match the 64 floats the previous module gives") == true)
    }

    @Test func badBatchSizeIsAnOptionError() throws {
        let embedder = try SentenceEmbedder(modelDirectory: EmbeddingFixtures.model)
        #expect(throws: SentenceEmbedderError.invalidOption(name: "batch size", value: "0", expected: "1...4096")) {
            try embedder.embed(["a"], options: EmbeddingOptions(batchSize: 0))
        }
    }
}
