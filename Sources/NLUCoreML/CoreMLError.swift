import Foundation

/// Why a `.mlmodel` file could not be read or run. Each case names the file, layer, feature or field at fault
/// and what was expected, so a user can act on it.
public enum CoreMLError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file could not be read at all.
    case unreadableFile(String, reason: String)
    /// The bytes are not a Core ML `Model` protobuf (or are truncated).
    case notAModel(String, reason: String)
    /// The file says it needs a newer Core ML specification than this reader knows.
    case newerSpecificationVersion(Int, newestSupported: Int)
    /// An ML Program (`.mlpackage` / `mlProgram`): a different format that this runner does not execute.
    case mlProgram
    /// A model type other than a neural network (classifier/regressor) or a pipeline of them.
    case unsupportedModelType(String)
    /// A layer kind this runner does not execute.
    case unsupportedLayer(name: String, kind: String)
    /// A supported layer kind with an option this runner does not execute.
    case unsupportedLayerOption(name: String, kind: String, option: String)
    /// A layer's weights or parameters do not match its declared sizes.
    case invalidLayer(name: String, kind: String, reason: String)
    /// The model's structure is inconsistent (a blob used before it is made, an output no layer makes, …).
    case invalidModel(String)
    /// A layer met inputs it cannot work on while predicting (wrong shape, index out of range, …).
    case layerFailed(name: String, kind: String, reason: String)
    /// Any of the above, found while loading the file at the path: so the message names the file.
    indirect case inFile(String, CoreMLError)

    public var description: String {
        switch self {
        case let .unreadableFile(path, reason):
            return "cannot read '\(path)': \(reason)"
        case let .notAModel(path, reason):
            return "'\(path)' is not a Core ML model file (.mlmodel protobuf): \(reason)"
        case let .newerSpecificationVersion(version, newest):
            return "the model needs Core ML specification version \(version); this reader knows versions up to \(newest)"
        case .mlProgram:
            return "the model is an ML Program (the .mlpackage format); only neural-network models (.mlmodel) run here — convert with coremltools' convert_to=\"neuralnetwork\""
        case let .unsupportedModelType(type):
            return "model type '\(type)' is not supported (supported: neuralNetwork, neuralNetworkClassifier, neuralNetworkRegressor, and pipelines of them)"
        case let .unsupportedLayer(name, kind):
            return "layer '\(name)' is of kind '\(kind)', which is not supported (see docs/coreml.md for the supported layers)"
        case let .unsupportedLayerOption(name, kind, option):
            return "layer '\(name)' (\(kind)): \(option) is not supported"
        case let .invalidLayer(name, kind, reason):
            return "layer '\(name)' (\(kind)): \(reason)"
        case let .invalidModel(reason):
            return "invalid model: \(reason)"
        case let .layerFailed(name, kind, reason):
            return "layer '\(name)' (\(kind)) failed: \(reason)"
        case let .inFile(path, error):
            return "\(path): \(error.description)"
        }
    }

    public var errorDescription: String? { description }
}
