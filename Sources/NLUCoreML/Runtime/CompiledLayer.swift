/// One layer of a neural network, checked and with its weights decoded at load, ready to run.
///
/// `body` receives the layer's input blobs in order (`nil` for an optional input that was not given, such as a
/// recurrent layer's initial state) and returns its output blobs in order.
struct CompiledLayer: Sendable {
    let name: String
    let kind: String
    let inputs: [String]
    let outputs: [String]
    /// Indices into `inputs` that may be missing when the layer runs.
    var optionalInputs: Set<Int> = []
    /// The output shapes from the input shapes, computed without running the layer (set by ``LayerCompiler``).
    var shapeRule: ShapeInference.Rule = { _ in InferredShapes(outputs: []) }
    let body: @Sendable ([Blob?]) throws -> [Blob]

    /// An error about this layer met while predicting.
    func failure(_ reason: String) -> CoreMLError { .layerFailed(name: name, kind: kind, reason: reason) }
}

/// What a layer builder needs besides the layer itself.
struct LayerContext {
    let name: String
    let kind: String
    let inputs: [String]
    let outputs: [String]
    /// Whether blobs use the old rank-5 `[Seq, Batch, C, H, W]` layout (else the ND layout).
    let rank5: Bool
    /// The load's count of decoded weights (shared by every layer of the model).
    let budget: WeightBudget

    var weights: WeightDecoder { WeightDecoder(layer: name, kind: kind, budget: budget) }

    func invalid(_ reason: String) -> CoreMLError { .invalidLayer(name: name, kind: kind, reason: reason) }
    func unsupported(_ option: String) -> CoreMLError { .unsupportedLayerOption(name: name, kind: kind, option: option) }

    /// Checks the number of inputs and outputs the layer declares.
    func expect(inputs inputRange: ClosedRange<Int>, outputs outputRange: ClosedRange<Int>) throws {
        guard inputRange.contains(inputs.count) else {
            throw invalid("has \(inputs.count) inputs, expected \(inputRange.lowerBound == inputRange.upperBound ? "\(inputRange.lowerBound)" : "\(inputRange.lowerBound) to \(inputRange.upperBound)")")
        }
        guard outputRange.contains(outputs.count) else {
            throw invalid("has \(outputs.count) outputs, expected \(outputRange.lowerBound == outputRange.upperBound ? "\(outputRange.lowerBound)" : "\(outputRange.lowerBound) to \(outputRange.upperBound)")")
        }
    }

    /// A layer whose every input must be present.
    func layer(_ body: @escaping @Sendable (_ inputs: [Blob], _ fail: (String) -> CoreMLError) throws -> [Blob]) -> CompiledLayer {
        let name = self.name, kind = self.kind
        return CompiledLayer(name: name, kind: kind, inputs: inputs, outputs: outputs) { blobs in
            let fail = { (reason: String) in CoreMLError.layerFailed(name: name, kind: kind, reason: reason) }
            let present = blobs.compactMap { $0 }
            guard present.count == blobs.count else { throw fail("a required input is missing") }
            return try body(present, fail)
        }
    }

    /// A one-input, one-output layer.
    func unary(_ body: @escaping @Sendable (_ input: Blob, _ fail: (String) -> CoreMLError) throws -> Blob) -> CompiledLayer {
        layer { inputs, fail in [try body(inputs[0], fail)] }
    }

    /// Checks a count read from the file before it sizes anything.
    func checkedSize(_ value: UInt64, _ field: String, limit: UInt64 = 1 << 28) throws -> Int {
        guard value > 0, value <= limit else { throw invalid("\(field) is \(value), expected 1 to \(limit)") }
        return Int(value)
    }
}
