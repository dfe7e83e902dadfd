/// A model that maps named input features to named output features (the `MLModel` of NLUKit).
///
///     let output = try model.prediction(from: DictionaryFeatureProvider(["text": .string("hi")]))
///     let scores = output.featureValue(for: "entities")?.dictionaryValue
public protocol Model: Sendable {
    /// The model's inputs and outputs.
    var modelDescription: ModelDescription { get }
    /// Runs the model on one input.
    func prediction(from input: FeatureProvider) throws -> FeatureProvider
    /// Runs the model on several inputs; the default calls ``prediction(from:)`` for each,
    /// models that can batch override it.
    func predictions(from inputs: [FeatureProvider]) throws -> [FeatureProvider]
}

extension Model {
    public func predictions(from inputs: [FeatureProvider]) throws -> [FeatureProvider] {
        try inputs.map { try prediction(from: $0) }
    }
}

/// The state a ``StatefulModel`` carries from one prediction to the next (the `MLState`).
/// A fresh state is the start of a new sequence.
public protocol ModelState: AnyObject, Sendable {
    /// Returns the state to its initial value (the start of a new sequence).
    func reset()
}

/// A model whose predictions depend on earlier ones through a ``ModelState``.
///
///     let state = model.makeState()
///     for word in ["the", "cat"] {
///         let out = try model.prediction(from: DictionaryFeatureProvider(["previousWord": .string(word)]),
///                                        using: state)
///     }
public protocol StatefulModel: Model {
    associatedtype State: ModelState
    /// A new state at the start of a sequence.
    func makeState() -> State
    /// Runs one step, reading and updating `state` in place.
    func prediction(from input: FeatureProvider, using state: State) throws -> FeatureProvider
}
