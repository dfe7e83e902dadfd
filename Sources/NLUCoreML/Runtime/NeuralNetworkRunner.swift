import NLUCore

/// Runs the layers of a `neuralNetwork`, `neuralNetworkClassifier` or `neuralNetworkRegressor` in file order on the
/// named features, and turns the blobs the description names into output features.
struct NeuralNetworkRunner: Sendable {
    /// A classifier's labels and where its probabilities come from.
    struct Classification: Sendable {
        enum Labels: Sendable { case strings([String]), integers([Int64]) }
        let labels: Labels
        let probabilityBlob: String
        let labelFeature: String
        let probabilitiesFeature: String?

        var count: Int {
            switch labels { case .strings(let l): l.count; case .integers(let l): l.count }
        }
    }

    let layers: [CompiledLayer]
    let rank5: Bool
    let inputs: [FeatureSpecification]
    let outputs: [FeatureSpecification]
    let classification: Classification?
    let blobBudget: BlobBudget

    init(layers specs: [CoreML_Specification_NeuralNetworkLayer], arrayMapping: CoreML_Specification_NeuralNetworkMultiArrayShapeMapping,
         inputs: [FeatureSpecification], outputs: [FeatureSpecification], classification: Classification?,
         budget: WeightBudget) throws {
        guard !specs.isEmpty else { throw CoreMLError.invalidModel("the neural network has no layers") }
        let rank5 = arrayMapping != .exactArrayMapping
        self.rank5 = rank5
        layers = try specs.map { try LayerCompiler.compile($0, rank5: rank5, budget: budget) }
        self.inputs = inputs
        self.outputs = outputs
        self.classification = classification
        // Every blob a layer reads must be an input or an earlier layer's output.
        var available = Set(inputs.map(\.feature.name))
        for layer in layers {
            for (index, input) in layer.inputs.enumerated() where !available.contains(input) {
                guard layer.optionalInputs.contains(index) else {
                    throw CoreMLError.invalidModel("layer '\(layer.name)' reads '\(input)', which is neither a model input nor made by an earlier layer")
                }
            }
            available.formUnion(layer.outputs)
        }
        for output in outputs {
            let name = output.feature.name
            let madeByClassifier = classification.map { name == $0.labelFeature || name == $0.probabilitiesFeature } ?? false
            guard madeByClassifier || available.contains(name) else {
                throw CoreMLError.invalidModel("output '\(name)' is not made by any layer")
            }
        }
        if let classification, !available.contains(classification.probabilityBlob) {
            throw CoreMLError.invalidModel("the class probabilities '\(classification.probabilityBlob)' are not made by any layer")
        }
        // Every layer's output size from the declared inputs, before any prediction allocates it.
        blobBudget = BlobBudget(weights: budget)
        let declared = Dictionary(inputs.map { ($0.feature.name, Self.blobShape(declared: $0.shape, rank5: rank5)) }) { first, _ in first }
        let shapes = try blobBudget.plan(layers, inputs: declared) { layer, reason in
            CoreMLError.invalidLayer(name: layer.name, kind: layer.kind, reason: reason)
        }
        if let classification, let shape = shapes[classification.probabilityBlob] ?? nil {
            try checkLabels(classification, probabilities: shape)
        }
    }

    /// The blob a declared input becomes, as far as the declaration tells: in the rank-5 layout `[C]` and `[C, H, W]`
    /// come with open `[Seq, Batch]` axes (a sequence may be given), shorter shapes padded with leading 1s.
    private static func blobShape(declared: [Int?]?, rank5: Bool) -> PartialShape {
        guard let declared, !declared.isEmpty else { return nil }
        guard rank5 else { return declared }
        switch declared.count {
        case 1: return [nil, nil, declared[0], 1, 1]
        case 3: return [nil, nil] + declared
        case ..<5: return [Int?](repeating: 1, count: 5 - declared.count) + declared
        case 5: return declared
        default: return nil
        }
    }

    /// A classifier makes one probability per label from one row: at load, the probability blob's row (its
    /// `[C, H, W]` in the rank-5 layout, the whole blob in the ND layout) must hold as many values as there are
    /// labels, when the shapes tell its size.
    private func checkLabels(_ classification: Classification, probabilities shape: [Int?]) throws {
        let row = rank5 && shape.count == 5 ? Array(shape[2...]) : shape
        guard !row.contains(nil) else { return }
        let values = ShapeInference.lowerBound(row)
        guard values != classification.count else { return }
        throw CoreMLError.invalidModel(labelMismatch(classification, values: values, perRow: rank5, shape: ShapeInference.describe(shape)))
    }

    /// The message for class labels that do not match the probabilities' size, naming the layer that makes them.
    private func labelMismatch(_ classification: Classification, values: Int, perRow: Bool = false, shape: String) -> String {
        let blob = classification.probabilityBlob
        let maker = layers.last { $0.outputs.contains(blob) }.map { " layer '\($0.name)' (\($0.kind)) makes" } ?? ""
        return "the classifier has \(classification.count) class labels, but\(maker) its probabilities '\(blob)' with "
            + "\(values) values\(perRow ? " a row" : "") (shape \(shape)); expected one probability per label"
    }

    /// Kind → number of layers of that kind.
    var layerCounts: [String: Int] { layers.reduce(into: [:]) { $0[$1.kind, default: 0] += 1 } }

    func predict(_ provider: FeatureProvider) throws -> [String: FeatureValue] {
        var blobs = [String: Blob]()
        var givenShapes = [String: [Int]]()
        for input in inputs {
            guard let value = provider.featureValue(for: input.feature.name) else {
                if input.feature.isOptional { continue }
                throw ModelError.missingFeature(input.feature.name, expected: input.feature.type)
            }
            let blob = try blob(from: value, for: input)
            blobs[input.feature.name] = blob
            givenShapes[input.feature.name] = value.floatTensorValue?.shape ?? value.int32TensorValue?.shape ?? [1]
        }
        // The shapes the given inputs make, checked before any layer allocates its output.
        try blobBudget.plan(layers, inputs: blobs.mapValues { $0.shape.map(Optional.some) }) { layer, reason in layer.failure(reason) }
        var heldValues = blobs.values.reduce(0) { $0 + $1.count }
        for layer in layers {
            var arguments = [Blob?]()
            for (index, name) in layer.inputs.enumerated() {
                if let blob = blobs[name] {
                    arguments.append(blob)
                } else if layer.optionalInputs.contains(index) {
                    arguments.append(nil)
                } else {
                    throw CoreMLError.layerFailed(name: layer.name, kind: layer.kind, reason: "input '\(name)' was not given")
                }
            }
            let results = try layer.body(arguments)
            for (name, result) in zip(layer.outputs, results) {
                // Kernels work on non-empty buffers: no empty blob reaches a layer.
                guard result.count > 0 else { throw layer.failure("output '\(name)' would be empty (shape \(result.shape))") }
                heldValues += result.count - (blobs[name]?.count ?? 0)
                blobs[name] = result
            }
            // Every blob is kept to the end (any later layer may read it), so their sum is bounded, not only each one:
            // a thousand layers of 2^28 values each would otherwise exhaust the memory one layer at a time.
            try blobBudget.checkTotal(values: heldValues, making: layer.outputs.joined(separator: "', '"), fail: layer.failure)
        }
        var features = [String: FeatureValue]()
        if let classification {
            guard let probabilities = blobs[classification.probabilityBlob], probabilities.count == classification.count else {
                if let probabilities = blobs[classification.probabilityBlob] {
                    try checkOneRow(probabilities: probabilities.count, labels: classification.count, blobs: blobs, givenShapes: givenShapes)
                }
                let given = blobs[classification.probabilityBlob]
                throw CoreMLError.invalidModel(labelMismatch(classification, values: given?.count ?? 0, shape: "\(given?.shape ?? [])"))
            }
            let scores = probabilities.scalars
            let best = scores.indices.max { scores[$0] < scores[$1] } ?? 0
            switch classification.labels {
            case .strings(let labels):
                features[classification.labelFeature] = .string(labels[best])
                if let name = classification.probabilitiesFeature {
                    features[name] = .dictionary(Dictionary(uniqueKeysWithValues: zip(labels, scores.map(Double.init))))
                }
            case .integers(let labels):
                features[classification.labelFeature] = .int(Int(labels[best]))
                if let name = classification.probabilitiesFeature {
                    features[name] = .dictionary(Dictionary(uniqueKeysWithValues: zip(labels.map(String.init), scores.map(Double.init))))
                }
            }
        }
        for output in outputs where features[output.feature.name] == nil {
            guard let blob = blobs[output.feature.name] else {
                throw CoreMLError.invalidModel("output '\(output.feature.name)' was not made")
            }
            features[output.feature.name] = value(from: blob, for: output)
        }
        return features
    }

    /// A classifier makes one label from one row of input. When its probabilities come out as several rows of
    /// labels, the input held several rows (a `[Seq, Batch]` above one in the rank-5 layout, or an open dimension
    /// above one): that is the caller's input to fix, so the error names the input, its shape and the expected one,
    /// rather than blaming the model.
    private func checkOneRow(probabilities: Int, labels: Int, blobs: [String: Blob], givenShapes: [String: [Int]]) throws {
        guard labels > 0, probabilities > labels, probabilities % labels == 0 else { return }
        for input in inputs {
            let name = input.feature.name
            guard let blob = blobs[name], let given = givenShapes[name], let declared = input.shape else { continue }
            let rows: Int
            if rank5 {
                rows = blob.rank == 5 ? blob.shape[0] * blob.shape[1] : 1
            } else if declared.count == given.count {
                rows = zip(given, declared).reduce(1) { product, pair in pair.1 == nil ? product * pair.0 : product }
            } else {
                rows = 1
            }
            guard rows > 1 else { continue }
            let expected = declared.map { $0.map(String.init) ?? "?" }.joined(separator: ", ")
            throw ModelError.invalidFeatureValue(name, reason: "shape \(given) holds \(rows) rows, but the classifier makes one prediction from one row: expected shape [\(expected)]")
        }
    }

    /// An input value as a blob, in the layout the network expects; checks its shape against the declared one.
    private func blob(from value: FeatureValue, for input: FeatureSpecification) throws -> Blob {
        let name = input.feature.name
        let tensor: Blob
        switch value {
        case .floatTensor(let t): tensor = t
        case .int32Tensor(let t): tensor = Blob(shape: t.shape, scalars: t.scalars.map(Float.init))
        case .double(let d): tensor = Blob([Float(d)])
        case .int(let i): tensor = Blob([Float(i)])
        default:
            throw ModelError.wrongFeatureType(name, expected: input.feature.type, actual: value.type)
        }
        guard tensor.count > 0 else {
            throw ModelError.invalidFeatureValue(name, reason: "an empty tensor (shape \(tensor.shape))")
        }
        guard let declared = input.shape else {
            throw ModelError.wrongFeatureType(name, expected: input.feature.type, actual: value.type)
        }
        func matches(_ shape: ArraySlice<Int>, _ expected: [Int?]) -> Bool {
            shape.count == expected.count && zip(shape, expected).allSatisfy { $1 == nil || $0 == $1 }
        }
        let given = tensor.shape
        if !rank5 {
            guard declared.isEmpty || matches(given[...], declared) else {
                throw ModelError.wrongFeatureShape(name, expected: declared, actual: given)
            }
            return tensor
        }
        // Rank-5 layout: a [C] or [C, H, W] feature becomes [1, 1, C, (H, W)]; a sequence comes as [Seq, Batch, C]
        // (for a [C] feature) or as the full [Seq, Batch, C, H, W].
        let chw = declared.count == 1 ? declared + [1, 1] : declared
        if declared.isEmpty || matches(given[...], declared) {
            let channels = given.count == 1 ? given + [1, 1] : given
            return tensor.reshaped([Int](repeating: 1, count: max(0, 5 - channels.count)) + channels)
        }
        if declared.count == 1, given.count == 3, matches(given[2...], declared) {
            return tensor.reshaped(given + [1, 1])
        }
        if given.count == 5, matches(given[2...], chw) {
            return tensor
        }
        throw ModelError.wrongFeatureShape(name, expected: declared, actual: given)
    }

    /// A blob as an output feature: in the rank-5 layout, a single step of a single batch drops the `[Seq, Batch]`
    /// axes (and `[1, 1]` spatial axes of a vector), as Core ML reports such outputs.
    private func value(from blob: Blob, for output: FeatureSpecification) -> FeatureValue {
        var shape = blob.shape
        if rank5, shape.count == 5, shape[0] == 1, shape[1] == 1 {
            shape = shape[3] == 1 && shape[4] == 1 ? [shape[2]] : Array(shape[2...])
            if let declared = output.shape, !declared.isEmpty, declared.allSatisfy({ $0 != nil }),
               Shapes.checkedCount(declared.compactMap { $0 }, limit: Int.max) == blob.count {
                shape = declared.compactMap { $0 }
            }
        }
        if case .tensor(.int32, _) = output.feature.type {
            return .int32Tensor(Tensor(shape: shape, scalars: blob.scalars.map { Int32(exactly: $0.rounded()) ?? 0 }))
        }
        return .floatTensor(blob.reshaped(shape))
    }
}
