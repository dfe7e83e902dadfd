import NLUCore

/// What holds a fine-tuning run's trained weights and can give them as values and take them back: an
/// encoder alone (``TrainableEncoder``, sentence-embedding runs), or a ``FineTuningTrainer``'s encoder and
/// heads. ``BestEpochKeeper`` keeps the best epoch's through it.
public protocol TrainedWeights: AnyObject {
    /// The parameters' names, in the order of ``weights``.
    var weightNames: [String] { get }
    /// Every trained weight: values that later steps do not change (a tensor is copied on its next write).
    var weights: [Tensor<Float>] { get }
    /// Puts back weights taken from ``weights``.
    /// - Throws: ``TrainingSettingError`` (setting `weights`) naming the first tensor whose shape is not
    ///   this holder's, or a count that is not its parameters'.
    func load(_ weights: [Tensor<Float>]) throws
}

extension TrainedWeights {
    /// Refuses `weights` that are not `shapes`, in count or shape (the names come from ``weightNames``).
    func check(_ weights: [Tensor<Float>], shapes: [[Int]]) throws {
        let names = weightNames
        guard weights.count == shapes.count else {
            throw TrainingSettingError(setting: "weights", value: "\(weights.count) tensors", requirement: "this run's \(shapes.count) parameters")
        }
        if let index = weights.indices.first(where: { weights[$0].shape != shapes[$0] }) {
            throw TrainingSettingError(setting: "weights", value: "\(names[index]) of shape \(weights[index].shape)",
                                       requirement: "the shape \(shapes[index]) of this run's \(names[index])")
        }
    }
}

extension TrainableEncoder: TrainedWeights {
    public var weightNames: [String] { parameters.names }
    public var weights: [Tensor<Float>] { parameters.values }

    public func load(_ weights: [Tensor<Float>]) throws {
        try check(weights, shapes: parameters.shapes)
        parameters.values = weights
    }
}
