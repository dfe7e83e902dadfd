import Foundation
import NLUCore
import SwiftProtobuf
import NLUInputOutput

/// Reads the `Model` protobuf of a `.mlmodel` file and refuses, with a clear error, what cannot be a model.
enum SpecificationReader {
    /// The newest Core ML specification version this reader knows (Core ML 8: iOS 18 / macOS 15).
    static let newestSpecificationVersion = 9
    /// Protobuf messages are limited to 2 GiB; a larger file cannot be one.
    static let largestFile = 2 << 30

    static func read(contentsOf url: URL) throws -> CoreML_Specification_Model {
        let path = url.path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CoreMLError.unreadableFile(path, reason: "no such file")
        }
        if isDirectory.boolValue {
            // An .mlpackage is a directory holding an ML Program (or a wrapped .mlmodel we could read).
            let wrapped = url.appendingPathComponent("Data/com.apple.CoreML/model.mlmodel")
            var wrappedIsDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: wrapped.path, isDirectory: &wrappedIsDirectory) {
                // Read one level down only: a package whose model.mlmodel links back to the package itself was read
                // again and again, until the system refused the path, and the error named a path of 40 levels.
                guard !wrappedIsDirectory.boolValue else {
                    throw CoreMLError.unreadableFile(wrapped.path, reason: "is a directory, expected the package's .mlmodel file")
                }
                let spec = try read(contentsOf: wrapped)
                if case .mlProgram = spec.type { throw CoreMLError.inFile(path, .mlProgram) }
                return spec
            }
            throw CoreMLError.unreadableFile(path, reason: "is a directory, expected a .mlmodel file")
        }
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        let size = attributes?[.size] as? Int ?? 0
        guard size <= largestFile else {
            throw CoreMLError.notAModel(path, reason: "\(size) bytes is larger than a protobuf message can be (2 GiB)")
        }
        let data: Data
        do {
            // A pipe (`/dev/stdin` fed by `cat`, a FIFO) cannot be mapped, and reading it as a file failed with
            // "input/output error": a stream is read into memory instead, up to the process's input limit (an
            // endless stream must fail within seconds and well under 1 GB; a larger model raises the limit).
            let regular = attributes?[.type] as? FileAttributeType == .typeRegular
            data = regular ? try Data(contentsOf: url, options: .mappedIfSafe)
                           : try InputFile.read(url, maximumBytes: min(InputFile.maximumBytes, largestFile))
        } catch is InputTooLargeError {
            let limit = min(InputFile.maximumBytes, largestFile)
            throw CoreMLError.notAModel(path, reason: "the stream holds more than \(limit >> 20) MiB, the input limit for a model read from a pipe; raise it with \(InputFile.limitAdvice), up to 2 GiB: a protobuf message holds no more")
        } catch {
            throw CoreMLError.unreadableFile(path, reason: ExistingPath.unreadableReason(url.path))
        }
        do {
            return try decode(data, path: path)
        } catch let error as CoreMLError {
            // decode's own errors name the path; the version checks (which also run on bytes
            // without a file) do not.
            switch error {
            case .notAModel, .unreadableFile, .inFile: throw error
            default: throw CoreMLError.inFile(path, error)
            }
        }
    }

    /// Decodes and sanity-checks a model. swift-protobuf checks every length prefix against the bytes that remain
    /// before it allocates, and limits nesting depth, so hostile bytes fail fast instead of exhausting memory.
    static func decode(_ data: Data, path: String) throws -> CoreML_Specification_Model {
        guard !data.isEmpty else { throw CoreMLError.notAModel(path, reason: "the file is empty") }
        let model: CoreML_Specification_Model
        do {
            var options = BinaryDecodingOptions()
            options.messageDepthLimit = 64
            model = try CoreML_Specification_Model(serializedBytes: data, options: options)
        } catch {
            throw CoreMLError.notAModel(path, reason: "protobuf decoding failed (\(error)); the file may be truncated or of another format")
        }
        guard model.specificationVersion > 0, model.hasDescription_p, model.type != nil else {
            throw CoreMLError.notAModel(path, reason: "no specification version, description or model type")
        }
        try checkVersion(model)
        return model
    }

    static func checkVersion(_ model: CoreML_Specification_Model) throws {
        if case .mlProgram = model.type { throw CoreMLError.mlProgram }
        guard Int(model.specificationVersion) <= newestSpecificationVersion else {
            throw CoreMLError.newerSpecificationVersion(Int(model.specificationVersion), newestSupported: newestSpecificationVersion)
        }
    }

    /// The model type's name as the `.proto` spells it (`neuralNetwork`, `treeEnsembleClassifier`, …).
    static func typeName(of model: CoreML_Specification_Model) -> String {
        guard let type = model.type, let label = Mirror(reflecting: type).children.first?.label else { return "none" }
        return label
    }
}
