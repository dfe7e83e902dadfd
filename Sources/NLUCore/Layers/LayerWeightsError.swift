import Foundation

/// A layer's weights are missing or do not fit together (e.g. a checkpoint tensor of the wrong
/// shape); names the tensor and what was expected. Thrown by ``Linear``, ``Embedding``,
/// ``LayerNorm``, ``LSTM`` and ``GRU``.
///
///     do { _ = try Linear(weight: w, bias: b) }
///     catch { print(error) }   // "Linear bias has shape [3], expected [2] (the weight's output size)"
public enum LayerWeightsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The tensor described by the first value has shape `actual`; `expected` says what it should be.
    case wrongShape(String, expected: String, actual: [Int])
    /// A named tensor the layer needs is not there (e.g. not in the checkpoint).
    case missingTensor(String)
    /// A recurrent network was configured with no layers.
    case noLayers

    /// A named weight tensor (e.g. `rnn.weight_hh_l1`) whose shape differs from the one the
    /// network's configuration calls for.
    static func wrongShape(tensor name: String, expected: [Int], actual: [Int]) -> LayerWeightsError {
        .wrongShape("weight tensor '\(name)'", expected: "\(expected) from the configuration", actual: actual)
    }

    public var description: String {
        switch self {
        case let .wrongShape(name, expected, actual):
            return "\(name) has shape \(actual), expected \(expected)"
        case .missingTensor(let name): return "weight tensor '\(name)' is missing"
        case .noLayers: return "a recurrent network needs at least one layer"
        }
    }

    public var errorDescription: String? { description }
}
