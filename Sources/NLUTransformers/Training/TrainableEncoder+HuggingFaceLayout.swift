import Foundation
import NLUCore
import NLUInputOutput

extension TrainableEncoder {
    /// The metadata a fine-tuned `model.safetensors` carries: `format` `pt`, which `transformers`
    /// requires, and the mark by which a later save recognises a folder it may replace.
    public static let savedCheckpointMetadata = ["format": "pt", "written_by": "NLUKit fine-tuning"]

    /// Files of a checkpoint's transformer folder copied as they are: the configuration, every
    /// tokenizer file `transformers` reads, and sentence-transformers' per-model settings.
    static let copiedCheckpointFiles = [
        "config.json", "vocab.txt", "tokenizer.json", "tokenizer_config.json", "special_tokens_map.json", "added_tokens.json",
        "merges.txt", "vocab.json", "sentencepiece.bpe.model", "spiece.model", "sentence_bert_config.json",
    ]
    /// sentence-transformers' files at the root of its model folder.
    static let copiedSentenceTransformersFiles = ["modules.json", "config_sentence_transformers.json", "sentence_bert_config.json"]

    /// Writes the fine-tuned encoder in the Hugging Face layout, as a folder `transformers`
    /// (`AutoModel`), `sentence-transformers` and every NLUKit `--model` load: `model.safetensors`
    /// with this encoder's weights under the tensor names of the checkpoint it came from (`source`,
    /// F32; tensors the encoder does not train, such as BERT's pooler, copied from there unchanged),
    /// and `config.json` and the tokenizer files copied from `source`. A sentence-transformers
    /// folder keeps its layout: `modules.json`, and its other modules' folders (`1_Pooling`,
    /// `2_Dense`, ...) copied whole.
    ///
    /// The folder is written beside `destination` and swapped in at the end, so an interrupted save
    /// leaves what was there. `destination` may hold nothing, an empty folder, or a folder an earlier
    /// save wrote (recognised by ``savedCheckpointMetadata``); anything else is refused before writing.
    ///
    ///     let encoder = try TrainableEncoder(checkpoint: source)
    ///     // ... train ...
    ///     try encoder.save(to: URL(fileURLWithPath: "fine-tuned"), source: source)
    /// - Throws: ``ModelPackageError/destinationInUse(package:holds:remedy:)`` for a destination that
    ///   may not be replaced (or is `source`), ``OutputPath/Error`` for a folder that cannot be written
    ///   in, ``CheckpointError`` for an unreadable source, ``ModelPackageError/writeFailed(package:reason:)``
    ///   when writing fails.
    public func save(to destination: URL, source: URL) throws {
        let destination = try Self.checkReplaceable(destination, source: source)
        let sentenceModules = try Self.sentenceTransformerModules(in: source)
        let transformerPath = Self.transformerPath(sentenceModules)
        let sourceCheckpoint = transformerPath.isEmpty ? source : source.appendingPathComponent(transformerPath)
        let weights = try CheckpointDirectory(sourceCheckpoint).weights()

        try ModelPackage.writeFolder(to: destination) { folder in
            let checkpointFolder = transformerPath.isEmpty ? folder : folder.appendingPathComponent(transformerPath)
            try FileManager.default.createDirectory(at: checkpointFolder, withIntermediateDirectories: true)
            try SafeTensors.write(tensorsUnderStoredNames(weights), metadata: Self.savedCheckpointMetadata,
                                  to: checkpointFolder.appendingPathComponent("model.safetensors"))
            for name in Self.copiedCheckpointFiles {
                try Self.copyIfPresent(sourceCheckpoint.appendingPathComponent(name), to: checkpointFolder.appendingPathComponent(name))
            }
            if let sentenceModules {
                for name in Self.copiedSentenceTransformersFiles {
                    try Self.copyIfPresent(source.appendingPathComponent(name), to: folder.appendingPathComponent(name))
                }
                // Modules without files (Normalize) may have no folder at all.
                for module in sentenceModules where !module.path.isEmpty && module.path != transformerPath {
                    try Self.copyIfPresent(source.appendingPathComponent(module.path), to: folder.appendingPathComponent(module.path))
                }
            }
        }
    }

    /// Every float tensor of the source file, by its stored name: the trained value for the
    /// encoder's parameters (under whatever prefix or legacy LayerNorm name the source used), the
    /// source's own for the rest. Integer buffers (`position_ids`) are left out: `transformers`
    /// rebuilds them.
    private func tensorsUnderStoredNames(_ weights: SafeTensors) throws -> [String: Tensor<Float>] {
        let lookup = CheckpointTensors(file: weights, family: configuration.architecture.family)
        var tensors: [String: Tensor<Float>] = [:]
        var trained: Set<String> = []
        for (index, name) in parameters.names.enumerated() {
            let stored = lookup.storedName(name) ?? name
            tensors[stored] = parameters.values[index]
            trained.insert(stored)
        }
        for name in weights.names where !trained.contains(name) {
            guard let info = weights.info(name), [.F32, .F16, .BF16].contains(info.dtype) else { continue }
            tensors[name] = try weights.floatTensor(name)
        }
        return tensors
    }

    /// The folder of a model's encoder checkpoint: the sentence-transformers Transformer module's
    /// (`0_Transformer/` in older layouts, the model folder itself in newer ones), else `model` itself.
    ///
    ///     let checkpoint = try TrainableEncoder.checkpointDirectory(ofModel: url)   // url or url/0_Transformer
    /// - Throws: ``CheckpointError`` for a `modules.json` that cannot be read or leaves the folder.
    public static func checkpointDirectory(ofModel model: URL) throws -> URL {
        let path = transformerPath(try sentenceTransformerModules(in: model))
        return path.isEmpty ? model : model.appendingPathComponent(path)
    }

    private static func transformerPath(_ modules: [(path: String, type: String)]?) -> String {
        modules?.first(where: { $0.type.hasSuffix(".Transformer") })?.path ?? ""
    }

    /// `modules.json`'s entries, or nil for a plain checkpoint folder.
    private static func sentenceTransformerModules(in source: URL) throws -> [(path: String, type: String)]? {
        struct Entry: Decodable {
            var path: String
            var type: String
        }
        let url = source.appendingPathComponent("modules.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try CheckpointDirectory.readFile(url, expected: "sentence-transformers' module list (modules.json)")
        let entries = try JSONFile.decode([Entry].self, from: data, file: url.path)
        // A module path that climbs out of the model would copy a folder that is not the model's.
        if let entry = entries.first(where: { $0.path.hasPrefix("/") || $0.path.split(separator: "/").contains("..") }) {
            throw CheckpointError.unreadableFile(path: url.path, reason: "module path \"\(entry.path)\" leaves the model directory")
        }
        return entries.map { ($0.path, $0.type) }
    }

    static func copyIfPresent(_ source: URL, to target: URL) throws {
        // sentence_bert_config.json is both a checkpoint file and a root file when they share a folder.
        guard FileManager.default.fileExists(atPath: source.path), !FileManager.default.fileExists(atPath: target.path) else { return }
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: source, to: target)
    }

    /// Checks `destination` before any work (see ``save(to:source:)``) and returns it with links followed.
    static func checkReplaceable(_ destination: URL, source: URL) throws -> URL {
        let url: URL
        do {
            url = try ExistingPath.resolvingSymbolicLinks(destination.standardizedFileURL)
        } catch {
            throw ModelPackageError.destinationInUse(package: destination, holds: "a loop of symbolic links", remedy: "choose another folder")
        }
        if ExistingPath.isSameFile(url, source) {
            throw ModelPackageError.destinationInUse(package: destination, holds: "the checkpoint being fine-tuned", remedy: "choose another folder")
        }
        switch ExistingPath(url) {
        case .nothing:
            try OutputPath.checkFolderWritable(url)
            return url
        case .directory:
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []
            if entries.isEmpty { return url }
            // A sentence-transformers folder saved in the older layout keeps its weights in `0_Transformer/`.
            let modulePath = Self.transformerPath((try? Self.sentenceTransformerModules(in: url)) ?? nil)
            let checkpointFolder = modulePath.isEmpty ? url : url.appendingPathComponent(modulePath)
            let weightsURL = checkpointFolder.appendingPathComponent("model.safetensors")
            let marked = (try? SafeTensors(contentsOf: weightsURL))?.metadata["written_by"] == savedCheckpointMetadata["written_by"]
            let currentDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
            guard marked, url.path != "/", !ExistingPath.isSameFile(url, currentDirectory) else {
                throw ModelPackageError.destinationInUse(
                    package: destination, holds: "a folder that is not a fine-tuned checkpoint NLUKit saved (\(entries.count) entries)",
                    remedy: "choose a new or empty folder, or move it away yourself")
            }
            return url
        default:
            throw ModelPackageError.destinationInUse(package: destination, holds: "a file, not a folder", remedy: "choose a new or empty folder")
        }
    }
}
