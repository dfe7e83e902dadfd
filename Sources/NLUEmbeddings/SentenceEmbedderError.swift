import Foundation

/// Why a sentence-transformers model cannot be loaded or a request cannot be served; each case names
/// the file, field or argument at fault and what was expected.
public enum SentenceEmbedderError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The directory holds neither `modules.json` nor a Hugging Face `config.json`.
    case notAModel(path: String)
    /// `modules.json` names a module type NLUKit does not run.
    case unsupportedModule(type: String, file: String)
    /// A configuration file is unreadable, or a field has a value we cannot use.
    case invalidFile(path: String, reason: String)
    /// An option or argument is out of range.
    case invalidOption(name: String, value: String, expected: String)
    /// The model computed a NaN or an infinity from finite weights (they overflow Float arithmetic).
    case nonFiniteOutput(model: String, detail: String)

    public var description: String {
        switch self {
        case let .notAModel(path):
            return "\(path): not a sentence-transformers model (expected modules.json, or config.json and model.safetensors of a BERT-family encoder)"
        case let .unsupportedModule(type, file):
            return "\(file): unsupported module \"\(type)\" (supported: \(ModuleKind.supportedNames))"
        case let .invalidFile(path, reason):
            return "\(path): \(reason)"
        case let .invalidOption(name, value, expected):
            return "invalid \(name) \(value) (expected \(expected))"
        case let .nonFiniteOutput(model, detail):
            return "\(model): the model computed a non-finite number (\(detail)): its weights overflow Float arithmetic, "
                + "and an embedding must hold finite numbers (JSON has no NaN or infinity)"
        }
    }

    public var errorDescription: String? { description }
}
