import Foundation
import NLUCore
import Testing
@testable import NLUCoreML

/// Layer output sizes computed from the declared shapes at load (and from the given ones before a prediction runs):
/// what would pass the blob budget is refused naming the layer and the sizes, before anything is allocated. The
/// hostile models are built here in code; none of them allocates more than a few hundred KB.
@Suite struct LayerBudgetTests {
    /// A float multi-array feature; `open` marks dimensions left flexible by a shape range (1 to unbounded).
    static func feature(_ name: String, shape: [Int64], open: Set<Int> = []) -> CoreML_Specification_FeatureDescription {
        var feature = CoreML_Specification_FeatureDescription()
        feature.name = name
        feature.type.multiArrayType.shape = shape
        feature.type.multiArrayType.dataType = .float32
        if !open.isEmpty {
            feature.type.multiArrayType.shapeRange.sizeRanges = shape.indices.map { axis in
                var range = CoreML_Specification_SizeRange()
                range.lowerBound = open.contains(axis) ? 1 : UInt64(shape[axis])
                range.upperBound = open.contains(axis) ? -1 : shape[axis]
                return range
            }
        }
        return feature
    }

    static func layer(_ name: String, reading inputs: [String],
                      _ configure: (inout CoreML_Specification_NeuralNetworkLayer) -> Void) -> CoreML_Specification_NeuralNetworkLayer {
        BadInputTests.layer(name, reading: inputs, configure)
    }

    /// A `neuralNetwork` model of `layers` whose output is the last layer's.
    static func network(inputs: [CoreML_Specification_FeatureDescription], layers: [CoreML_Specification_NeuralNetworkLayer],
                        nd: Bool = false) -> CoreML_Specification_Model {
        var spec = CoreML_Specification_Model()
        spec.specificationVersion = 4
        spec.description_p.input = inputs
        var output = CoreML_Specification_FeatureDescription()
        output.name = layers.last?.output.first ?? ""
        output.type.multiArrayType.dataType = .float32
        spec.description_p.output = [output]
        spec.neuralNetwork.layers = layers
        spec.neuralNetwork.arrayInputShapeMapping = nd ? .exactArrayMapping : .rank5ArrayMapping
        return spec
    }

    private func loadError(_ spec: CoreML_Specification_Model, budget: WeightBudget = WeightBudget()) -> CoreMLError? {
        do {
            _ = try CoreMLModel(specification: spec, budget: budget)
            return nil
        } catch {
            return error as? CoreMLError
        }
    }

    /// A `[C]` vector concatenated with itself `copies` times along the channel axis (Keras-style `concat`).
    private func concatenation(copies: Int) -> CoreML_Specification_Model {
        Self.network(inputs: [Self.feature("x", shape: [1 << 22])],
                     layers: [Self.layer("cat", reading: [String](repeating: "x", count: copies)) { $0.concat = .init() }])
    }

    @Test func concatenationPastTheLayerBudgetIsRefusedAtLoad() {
        // 64 × 2^22 values (1 GiB of floats) loaded, and a prediction took 8 GB and 112 s; 65 failed only when run.
        for copies in [64, 65] {
            #expect(loadError(concatenation(copies: copies)) == .invalidLayer(name: "cat", kind: "concat", reason:
                "concatenating \(copies) inputs along axis 2: its output 'cat' of shape [?, ?, \(copies << 22), 1, 1] would hold at least "
                    + "\(copies << 22) values, over the 67108864 values (256 MiB of floats) one layer may make"))
        }
        // At the budget exactly the model loads (nothing is allocated at load).
        #expect(loadError(concatenation(copies: 16)) == nil)
    }

    @Test func blobsTogetherPastTheMemoryBudgetAreRefusedAtLoad() {
        // Each layer is within its own budget, but every blob is kept to the end of a prediction: 2^17 + 2 × 2^18 values
        // are 2.5 MiB.
        let spec = Self.network(inputs: [Self.feature("x", shape: [1 << 17])], layers: [
            Self.layer("wide", reading: ["x", "x"]) { $0.concat = .init() },
            Self.layer("copy", reading: ["wide"]) { $0.activation.linear.alpha = 1 },
        ])
        #expect(loadError(spec, budget: WeightBudget(limitBytes: 2 << 20)) == .invalidLayer(name: "copy", kind: "activation", reason:
            "with its output 'copy' the blobs of one prediction would hold at least 655360 values (2.5 MiB), over the 2 MiB they may "
                + "take together (the load's memory limit)"))
        #expect(loadError(spec, budget: WeightBudget(limitBytes: 3 << 20)) == nil)
    }

    @Test func openDimensionsAreCheckedBeforeThePredictionAllocates() throws {
        // [n, 1] + [1, m] with both open: only the given shapes tell the size, 2^13 × 2^14 = 2^27 values (512 MiB).
        let spec = Self.network(inputs: [Self.feature("column", shape: [1, 1], open: [0]), Self.feature("row", shape: [1, 1], open: [1])],
                                layers: [Self.layer("grid", reading: ["column", "row"]) { $0.addBroadcastable = .init() }], nd: true)
        let model = try CoreMLModel(specification: spec)
        let small = try model.prediction(from: DictionaryFeatureProvider([
            "column": .floatTensor(Tensor(shape: [3, 1], scalars: [1, 2, 3])), "row": .floatTensor(Tensor(shape: [1, 2], scalars: [10, 20])),
        ]))
        #expect(small.featureValue(for: "grid")?.floatTensorValue?.scalars == [11, 21, 12, 22, 13, 23])
        #expect(throws: CoreMLError.layerFailed(name: "grid", kind: "addBroadcastable", reason:
            "its output 'grid' of shape [8192, 16384] would hold 134217728 values, over the 67108864 values (256 MiB of floats) one layer may make")) {
            try model.prediction(from: DictionaryFeatureProvider([
                "column": .floatTensor(Tensor(shape: [1 << 13, 1])), "row": .floatTensor(Tensor(shape: [1, 1 << 14])),
            ]))
        }
    }

    @Test func gatherOfTwoToTheThirtyIndicesIsRefusedNamingTheCount() {
        let spec = Self.network(inputs: [Self.feature("table", shape: [4]), Self.feature("indices", shape: [1 << 30])],
                                layers: [Self.layer("pick", reading: ["table", "indices"]) { $0.gather = .init() }], nd: true)
        #expect(loadError(spec) == .invalidLayer(name: "pick", kind: "gather", reason:
            "gathering 1073741824 indices (shape [1073741824]) along axis 0 of [4]: its output 'pick' of shape [1073741824] would hold "
                + "1073741824 values, over the 67108864 values (256 MiB of floats) one layer may make"))
    }

    @Test func gatherGivenTooManyIndicesIsRefusedBeforeReadingThem() throws {
        // The index count is open in the file: refused when given, before the indices become positions.
        let spec = Self.network(inputs: [Self.feature("table", shape: [1, 1 << 15]), Self.feature("indices", shape: [1], open: [0])],
                                layers: [Self.layer("pick", reading: ["table", "indices"]) { $0.gather = .init() }], nd: true)
        let model = try CoreMLModel(specification: spec)
        #expect(throws: CoreMLError.layerFailed(name: "pick", kind: "gather", reason:
            "gathering 4096 indices (shape [4096]) along axis 0 of [1, 32768]: its output 'pick' of shape [4096, 32768] would hold "
                + "134217728 values, over the 67108864 values (256 MiB of floats) one layer may make")) {
            try model.prediction(from: DictionaryFeatureProvider([
                "table": .floatTensor(Tensor(shape: [1, 1 << 15])), "indices": .floatTensor(Tensor(shape: [1 << 12])),
            ]))
        }
        // The layer's own check, for callers that run it without the plan (the same numbers, its own words).
        let gather = try LayerCompiler.compile(spec.neuralNetwork.layers[0], rank5: false, budget: WeightBudget())
        #expect(throws: CoreMLError.layerFailed(name: "pick", kind: "gather", reason:
            "gathering 4096 indices (shape [4096]) along axis 0 of [1, 32768]: its output of shape [4096, 32768] would hold "
                + "134217728 values, over the 67108864 values (256 MiB of floats) one layer may make")) {
            _ = try gather.body([Blob(shape: [1, 1 << 15]), Blob(shape: [1 << 12])])
        }
    }

    @Test func gatherStillPicksRowsAndSlicesStillStride() throws {
        let table = Blob(shape: [3, 2], values: [1, 2, 3, 4, 5, 6])
        #expect(TensorLayers.gatherProduct(table, [[2, 0], [1]]).values == [6, 2])
        #expect(TensorLayers.gatherProduct(table, [[0, 1, 2], [0, 1]]).values == [1, 2, 3, 4, 5, 6])
        #expect(TensorLayers.gatherProduct(table, [[1], [0, 1]], squeeze: [true, false]).shape == [2])
    }
}

/// A classifier names one label per probability: a file whose labels and probabilities differ in count is refused
/// naming both counts and the layer, at load when the shapes tell, else at prediction.
extension LayerBudgetTests {
    private func classifier() throws -> CoreML_Specification_Model {
        try CoreML_Specification_Model(serializedBytes: try Data(contentsOf: CoreMLFixtures.url("dense_classifier")))
    }

    @Test func classifierWithMoreLabelsThanProbabilitiesIsRefusedAtLoad() throws {
        var spec = try classifier()
        spec.neuralNetworkClassifier.stringClassLabels.vector.append("sports")
        #expect(loadError(spec) == .invalidModel(
            "the classifier has 5 class labels, but layer 'softmax' (softmax) makes its probabilities 'entities' with 4 values a row "
                + "(shape [?, ?, 4, 1, 1]); expected one probability per label"))
    }

    @Test func classifierWhoseShapesAreOpenIsCheckedAtPrediction() throws {
        var spec = try classifier()
        spec.neuralNetworkClassifier.stringClassLabels.vector.removeLast()
        // No declared shape: the probabilities' size is known only once an input is given.
        spec.description_p.input[0].type.multiArrayType.shape = []
        let model = try CoreMLModel(specification: spec)
        #expect(throws: CoreMLError.invalidModel(
            "the classifier has 3 class labels, but layer 'softmax' (softmax) makes its probabilities 'entities' with 4 values "
                + "(shape [1, 1, 4, 1, 1]); expected one probability per label")) {
            try model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(shape: [8], repeating: 0.5))]))
        }
    }
}

/// A `--input` nested far deeper than any multi-array: named with its feature and the limit before the JSON parser
/// recurses into it.
extension LayerBudgetTests {
    @Test func deeplyNestedInputNamesTheFeatureAndTheLimit() throws {
        let model = try CoreMLFixtures.model("dense_classifier")
        let deep = #"{"embeddings": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}"
        #expect(throws: FeatureJSON.Error.invalidValue("embeddings", reason: "arrays or objects nested deeper than 16 levels")) {
            try FeatureJSON.provider(from: Data(deep.utf8), for: model.modelDescription)
        }
        // Brackets inside strings are no nesting; the feature is the key last read at the top level.
        let named = #"{"note\"[": "[[[[", "embe\u0064dings": "# + String(repeating: "[", count: 17) + "1" + String(repeating: "]", count: 17) + "}"
        #expect(throws: FeatureJSON.Error.invalidValue("embeddings", reason: "arrays or objects nested deeper than 16 levels")) {
            try FeatureJSON.provider(from: Data(named.utf8), for: model.modelDescription)
        }
        // Without a features object there is no feature to name.
        #expect(throws: FeatureJSON.Error.notAnObject) {
            try FeatureJSON.provider(from: Data((String(repeating: "[", count: 50_000)).utf8), for: model.modelDescription)
        }
        // 16 levels are the most a multi-array has: read up to the shape check.
        let sixteen = #"{"embeddings": "# + String(repeating: "[", count: 16) + "1" + String(repeating: "]", count: 16) + "}"
        let input = try FeatureJSON.provider(from: Data(sixteen.utf8), for: model.modelDescription)
        #expect(input.featureValue(for: "embeddings")?.floatTensorValue?.shape == [Int](repeating: 1, count: 16))
    }
}
