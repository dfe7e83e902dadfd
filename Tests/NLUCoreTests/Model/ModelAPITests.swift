import Foundation
import Testing
@testable import NLUCore

/// A tiny model: `scaled = factor × values`, `total` = their sum, over a float tensor `[1, n]`,
/// with an optional `factor` input.
struct ScalingModel: Model {
    let modelDescription = ModelDescription(
        inputs: [
            .init(name: "values", type: .tensor(.float32, shape: [1, nil])),
            .init(name: "factor", type: .double, isOptional: true),
        ],
        outputs: [
            .init(name: "scaled", type: .tensor(.float32, shape: [1, nil])),
            .init(name: "total", type: .double),
        ])

    func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        try modelDescription.validate(input)
        let factor = Float(input.featureValue(for: "factor")?.doubleValue ?? 1)
        guard let values = input.featureValue(for: "values")?.floatTensorValue else {
            throw ModelError.missingFeature("values", expected: modelDescription.inputs[0].type)
        }
        let scaled = Tensor(shape: values.shape, scalars: values.scalars.map { $0 * factor })
        return DictionaryFeatureProvider(["scaled": .floatTensor(scaled),
                                          "total": .double(Double(scaled.scalars.reduce(0, +)))])
    }
}

/// A tiny stateful model: adds each `token` id to a running total kept in its state, which can
/// also be passed in and out as the `stateIn`/`stateOut` features (as the RNN sample does).
struct RunningTotalModel: StatefulModel {
    final class State: ModelState, @unchecked Sendable {
        // @unchecked: every access goes through the lock.
        private let lock = NSLock()
        private var storedTotal: Int = 0
        var total: Int {
            get { lock.withLock { storedTotal } }
            set { lock.withLock { storedTotal = newValue } }
        }
        func reset() { total = 0 }
    }

    let modelDescription = ModelDescription(
        inputs: [
            .init(name: "token", type: .int),
            .init(name: "stateIn", type: .int, isOptional: true),
        ],
        outputs: [
            .init(name: "total", type: .int),
            .init(name: "stateOut", type: .int),
        ])

    func makeState() -> State { State() }

    func prediction(from input: FeatureProvider, using state: State) throws -> FeatureProvider {
        try modelDescription.validate(input)
        if let stateIn = input.featureValue(for: "stateIn")?.intValue { state.total = stateIn }
        state.total += input.featureValue(for: "token")?.intValue ?? 0
        return DictionaryFeatureProvider(["total": .int(state.total), "stateOut": .int(state.total)])
    }

    func prediction(from input: FeatureProvider) throws -> FeatureProvider {
        try prediction(from: input, using: makeState())
    }
}

@Suite struct ModelAPITests {
    let model = ScalingModel()

    func values(_ scalars: [Float]) -> FeatureValue { .floatTensor(Tensor(shape: [1, scalars.count], scalars: scalars)) }

    @Test func predictsWithAndWithoutTheOptionalInput() throws {
        let plain = try model.prediction(from: DictionaryFeatureProvider(["values": values([1, 2, 3])]))
        #expect(plain.featureValue(for: "total") == .double(6))
        let scaled = try model.prediction(from: DictionaryFeatureProvider(["values": values([1, 2]), "factor": .double(0.5)]))
        #expect(scaled.featureValue(for: "scaled")?.floatTensorValue?.scalars == [0.5, 1])
        #expect(scaled.featureNames == ["scaled", "total"])
    }

    @Test func missingFeatureIsNamed() {
        #expect(throws: ModelError.missingFeature("values", expected: .tensor(.float32, shape: [1, nil]))) {
            try model.prediction(from: DictionaryFeatureProvider(["factor": .double(2)]))
        }
        let error = ModelError.missingFeature("values", expected: .tensor(.float32, shape: [1, nil]))
        #expect(error.description == "missing input feature 'values' (expected float32 tensor [1, ?])")
    }

    @Test func wrongTypeIsNamedWithExpectedAndActual() {
        #expect(throws: ModelError.wrongFeatureType("values", expected: .tensor(.float32, shape: [1, nil]), actual: .string)) {
            try model.prediction(from: DictionaryFeatureProvider(["values": .string("1 2 3")]))
        }
        // An optional input that is present must still have the declared type.
        #expect(throws: ModelError.wrongFeatureType("factor", expected: .double, actual: .int)) {
            try model.prediction(from: DictionaryFeatureProvider(["values": values([1]), "factor": .int(2)]))
        }
        // Int32 ids where floats are expected: the element type is part of the type.
        let ids = FeatureValue.int32Tensor(Tensor(shape: [1, 2], scalars: [1, 2]))
        #expect(throws: ModelError.self) { try model.prediction(from: DictionaryFeatureProvider(["values": ids])) }
    }

    @Test func wrongShapeIsRejected() throws {
        let wrongFixed = FeatureValue.floatTensor(Tensor(shape: [2, 3], repeating: 1))
        let error = try #require(throws: ModelError.self) {
            try model.prediction(from: DictionaryFeatureProvider(["values": wrongFixed]))
        }
        #expect(error == .wrongFeatureShape("values", expected: [1, nil], actual: [2, 3]))
        #expect(error.description == "input feature 'values' has shape [2, 3], expected [1, ?]")
        let wrongRank = FeatureValue.floatTensor(Tensor([1, 2, 3]))
        #expect(throws: ModelError.self) { try model.prediction(from: DictionaryFeatureProvider(["values": wrongRank])) }
        // The open dimension takes any length, including 0.
        #expect(try model.prediction(from: DictionaryFeatureProvider(["values": values([])])).featureValue(for: "total") == .double(0))
    }

    @Test func batchPredictionsMatchSinglePredictionsInOrder() throws {
        let inputs: [FeatureProvider] = (1...4).map { DictionaryFeatureProvider(["values": values([Float($0)]), "factor": .double(Double($0))]) }
        let batch = try model.predictions(from: inputs)
        #expect(batch.map { $0.featureValue(for: "total") } == [1, 4, 9, 16].map { FeatureValue.double($0) })
        // One bad input fails the batch with that input's error.
        let mixed = inputs + [DictionaryFeatureProvider([:])]
        #expect(throws: ModelError.self) { try model.predictions(from: mixed) }
    }

    @Test func statefulModelCarriesStateAcrossPredictions() throws {
        let counter = RunningTotalModel()
        let state = counter.makeState()
        let totals = try [3, 4, 5].map {
            try counter.prediction(from: DictionaryFeatureProvider(["token": .int($0)]), using: state).featureValue(for: "total")
        }
        #expect(totals == [.int(3), .int(7), .int(12)])
        state.reset()
        let afterReset = try counter.prediction(from: DictionaryFeatureProvider(["token": .int(1)]), using: state)
        #expect(afterReset.featureValue(for: "total") == .int(1))
        // Independent states do not interfere.
        let other = counter.makeState()
        _ = try counter.prediction(from: DictionaryFeatureProvider(["token": .int(10)]), using: other)
        #expect(state.total == 1 && other.total == 10)
    }

    @Test func statefulModelAcceptsStateAsOrdinaryFeatures() throws {
        let counter = RunningTotalModel()
        var stateFeature: FeatureValue? = nil
        for token in [2, 2, 2] {
            var input = DictionaryFeatureProvider(["token": .int(token)])
            input["stateIn"] = stateFeature
            stateFeature = try counter.prediction(from: input).featureValue(for: "stateOut")
        }
        #expect(stateFeature == .int(6))
        #expect(throws: ModelError.wrongFeatureType("stateIn", expected: .int, actual: .string)) {
            try counter.prediction(from: DictionaryFeatureProvider(["token": .int(1), "stateIn": .string("x")]))
        }
    }
}
