import Foundation
import NLUCore
import NLUEmbeddings
import NLUSearch

/// A sentence-transformers model (``SentenceEmbedder``) as a ``TextEmbedder`` for a
/// ``DocumentIndex``: its identity is the model's name (for display), the embedding dimension and
/// a fingerprint of the model's files. The fingerprint and the dimension say which model it is
/// (``isSameModel(as:)``): an index accepts the same files under any folder name or path (a
/// renamed copy, another snapshot of the Hugging Face cache with the same files) and refuses a
/// different model under the same name.
///
///     let embedder = try SentenceIndexEmbedder(modelDirectory: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let index = try DocumentIndex.create(at: url, embedder: embedder, modelSource: "all-MiniLM-L6-v2")
public struct SentenceIndexEmbedder: TextEmbedder {
    public let embedder: SentenceEmbedder
    public let identity: EmbedderIdentity

    public init(modelDirectory: URL) throws {
        embedder = try SentenceEmbedder(modelDirectory: modelDirectory)
        identity = EmbedderIdentity(name: Self.name(of: modelDirectory), dimension: embedder.dimension,
                                    revision: Self.fingerprint(of: modelDirectory))
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        try embedder.embed(texts, options: EmbeddingOptions())
    }

    /// The same dimension and fingerprint (``fingerprint(of:)``): the same files, wherever they are.
    /// The name is not compared: it is where the files were when the index was made (a folder that
    /// may be renamed or moved), and an index made before the Hub id was recorded as the name holds a
    /// snapshot's commit hash there. The fingerprint is never that of another kind of embedder (the
    /// hashing embedder's revision is "1"), so this accepts no other kind.
    public func isSameModel(as recorded: EmbedderIdentity) -> Bool {
        recorded.dimension == identity.dimension && recorded.revision == identity.revision
    }

    /// The model's name: the Hub id of a snapshot in the Hugging Face cache
    /// (`models--ORG--NAME/snapshots/COMMIT` is `ORG/NAME`), else the directory's name; a directory
    /// called `model` (as Python packages ship models) takes its parent's.
    static func name(of directory: URL) -> String {
        if let repository = HubModelID.repository(ofSnapshot: directory) { return repository }
        let url = directory.standardizedFileURL
        return url.lastPathComponent == "model" ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
    }

    /// FNV-1a over the configuration files and the weights' size, first and last megabyte: cheap
    /// to compute at every open, and different for retrained or re-quantized weights.
    static func fingerprint(of directory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        for name in ["modules.json", "config.json", "sentence_bert_config.json", "1_Pooling/config.json"] {
            mix(name.utf8)
            if let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path) { mix(data) }
        }
        let weights = directory.appendingPathComponent("model.safetensors").path
        if let handle = FileHandle(forReadingAtPath: weights), let size = try? handle.seekToEnd() {
            defer { try? handle.close() }
            mix(String(size).utf8)
            let window: UInt64 = 1 << 20
            try? handle.seek(toOffset: 0)
            if let head = try? handle.read(upToCount: Int(window)) { mix(head) }
            try? handle.seek(toOffset: size > window ? size - window : 0)
            if let tail = try? handle.read(upToCount: Int(window)) { mix(tail) }
        }
        return String(format: "%016llx", hash)
    }
}
