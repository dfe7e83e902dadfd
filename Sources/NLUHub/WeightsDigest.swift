import Foundation
import NLUCore
import NLUInputOutput

/// The SHA-256 of a model's weights file, found at the least cost: a file in the Hugging Face cache
/// is a link to `blobs/SHA256` (the Hub names a large (LFS) file by the SHA-256 of its bytes, and
/// ``HubDownloader`` checks the bytes against that name before the file enters the cache), so its
/// name is its digest, read without opening it. Any other file is hashed whole once (about 1 s per
/// 100 MB) and its digest remembered under its path, size and modification time, so that opening the
/// same model again reads nothing.
///
///     let digest = WeightsDigest.standard.sha256(of: modelDirectory.appendingPathComponent("model.safetensors"))
public struct WeightsDigest: Sendable {
    /// Where digests of files outside the Hugging Face cache are remembered (one small file each);
    /// nil: nowhere, every call hashes.
    public var rememberedIn: URL?

    /// A digest that remembers what it hashed in `rememberedIn`.
    public init(rememberedIn: URL?) {
        self.rememberedIn = rememberedIn
    }

    /// Remembers in `$XDG_CACHE_HOME/nlukit/weights-sha256`, else `~/.cache/nlukit/weights-sha256`.
    public static var standard: WeightsDigest {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".cache")
        return WeightsDigest(rememberedIn: cache.appendingPathComponent("nlukit/weights-sha256"))
    }

    /// The file's SHA-256 as 64 lowercase hex digits; nil when it cannot be read.
    public func sha256(of file: URL) -> String? {
        let resolved = file.resolvingSymlinksInPath()
        if let name = Self.hubBlobDigest(resolved) { return name }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: resolved.path),
              let size = (attributes[.size] as? NSNumber)?.uint64Value,
              let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 else {
            return nil
        }
        // A rewritten file has another size or time, so an entry is never stale; it is never reused either.
        var key = SHA256()
        key.update("\(resolved.path)\n\(size)\n\(modified.bitPattern)".utf8)
        let entry = rememberedIn?.appendingPathComponent(key.hexDigest())
        // A remembered digest is 64 characters: anything larger (or a FIFO, a device) is not one of ours.
        if let entry, let data = try? InputFile.read(entry, maximumBytes: 1024),
           let known = String(data: data, encoding: .utf8), LowercaseHex.matches(known, count: 64) {
            return known
        }
        guard let digest = Self.hashWhole(resolved) else { return nil }
        if let entry, let folder = rememberedIn {
            // Best effort: a read-only home only costs hashing again next time.
            try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try? AtomicFile.write(to: entry) { try $0.write(Data(digest.utf8)) }
        }
        return digest
    }

    /// The digest a Hugging Face cache blob is named by: `models--ORG--NAME/blobs/` and 64 hex digits.
    static func hubBlobDigest(_ resolved: URL) -> String? {
        let name = resolved.lastPathComponent
        let blobs = resolved.deletingLastPathComponent()
        guard LowercaseHex.matches(name, count: 64), blobs.lastPathComponent == "blobs",
              blobs.deletingLastPathComponent().lastPathComponent.hasPrefix("models--") else { return nil }
        return name
    }

    /// SHA-256 of the file's bytes, read in 4 MiB pieces.
    private static func hashWhole(_ file: URL) -> String? {
        guard let handle = try? FileHandle(forReadingFrom: file) else { return nil }
        defer { try? handle.close() }
        var digest = SHA256()
        do {
            // The end of the file reads as nil on some platforms and as empty data on others.
            while let piece = try handle.read(upToCount: 4 << 20), !piece.isEmpty { digest.update(piece) }
        } catch {
            return nil
        }
        return digest.hexDigest()
    }
}
