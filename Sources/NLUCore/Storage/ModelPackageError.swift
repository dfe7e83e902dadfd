import Foundation

/// Why a model package (`NAME.nlumodel/`) could not be loaded or saved; names the package, the
/// file inside it and, for the manifest, the JSON field at fault.
///
///     do { _ = try ModelPackage.load(from: url, kind: "intent-classifier", config: MyConfig.self) }
///     catch let error as ModelPackageError { print(error) }
///     // intents.nlumodel: is a 'language-model' package, expected 'intent-classifier'
public enum ModelPackageError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The package directory or a file inside it does not exist.
    case missingFile(package: URL, file: String)
    /// A file is where the package directory should be (a dataset or a weights file given as the model).
    case notADirectory(package: URL)
    /// `manifest.json` is not valid JSON, or a field is missing or of the wrong type (`field` is
    /// the JSON path, e.g. `config.hiddenSize`).
    case invalidManifest(package: URL, field: String, reason: String)
    /// The manifest's `format` is not `nlumodel`.
    case notAModelPackage(package: URL, format: String)
    /// The package was written by a newer NLUKit than this one.
    case unsupportedFormatVersion(package: URL, version: Int, supported: Int)
    /// The package holds a different kind of model than the caller asked for.
    case wrongKind(package: URL, kind: String, expected: String)
    /// The package cannot be written.
    case writeFailed(package: URL, reason: String)
    /// Something that may not be replaced is at the destination: what it `holds`, and the `remedy`.
    case destinationInUse(package: URL, holds: String, remedy: String)

    public var description: String {
        switch self {
        case let .notADirectory(package):
            return "\(package.path): a file, not a model package (a directory holding manifest.json and weights.safetensors)"
        case let .missingFile(package, file):
            return file.isEmpty ? "\(package.path): no such model package"
                : "\(package.path): missing \(file) (a model package holds manifest.json and weights.safetensors)"
        case let .invalidManifest(package, field, reason):
            return "\(package.path)/manifest.json: \(field.isEmpty ? "" : "field '\(field)': ")\(reason)"
        case let .notAModelPackage(package, format):
            return "\(package.path)/manifest.json: format is '\(format)', expected 'nlumodel'"
        case let .unsupportedFormatVersion(package, version, supported):
            return "\(package.path): format version \(version) was written by a newer NLUKit; this build reads versions up to \(supported)"
        case let .wrongKind(package, kind, expected):
            return "\(package.path): is a '\(kind)' package, expected '\(expected)'"
        case let .writeFailed(package, reason):
            return "\(package.path): cannot save the model package: \(reason)"
        case let .destinationInUse(package, holds, remedy):
            return "\(package.path): holds \(holds); refusing to replace it (\(remedy))"
        }
    }

    public var errorDescription: String? { description }
}
