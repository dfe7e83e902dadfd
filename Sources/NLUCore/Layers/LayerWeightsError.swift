import Foundation

/// A layer's weights do not fit together (e.g. a checkpoint tensor of the wrong shape); names
/// the tensor and the shape that was expected.
///
///     do { _ = try Linear(weight: w, bias: b) }
///     catch { print(error) }   // "Linear bias has shape [3], expected [2] (the weight's output size)"
public enum LayerWeightsError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case wrongShape(String, expected: String, actual: [Int])

    public var description: String {
        switch self {
        case let .wrongShape(name, expected, actual):
            return "\(name) has shape \(actual), expected \(expected)"
        }
    }

    public var errorDescription: String? { description }
}
