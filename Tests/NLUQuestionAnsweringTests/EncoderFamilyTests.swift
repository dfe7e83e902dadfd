import Foundation
import Testing
@testable import NLUQuestionAnswering

/// The model-family registry (`EncoderFamilies.byModelType`): each `model_type` picks its family, whose keys
/// and defaults decode a `config.json`; the defaults are checked against what `transformers` 4.57.6 builds
/// for a config naming only its `model_type` (Tests/Fixtures/qa/encoder-config-defaults.json, written by
/// scripts/fixtures/encoder_config_defaults.py).
@Suite struct EncoderFamilyTests {
    struct ReferenceDefaults: Decodable {
        var vocabularySize, hiddenSize, layerCount, attentionHeadCount, intermediateSize: Int
        var maxPositionEmbeddings, typeVocabularySize, relativeAttentionBucketCount, firstPositionID: Int
        var activation: String
        var layerNormEpsilon: Double
        var paddingIndex: Int?
    }

    struct ReferenceFile: Decodable {
        var defaults: [String: ReferenceDefaults]
    }

    /// Where NLUKit's default has always differed from `transformers`' (its configs say 512 positions for
    /// RoBERTa and MPNet, and BERT's vocabulary for XLM-R, where every released checkpoint has 514 positions
    /// and gives its vocabulary): kept as it was, so that moving the defaults into the family files changed
    /// no behaviour.
    static let knownDifferences: [String: [String: Int]] = [
        "mpnet": ["maxPositionEmbeddings": 514],
        "roberta": ["maxPositionEmbeddings": 514],
        "xlm-roberta": ["maxPositionEmbeddings": 514, "vocabularySize": 50265],
    ]

    @Test func aConfigNamingOnlyItsModelTypeGetsTransformersDefaults() throws {
        let url = QAFixtures.directory.appendingPathComponent("encoder-config-defaults.json")
        let reference = try JSONDecoder().decode(ReferenceFile.self, from: Data(contentsOf: url)).defaults
        #expect(Set(reference.keys) == Set(EncoderFamilies.byModelType.map(\.modelType)))
        for (modelType, expected) in reference {
            let json = #"{"model_type": "\#(modelType)"}"#
            let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
            let differences = Self.knownDifferences[modelType] ?? [:]
            let sizes: [(String, Int, Int)] = [
                ("vocabularySize", config.vocabularySize, expected.vocabularySize),
                ("hiddenSize", config.hiddenSize, expected.hiddenSize),
                ("layerCount", config.layerCount, expected.layerCount),
                ("attentionHeadCount", config.attentionHeadCount, expected.attentionHeadCount),
                ("intermediateSize", config.intermediateSize, expected.intermediateSize),
                ("maxPositionEmbeddings", config.maxPositionEmbeddings, expected.maxPositionEmbeddings),
                ("typeVocabularySize", config.typeVocabularySize, expected.typeVocabularySize),
                ("relativeAttentionBucketCount", config.relativeAttentionBucketCount, expected.relativeAttentionBucketCount),
                ("firstPositionID", config.firstPositionID, expected.firstPositionID),
            ]
            for (field, actual, reference) in sizes {
                #expect(actual == (differences[field] ?? reference), "\(modelType) \(field)")
            }
            #expect(config.activation == (expected.activation == "gelu" ? .gelu : nil), "\(modelType) activation")
            #expect(config.layerNormEpsilon == Float(expected.layerNormEpsilon), "\(modelType) layer_norm_eps")
            if let paddingIndex = expected.paddingIndex { #expect(config.paddingIndex == paddingIndex, "\(modelType) padding index") }
            #expect(config.positionsFollowPadding == (expected.paddingIndex != nil), "\(modelType) positions")
        }
    }

    @Test func classNamesPickTheFamilyWhenModelTypeIsAbsent() throws {
        // The class names transformers writes into `architectures` for each model family.
        let expected: [(String, BertConfiguration.Architecture)] = [
            ("BertForQuestionAnswering", .bert), ("DistilBertForQuestionAnswering", .distilbert), ("MPNetForMaskedLM", .mpnet),
            ("RobertaModel", .roberta), ("XLMRobertaForSequenceClassification", .roberta),
        ]
        for (className, architecture) in expected {
            let json = #"{"architectures": ["\#(className)"], "vocab_size": 600, "dim": 32, "hidden_size": 32, "n_heads": 4, "num_attention_heads": 4}"#
            let config = try JSONDecoder().decode(BertConfiguration.self, from: Data(json.utf8))
            #expect(config.architecture == architecture, "\(className)")
            #expect(config.hiddenSize == 32 && config.vocabularySize == 600, "\(className)")
        }
    }

    @Test func eachArchitectureIsNamedByItsFamily() {
        for (_, family) in EncoderFamilies.byModelType {
            let architecture = BertConfiguration.Architecture(rawValue: family.name)
            #expect(architecture?.family == family, "\(family.name)")
            #expect(architecture.map { "\($0)" } == family.name)
        }
        #expect(BertConfiguration.Architecture(rawValue: "xlm-roberta") == nil)
        #expect([BertConfiguration.Architecture.bert, .distilbert, .mpnet, .roberta].map(\.rawValue) == ["bert", "distilbert", "mpnet", "roberta"])
    }

    @Test func unknownModelTypeOrClassNamesListWhatIsSupported() {
        #expect(BertConfigurationError.unsupportedModelType("t5").description
                == #"unsupported model_type "t5" (supported: bert, distilbert, mpnet, roberta, xlm-roberta)"#)
        #expect(BertConfigurationError.unknownArchitecture(["T5Model"]).description
                == #"config.json has no model_type and its architectures ["T5Model"] name none of BERT, DistilBERT, MPNet, RoBERTa, XLM-RoBERTa"#)
    }
}
