import Foundation
import NLUCore
import NLUInputOutput

/// A Hugging Face checkpoint directory as `transformers` saves it: `config.json` beside
/// `model.safetensors`. Every model built on the encoder reads its files through here, so a missing
/// or unreadable file is reported the same way everywhere.
///
///     let checkpoint = try CheckpointDirectory(URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let config = try checkpoint.configuration()
///     let weights = try checkpoint.weights()
public struct CheckpointDirectory: Sendable {
    /// The directory.
    public let url: URL

    /// Checks that `url` is a directory (its files are read on demand).
    /// - Throws: ``CheckpointError/missingFile(path:expected:)`` when it is not.
    public init(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CheckpointError.missingFile(path: url.path, expected: "a model directory with config.json and model.safetensors")
        }
        self.url = url
    }

    /// Decodes `config.json`.
    /// - Throws: ``CheckpointError`` naming the file and the field at fault.
    public func configuration() throws -> BertConfiguration {
        let configURL = url.appendingPathComponent("config.json")
        let data = try configurationData()
        do {
            return try JSONDecoder().decode(BertConfiguration.self, from: data)
        } catch let error as BertConfigurationError {
            throw CheckpointError.unreadableFile(path: configURL.path, reason: error.description)
        } catch let error as DecodingError {
            let (field, reason) = JSONFile.describe(error, decoding: BertConfiguration.self, from: data)
            throw CheckpointError.unreadableFile(path: configURL.path, reason: field.isEmpty ? reason : "field '\(field)': \(reason)")
        }
    }

    /// The bytes of `config.json`, for a reader of fields ``BertConfiguration`` does not hold.
    /// - Throws: as ``readFile(_:expected:)``.
    public func configurationData() throws -> Data {
        try Self.readFile(url.appendingPathComponent("config.json"), expected: "the model configuration (config.json)")
    }

    /// The bytes of one of a checkpoint's own JSON or text files, up to ``InputFile/modelFileMaximumBytes``: a
    /// `config.json` that is a FIFO or a link to `/dev/zero` is an error, not a hang.
    /// - Throws: ``CheckpointError/missingFile(path:expected:)`` (saying what `expected` there) when it does not
    ///   exist, ``CheckpointError/unreadableFile(path:reason:)`` with the system's reason when it cannot be read,
    ///   ``InputTooLargeError`` past the limit.
    public static func readFile(_ url: URL, expected: String) throws -> Data {
        do {
            return try InputFile.readModelFile(url)
        } catch let error as InputReadError {
            throw error.isMissing ? CheckpointError.missingFile(path: url.path, expected: expected)
                                  : CheckpointError.unreadableFile(path: url.path, reason: error.reason)
        }
    }

    /// Opens `model.safetensors` (memory-mapped).
    /// - Throws: ``CheckpointError/missingFile(path:expected:)`` when it is absent (a directory with
    ///   only `pytorch_model.bin` is told so), or the reader's error for a malformed file.
    public func weights() throws -> SafeTensors {
        let weightsURL = url.appendingPathComponent("model.safetensors")
        guard FileManager.default.fileExists(atPath: weightsURL.path) else {
            let hasPickle = FileManager.default.fileExists(atPath: url.appendingPathComponent("pytorch_model.bin").path)
            throw CheckpointError.missingFile(
                path: weightsURL.path,
                expected: hasPickle ? "the model weights in safetensors format (this directory has only pytorch_model.bin, which NLUKit does not read: convert it with safetensors)"
                    : "the model weights in safetensors format")
        }
        return try SafeTensors(contentsOf: weightsURL)
    }
}
