import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUCoreML
import NLUInputOutput

/// What a user may hand us that is not a model we run: each gets an error naming what is wrong, never a crash.
@Suite struct BadInputTests {
    private func specification(_ name: String) throws -> CoreML_Specification_Model {
        try CoreML_Specification_Model(serializedBytes: try Data(contentsOf: CoreMLFixtures.url(name)))
    }

    private func loadError(_ spec: CoreML_Specification_Model) throws -> CoreMLError? {
        do {
            _ = try CoreMLModel(data: try spec.serializedData())
            return nil
        } catch let error as CoreMLError {
            return error
        }
    }

    @Test func textFileIsNotAModel() throws {
        let url = TestScratch.file("nlukit-not-a-model", extension: "mlmodel")
        try Data("this is a README, not a model\n".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: CoreMLError.self) { try CoreMLModel(contentsOf: url) }
        do { _ = try CoreMLModel(contentsOf: url) } catch let error as CoreMLError {
            guard case .notAModel(let path, _) = error else { Issue.record("\(error)"); return }
            #expect(path == url.path)
        }
    }

    @Test func truncatedFileIsRejected() throws {
        let bytes = try Data(contentsOf: CoreMLFixtures.url("bert_qa"))
        for length in [1, 100, bytes.count / 2, bytes.count - 1] {
            do {
                _ = try CoreMLModel(data: bytes.prefix(length))
                Issue.record("a file cut to \(length) of \(bytes.count) bytes loaded")
            } catch let error as CoreMLError {
                switch error {
                case .notAModel, .invalidModel, .invalidLayer: break
                default: Issue.record("unexpected error for \(length) bytes: \(error)")
                }
            }
        }
    }

    @Test func hostileLengthPrefixFailsWithoutAllocating() throws {
        // Field 2 (description), length-delimited, claiming 2^31 bytes that the file does not have.
        let bytes = Data([0x08, 0x04, 0x12, 0x80, 0x80, 0x80, 0x80, 0x08])
        #expect { try CoreMLModel(data: bytes) } throws: { error in
            if case .notAModel = error as? CoreMLError { return true }
            return false
        }
    }

    @Test func newerSpecificationVersionIsNamed() throws {
        var spec = try specification("dense_classifier")
        spec.specificationVersion = 99
        #expect(try loadError(spec) == .newerSpecificationVersion(99, newestSupported: 9))
        #expect(try loadError(spec)?.description == "the model needs Core ML specification version 99; this reader knows versions up to 9")
        // Read from a file, the message names it (the fuzz harness found it did not).
        let url = TestScratch.file("nlukit-newer", extension: "mlmodel")
        try spec.serializedData().write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: CoreMLError.inFile(url.path, .newerSpecificationVersion(99, newestSupported: 9))) {
            try CoreMLModel(contentsOf: url)
        }
    }

    @Test func mlProgramIsRecognized() throws {
        var spec = try specification("dense_classifier")
        spec.mlProgram = Data([0x0A, 0x00])
        spec.specificationVersion = 7
        #expect(try loadError(spec) == .mlProgram)
    }

    @Test func otherModelTypeIsNamed() throws {
        var spec = try specification("dense_classifier")
        spec.treeEnsembleClassifier = Data()
        #expect(try loadError(spec) == .unsupportedModelType("treeEnsembleClassifier"))
    }

    @Test func unsupportedLayerIsNamedWithItsKind() throws {
        var spec = try specification("dense_layers")
        spec.neuralNetwork.layers[1].convolution = Data()
        #expect(try loadError(spec) == .unsupportedLayer(name: "leaky", kind: "convolution"))
        #expect(try loadError(spec)?.description.contains("layer 'leaky' is of kind 'convolution'") == true)
    }

    @Test func weightsOfTheWrongSizeAreRejected() throws {
        var spec = try specification("dense_classifier")
        spec.neuralNetworkClassifier.layers[0].innerProduct.weights.floatValue.removeLast()
        #expect(try loadError(spec) == .invalidLayer(name: "dense1", kind: "innerProduct", reason: "weights has 127 values, expected 128"))

        var half = try specification("dense_classifier_fp16")
        half.neuralNetworkClassifier.layers[0].innerProduct.weights.float16Value.removeLast(2)
        #expect(try loadError(half) == .invalidLayer(name: "dense1", kind: "innerProduct",
                                                     reason: "weights has 254 bytes of FP16, expected 256 (128 values)"))

        var lut = try specification("dense_classifier_lut4")
        lut.neuralNetworkClassifier.layers[0].innerProduct.weights.quantization.lookupTableQuantization.floatValue.removeLast()
        #expect(try loadError(lut) == .invalidLayer(name: "dense1", kind: "innerProduct",
                                                    reason: "weights: lookup table has 15 entries, expected 16 for 4-bit codes"))
    }

    @Test func layerReadingAnUnknownBlobIsRejected() throws {
        var spec = try specification("dense_layers")
        spec.neuralNetwork.layers[0].input = ["nowhere"]
        #expect(try loadError(spec) == .invalidModel("layer 'fc' reads 'nowhere', which is neither a model input nor made by an earlier layer"))
    }

    @Test func missingInputIsNamed() throws {
        let model = try CoreMLFixtures.model("dense_classifier")
        #expect(throws: ModelError.missingFeature("embeddings", expected: .tensor(.float32, shape: [8]))) {
            try model.prediction(from: DictionaryFeatureProvider())
        }
    }

    @Test func misshapenInputNamesExpectedAndGivenShapes() throws {
        let model = try CoreMLFixtures.model("bert_qa")
        let ids = FeatureValue.int32Tensor(Tensor(shape: [1, 10], repeating: 1))
        let types = FeatureValue.int32Tensor(Tensor(shape: [1, 12], repeating: 0))
        #expect(throws: ModelError.wrongFeatureShape("wordIDs", expected: [1, 12], actual: [1, 10])) {
            try model.prediction(from: DictionaryFeatureProvider(["wordIDs": ids, "wordTypes": types]))
        }
        #expect(throws: ModelError.self) {
            try model.prediction(from: DictionaryFeatureProvider(["wordIDs": .string("hello"), "wordTypes": types]))
        }
    }

    @Test func classifierGivenSeveralRowsBlamesTheInput() throws {
        // The rank-5 layout accepts [Seq, Batch, C]; a classifier still makes one label, so 2 rows (as 2 steps or
        // a batch of 2) are the input's fault, named with its shape and the declared one — not "the model's".
        let model = try CoreMLFixtures.model("dense_classifier")
        for shape in [[2, 1, 8], [1, 2, 8], [2, 1, 8, 1, 1]] {
            let input = DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(shape: shape, repeating: 0.5))])
            #expect(throws: ModelError.invalidFeatureValue("embeddings", reason: "shape \(shape) holds 2 rows, but the classifier makes one prediction from one row: expected shape [8]")) {
                try model.prediction(from: input)
            }
        }
        // One row in the full layout still predicts; so does a sequence the network reduces to one step.
        _ = try model.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(shape: [1, 1, 8], repeating: 0.5))]))
        let languageModel = try CoreMLFixtures.model("lstm_language_model")
        let steps = try languageModel.prediction(from: DictionaryFeatureProvider(["previousWord": .floatTensor(Tensor(shape: [3, 1, 1], scalars: [1, 2, 3]))]))
        #expect(steps.featureValue(for: "nextWord")?.stringValue != nil)
    }

    @Test func outOfVocabularyIndexIsALayerError() throws {
        let model = try CoreMLFixtures.model("lstm_language_model")
        #expect(throws: CoreMLError.layerFailed(name: "embedding", kind: "embedding", reason: "index 99.0 is not a whole number in 0..<8")) {
            try model.prediction(from: DictionaryFeatureProvider(["previousWord": .floatTensor(Tensor([99]))]))
        }
    }

    @Test func jsonInputErrorsNameTheFeature() throws {
        let model = try CoreMLFixtures.model("bert_qa")
        #expect(throws: FeatureJSON.Error.unknownFeature("wordIds", known: ["wordIDs", "wordTypes"])) {
            try FeatureJSON.provider(from: Data(#"{"wordIds": [[1]]}"#.utf8), for: model.modelDescription)
        }
        #expect(throws: FeatureJSON.Error.invalidValue("wordIDs", reason: "rows of different lengths (2 and 1) at depth 2")) {
            try FeatureJSON.provider(from: Data(#"{"wordIDs": [[1, 2], [3]]}"#.utf8), for: model.modelDescription)
        }
        // Numbers and arrays mixed at one depth: a shape that would not hold the values (was a precondition trap).
        for ragged in [#"[1, [2, 3]]"#, #"[[1], [[2]]]"#, #"[[1, 2], [3, [4, 5]]]"#] {
            #expect(throws: FeatureJSON.Error.self) {
                try FeatureJSON.provider(from: Data(#"{"wordIDs": \#(ragged)}"#.utf8), for: model.modelDescription)
            }
        }
        #expect(throws: FeatureJSON.Error.invalidValue("wordIDs", reason: "an array where a number was expected at depth 2")) {
            try FeatureJSON.provider(from: Data(#"{"wordIDs": [1, [2, 3]]}"#.utf8), for: model.modelDescription)
        }
        #expect(throws: FeatureJSON.Error.invalidValue("wordIDs", reason: "1.5 is not a 32-bit whole number")) {
            try FeatureJSON.provider(from: Data(#"{"wordIDs": [[1.5]]}"#.utf8), for: model.modelDescription)
        }
        // A float input past Float's range would turn into infinity: refused, naming it.
        let dense = try CoreMLFixtures.model("dense_classifier")
        #expect(throws: FeatureJSON.Error.invalidValue("embeddings", reason: "1e+39 does not fit a 32-bit float (largest \(Float.greatestFiniteMagnitude))")) {
            try FeatureJSON.provider(from: Data(#"{"embeddings": [1e39, 0, 0, 0, 0, 0, 0, 0]}"#.utf8), for: dense.modelDescription)
        }
    }
}

extension BadInputTests {
    @Test func emptyTensorsAreRefusedBeforeAnyKernel() throws {
        var spec = try CoreML_Specification_Model(serializedBytes: try Data(contentsOf: CoreMLFixtures.url("nd_layers")))
        // Slice [2, 3, 4] to nothing: begin 3 = end 3 on the middle axis.
        spec.neuralNetwork.layers[0].sliceStatic.beginIds = [0, 3, 0]
        spec.neuralNetwork.layers[0].sliceStatic.beginMasks = [true, false, true]
        let model = try CoreMLModel(data: try spec.serializedData())
        let input = DictionaryFeatureProvider([
            "a": .floatTensor(Tensor(shape: [2, 3, 4], repeating: 1)), "indices": .floatTensor(Tensor([0, 1])),
            "target": .floatTensor(Tensor(shape: [4, 6])),
        ])
        #expect(throws: CoreMLError.layerFailed(name: "slice", kind: "sliceStatic", reason: "output 'sliced' would be empty (shape [2, 0, 2])")) {
            try model.prediction(from: input)
        }
        let flexible = try CoreMLFixtures.model("dense_classifier")
        #expect(throws: ModelError.self) {
            try flexible.prediction(from: DictionaryFeatureProvider(["embeddings": .floatTensor(Tensor(shape: [0]))]))
        }
    }
}

/// Layers whose output is larger than their inputs (broadcast batch axes, concatenation, gathers, widening products):
/// a small file could ask for terabytes, or an element count past Int, and trap. Each is refused before allocating,
/// naming the layer: at load, as these layers read constants whose shapes the file states.
extension BadInputTests {
    /// A layer named `name` whose one output is also called `name` (LayerBudgetTests builds its models with it too).
    static func layer(_ name: String, reading inputs: [String] = [],
                              _ configure: (inout CoreML_Specification_NeuralNetworkLayer) -> Void) -> CoreML_Specification_NeuralNetworkLayer {
        var layer = CoreML_Specification_NeuralNetworkLayer()
        layer.name = name
        layer.input = inputs
        layer.output = [name]
        configure(&layer)
        return layer
    }

    private static func constant(_ name: String, shape: [Int64], value: Float = 1) -> CoreML_Specification_NeuralNetworkLayer {
        layer(name) {
            $0.loadConstantNd.shape = shape.map(UInt64.init)
            $0.loadConstantNd.data.floatValue = [Float](repeating: value, count: Int(shape.reduce(1, *)))
        }
    }

    /// The ND fixture with `layers` appended, run on its own inputs.
    private func runNDFixture(appending layers: [CoreML_Specification_NeuralNetworkLayer]) throws {
        var spec = try CoreML_Specification_Model(serializedBytes: try Data(contentsOf: CoreMLFixtures.url("nd_layers")))
        spec.neuralNetwork.layers += layers
        let model = try CoreMLModel(data: try spec.serializedData())
        _ = try model.prediction(from: DictionaryFeatureProvider([
            "a": .floatTensor(Tensor(shape: [2, 3, 4], repeating: 1)), "indices": .floatTensor(Tensor([0, 1])),
            "target": .floatTensor(Tensor(shape: [4, 6])),
        ]))
    }

    private func expectRefusal(_ layer: String, _ kind: String, _ layers: [CoreML_Specification_NeuralNetworkLayer]) {
        do {
            try runNDFixture(appending: layers)
            Issue.record("layer '\(layer)' ran")
        } catch let CoreMLError.invalidLayer(name, failedKind, reason) {
            // Refused at load: the shapes of constants are known before any prediction.
            #expect(name == layer && failedKind == kind)
            #expect(reason.contains("values, over the 67108864 values (256 MiB of floats) one layer may make"), "\(reason)")
        } catch {
            Issue.record("\(error)")
        }
    }

    @Test func batchAxesThatBroadcastIntoTooManyProductsAreRefused() {
        // [2^15, 1, 1, 1] · [1, 2^15, 1, 1]: 2^30 one-by-one products (was a 4 GiB blob and 8 GiB of indices).
        expectRefusal("outer", "batchedMatmul", [Self.constant("column", shape: [1 << 15, 1, 1, 1]),
                                                 Self.constant("row", shape: [1, 1 << 15, 1, 1]),
                                                 Self.layer("outer", reading: ["column", "row"]) { $0.batchedMatmul = .init() }])
    }

    @Test func concatenatingABlobWithItselfPastTheLimitIsRefused() {
        // 2^20 values listed 300 times.
        expectRefusal("repeat", "concatND", [Self.constant("column", shape: [1 << 10, 1]), Self.constant("row", shape: [1, 1 << 10]),
                                             Self.layer("square", reading: ["column", "row"]) { $0.addBroadcastable = .init() },
                                             Self.layer("repeat", reading: [String](repeating: "square", count: 300)) { $0.concatNd.axis = 0 }])
    }

    @Test func gatheringPastTheLimitIsRefused() {
        // Rows of 2^15 values gathered 2^14 times: 2^29 values.
        expectRefusal("pick", "gather", [Self.constant("table", shape: [1, 1 << 15]), Self.constant("picks", shape: [1 << 14], value: 0),
                                         Self.layer("pick", reading: ["table", "picks"]) { $0.gather.axis = 0 }])
    }
}

/// Values that are well-formed protobuf but no layer can use: refused when the file is loaded, naming the layer and the field.
/// (Those that trapped `nlu` are run as subprocesses in CLITests.HostileModelFileCommandTests.)
extension BadInputTests {
    @Test func reshapeToNoDimensionsIsRefusedAtLoad() {
        // A rank-0 blob is no Core ML shape, and the layers that read an axis of it had none.
        let scalar = Self.layer("scalar", reading: ["a"]) { $0.reshapeStatic = .init() }
        #expect(throws: CoreMLError.invalidLayer(name: "scalar", kind: "reshapeStatic",
                                                 reason: "targetShape [], expected one or more sizes (-1 inferred, 0 copied, else 1 to 268435456)")) {
            try runNDFixture(appending: [scalar])
        }
    }
}

extension BadInputTests {
    /// A NaN or infinite weight made every output NaN, and `coreml predict` then failed with Foundation's "the
    /// operation failed": refused at load, as safetensors weights are, in every stored form.
    @Test func aNonFiniteWeightIsRefusedAtLoad() throws {
        var plain = try specification("dense_classifier")
        plain.neuralNetworkClassifier.layers[0].innerProduct.weights.floatValue[3] = .nan
        #expect(try loadError(plain) == .invalidLayer(name: "dense1", kind: "innerProduct",
                                                      reason: "weights holds a non-finite value (NaN at index 3); expected finite numbers"))
        var half = try specification("dense_classifier_fp16")
        half.neuralNetworkClassifier.layers[0].innerProduct.weights.float16Value.replaceSubrange(4..<6, with: [0x00, 0xFC])   // -inf
        #expect(try loadError(half) == .invalidLayer(name: "dense1", kind: "innerProduct",
                                                     reason: "weights holds a non-finite value (-infinity at index 2); expected finite numbers"))
        var lut = try specification("dense_classifier_lut4")
        lut.neuralNetworkClassifier.layers[0].innerProduct.weights.quantization.lookupTableQuantization.floatValue =
            [Float](repeating: .infinity, count: 16)
        #expect(try loadError(lut) == .invalidLayer(name: "dense1", kind: "innerProduct",
                                                    reason: "weights holds a non-finite value (infinity at index 0); expected finite numbers"))
    }
}

extension BadInputTests {
    /// A 1-bit weight takes 32 times its file bytes once decoded: a model of a few hundred MB of such codes could
    /// ask for more than the machine's memory. The decoded FP16 and quantized weights of a whole load are counted
    /// before each is allocated, against half of the memory (here a small limit stands in for it): the layer
    /// that would pass it is named with the sizes; at the exact total the model loads.
    @Test func decodedWeightsPastTheMemoryBudgetAreRefusedNamingTheLayer() throws {
        for name in ["dense_classifier_lut4", "dense_classifier_fp16", "dense_classifier_int8"] {
            let spec = try specification(name)
            let counted = WeightBudget()
            _ = try CoreMLModel(specification: spec, budget: counted)
            #expect(counted.decodedFloats > 0, "\(name)")
            let exact = WeightBudget(limitBytes: 4 * counted.decodedFloats)
            #expect(throws: Never.self) { _ = try CoreMLModel(specification: spec, budget: exact) }
            #expect(exact.decodedFloats == counted.decodedFloats)
            do {
                _ = try CoreMLModel(specification: spec, budget: WeightBudget(limitBytes: 4 * counted.decodedFloats - 1))
                Issue.record("\(name): loaded past its budget")
            } catch let CoreMLError.invalidLayer(_, kind, reason) {
                #expect(kind == "innerProduct" && reason.contains("bring the model's decoded weights to \(4 * counted.decodedFloats) bytes")
                        && reason.contains("over \(4 * counted.decodedFloats - 1) bytes"), "\(name): \(reason)")
            }
        }
        // The default limit is half of this machine's memory.
        #expect(WeightBudget().limitBytes == InputLimits.physicalMemory / 2)
    }

    /// Codes of 1 to 8 bits packed most significant bit first (coremltools' order), decoded one by one.
    @Test func packedCodesOfEveryWidthDecodeInOrder() {
        for bits in 1...8 {
            let codes = (0..<37).map { ($0 * 5 + bits) % (1 << bits) }
            var bitString: [Int] = codes.flatMap { code in (0..<bits).map { (code >> (bits - 1 - $0)) & 1 } }
            while bitString.count % 8 != 0 { bitString.append(0) }
            let bytes = stride(from: 0, to: bitString.count, by: 8).map { start in
                UInt8(bitString[start..<start + 8].reduce(0) { $0 << 1 | $1 })
            }
            let decoded = bytes.withUnsafeBytes { raw in codes.indices.map { WeightDecoder.code(at: $0, bits: bits, in: raw) } }
            #expect(decoded == codes, "\(bits)-bit codes")
        }
    }

    /// An `.mlpackage` whose `Data/com.apple.CoreML/model.mlmodel` links back to the package: it was read again
    /// through the link, 40 levels deep, until the system refused the path; now the one level is named.
    @Test func packageWhoseModelLinksBackToItselfIsNamed() throws {
        let package = TestScratch.file("nlukit-loop", extension: "mlpackage")
        defer { try? FileManager.default.removeItem(at: package) }
        let folder = package.appendingPathComponent("Data/com.apple.CoreML")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("model.mlmodel").path, withDestinationPath: "../../..")
        #expect(throws: CoreMLError.unreadableFile(folder.appendingPathComponent("model.mlmodel").path,
                                                   reason: "is a directory, expected the package's .mlmodel file")) {
            try CoreMLModel(contentsOf: package)
        }
    }
}
