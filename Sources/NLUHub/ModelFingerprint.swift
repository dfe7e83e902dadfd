import Foundation
import NLUCore
import NLUInputOutput

/// What identifies a sentence-transformers model's files, recorded by a search index and by an
/// intent model package trained on its embeddings: the same files are recognized wherever they are,
/// and other files are refused under any name.
///
/// The fingerprint is `sha256:` and 16 hex digits of a SHA-256 over the configuration files and the
/// SHA-256 of the whole weights file (``WeightsDigest``: free in the Hugging Face cache, else hashed
/// once and remembered). Before, it was 16 hex digits of FNV-1a over the configuration files and the
/// weights' size, first and last megabyte (``legacy(of:)``), which took two fine-tunes that differ
/// only in their middle layers for one model; what recorded that form is still compared by it.
///
///     let recorded = ModelFingerprint.of(modelDirectory)   // "sha256:3b0c9f1e0d6a2b47"
///     ModelFingerprint.matches(recorded, current: recorded, directory: modelDirectory)   // true
public enum ModelFingerprint {
    /// The configuration files read whole, in this order.
    static let configurationFiles = ["modules.json", "config.json", "sentence_bert_config.json", "1_Pooling/config.json"]
    /// The weights file.
    static let weightsFile = "model.safetensors"

    /// The fingerprint of the model in `directory`.
    public static func of(_ directory: URL, digest: WeightsDigest = .standard) -> String {
        var hash = SHA256()
        for name in configurationFiles {
            // Name and length before the bytes: a file's end cannot pass for the next one's start.
            let data = try? InputFile.readModelFile(directory.appendingPathComponent(name))
            hash.update("\(name)\n\(data.map { String($0.count) } ?? "-")\n".utf8)
            if let data { hash.update(data) }
        }
        let weights = digest.sha256(of: directory.appendingPathComponent(weightsFile))
        hash.update("\(weightsFile)\n\(weights ?? "-")\n".utf8)
        return "sha256:" + hash.hexDigest().prefix(16)
    }

    /// Whether `recorded` is the fingerprint of the files in `directory`, whose fingerprint is
    /// `current`: equal to it, or the older form (16 hex digits) and equal to ``legacy(of:)``.
    public static func matches(_ recorded: String, current: String, directory: URL) -> Bool {
        recorded == current || (isLegacy(recorded) && recorded == legacy(of: directory))
    }

    /// Whether `recorded` has the older form: 16 lowercase hex digits.
    public static func isLegacy(_ recorded: String) -> Bool {
        LowercaseHex.matches(recorded, count: 16)
    }

    /// The fingerprint recorded before the weights were hashed whole: FNV-1a over the configuration
    /// files and the weights' size, first and last megabyte.
    public static func legacy(of directory: URL) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        for name in configurationFiles {
            mix(name.utf8)
            if let data = try? InputFile.readModelFile(directory.appendingPathComponent(name)) { mix(data) }
        }
        let weights = directory.appendingPathComponent(weightsFile).path
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
