import Foundation

/// Why a Hugging Face checkpoint directory cannot be loaded; each case names the file or tensor.
public enum CheckpointError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The directory, or a file it must contain, does not exist.
    case missingFile(path: String, expected: String)
    /// A JSON file could not be read or decoded.
    case unreadableFile(path: String, reason: String)
    /// A tensor the architecture needs is not in the weights file.
    case missingTensor(name: String, file: String)
    /// A tensor of one of the layers config.json asks for is not in the weights file (a layer count
    /// larger than the checkpoint's, or a layer with a tensor missing).
    case missingLayerTensor(name: String, layer: Int, layers: Int, file: String)
    /// A tensor has a shape other than the configuration implies.
    case wrongShape(name: String, expected: [Int], actual: [Int], file: String)
    /// The weights file holds tensors the architecture does not use (a sign of a different model).
    case unusedTensors(names: [String], file: String)

    public var description: String {
        switch self {
        case let .missingFile(path, expected):
            return "\(path): not found (expected \(expected))"
        case let .unreadableFile(path, reason):
            return "\(path): \(reason)"
        case let .missingTensor(name, file):
            return "\(file): missing tensor '\(name)'"
        case let .missingLayerTensor(name, layer, layers, file):
            return "\(file): missing tensor '\(name)' of layer \(layer) (config.json gives \(layers) layers)"
        case let .wrongShape(name, expected, actual, file):
            return "\(file): tensor '\(name)' has shape \(actual), expected \(expected) (the sizes config.json gives)"
        case let .unusedTensors(names, file):
            let shown = names.prefix(5).map { "'\($0)'" }.joined(separator: ", ")
            // A task head says what the checkpoint is for: a QA model given where an embedder is expected.
            let head = names.contains { $0.hasPrefix("qa_outputs.") } ? "; it has a question-answering head: a QA checkpoint, not a sentence encoder"
                : names.contains { $0.hasPrefix("classifier.") } ? "; it has a classification head" : ""
            return "\(file): unused tensor\(names.count == 1 ? "" : "s") \(shown)\(names.count > 5 ? " and \(names.count - 5) more" : "") (not part of this architecture\(head))"
        }
    }

    public var errorDescription: String? { description }
}
