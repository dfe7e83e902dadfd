import Foundation
import NLUEmbeddings
import NLUSearch

/// A sentence-transformers model (``SentenceEmbedder``) as a ``TextEmbedder`` for a
/// ``DocumentIndex``: its identity is the directory's name, the embedding dimension and a
/// fingerprint of the model's files, so an index refuses a different model under the same name.
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

    /// The directory's name; a directory called `model` (as Python packages ship models) takes its parent's.
    static func name(of directory: URL) -> String {
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
