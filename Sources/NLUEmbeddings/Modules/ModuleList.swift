import Foundation
import NLUCore
import NLUInputOutput

/// The modules of a sentence-transformers model in order, read from `modules.json`
/// (`[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}, ...]`).
/// A plain Hugging Face encoder directory (no `modules.json`) is read as sentence-transformers reads
/// it: the transformer followed by mean pooling.
struct ModuleList {
    struct Entry: Decodable {
        var path: String
        var type: String
    }

    /// (kind, directory) in pipeline order.
    var modules: [(kind: ModuleKind, directory: URL)]

    init(modelDirectory: URL) throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: modelDirectory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw SentenceEmbedderError.notAModel(path: modelDirectory.path)
        }
        let listURL = modelDirectory.appendingPathComponent("modules.json")
        guard FileManager.default.fileExists(atPath: listURL.path) else {
            guard FileManager.default.fileExists(atPath: modelDirectory.appendingPathComponent("config.json").path) else {
                throw SentenceEmbedderError.notAModel(path: modelDirectory.path)
            }
            modules = [(.transformer, modelDirectory), (.pooling, modelDirectory)]
            return
        }
        let entries: [Entry] = try decodeJSON(at: listURL)
        modules = try entries.map { entry in
            guard let kind = ModuleKind(moduleType: entry.type) else {
                throw SentenceEmbedderError.unsupportedModule(type: entry.type, file: listURL.path)
            }
            // Module paths are relative to the model; one that climbs out of it is not ours to read.
            guard !entry.path.split(separator: "/").contains("..") else {
                throw SentenceEmbedderError.invalidFile(path: listURL.path, reason: "module path \"\(entry.path)\" leaves the model directory")
            }
            return (kind, entry.path.isEmpty ? modelDirectory : modelDirectory.appendingPathComponent(entry.path))
        }
        guard modules.first?.kind == .transformer, modules.dropFirst().allSatisfy({ $0.kind != .transformer }) else {
            throw SentenceEmbedderError.invalidFile(path: listURL.path, reason: "expected one Transformer module, first")
        }
        guard modules.contains(where: { $0.kind == .pooling }) else {
            throw SentenceEmbedderError.invalidFile(path: listURL.path, reason: "no Pooling module: token embeddings would need one to become a sentence embedding")
        }
    }
}

/// Decodes a JSON file, reporting the file and the field at fault.
func decodeJSON<T: Decodable>(at url: URL) throws -> T {
    let data: Data
    do { data = try InputFile.readModelFile(url) } catch let error as InputReadError {
        throw SentenceEmbedderError.invalidFile(path: url.path, reason: "cannot be read (\(error.reason))")
    }
    do {
        return try JSONDecoder().decode(T.self, from: data)
    } catch let error as SentenceEmbedderError {
        throw error
    } catch let error as DecodingError {
        let (field, reason) = JSONFile.describe(error, decoding: T.self, from: data)
        throw SentenceEmbedderError.invalidFile(path: url.path, reason: field.isEmpty ? reason : "field '\(field)': \(reason)")
    }
}
