import Foundation
import NLUTestSupport
import Testing
@testable import NLUHub

/// The fingerprint that tells a search index (or an intent model package) which model made it: every
/// byte of the weights counts, the Hugging Face cache gives the weights' digest for free, a digest
/// hashed once is remembered, and the older form still identifies the files it was made from.
@Suite struct ModelFingerprintTests {
    /// A folder with a sentence-transformers model's configuration files and `weights` as its
    /// `model.safetensors` (never loaded: the fingerprint reads bytes only).
    func makeModel(in folder: URL, weights: Data) throws -> URL {
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("1_Pooling"), withIntermediateDirectories: true)
        try Data(#"{"hidden_size": 8}"#.utf8).write(to: folder.appendingPathComponent("config.json"))
        try Data(#"[{"idx": 0, "name": "0", "path": "", "type": "sentence_transformers.models.Transformer"}]"#.utf8)
            .write(to: folder.appendingPathComponent("modules.json"))
        try Data(#"{"pooling_mode_mean_tokens": true}"#.utf8).write(to: folder.appendingPathComponent("1_Pooling/config.json"))
        try weights.write(to: folder.appendingPathComponent("model.safetensors"))
        return folder
    }

    func sha256(_ data: Data) -> String {
        var digest = SHA256()
        digest.update(data)
        return digest.hexDigest()
    }

    /// 3 MiB of weights; a fine-tune of the middle layers only changes bytes past the first and
    /// before the last megabyte, which is all the older fingerprint read.
    static let weights = Data((0..<(3 << 20)).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) })

    @Test func weightsThatDifferOnlyInTheMiddleAreAnotherModel() throws {
        let work = try TestScratch.folder("nlukit-fingerprint")
        defer { try? FileManager.default.removeItem(at: work) }
        let digest = WeightsDigest(rememberedIn: nil)
        let base = try makeModel(in: work.appendingPathComponent("base"), weights: Self.weights)
        var tuned = Self.weights
        tuned[3 << 19] ^= 1
        let fineTune = try makeModel(in: work.appendingPathComponent("fine-tune"), weights: tuned)
        let copy = try makeModel(in: work.appendingPathComponent("copy"), weights: Self.weights)

        #expect(ModelFingerprint.legacy(of: base) == ModelFingerprint.legacy(of: fineTune))   // what it missed
        #expect(ModelFingerprint.of(base, digest: digest) != ModelFingerprint.of(fineTune, digest: digest))
        #expect(ModelFingerprint.of(base, digest: digest) == ModelFingerprint.of(copy, digest: digest))
        #expect(ModelFingerprint.of(base, digest: digest).hasPrefix("sha256:"))
        #expect(ModelFingerprint.of(base, digest: digest).count == 23)
        // Another configuration is another model too.
        try Data(#"{"hidden_size": 16}"#.utf8).write(to: copy.appendingPathComponent("config.json"))
        #expect(ModelFingerprint.of(base, digest: digest) != ModelFingerprint.of(copy, digest: digest))
    }

    /// What recorded the older fingerprint (16 hex digits) is compared by it: the same files match,
    /// other files do not, and a new-form fingerprint is never taken for an old one.
    @Test func theOlderFingerprintStillIdentifiesItsFiles() throws {
        let work = try TestScratch.folder("nlukit-fingerprint")
        defer { try? FileManager.default.removeItem(at: work) }
        let digest = WeightsDigest(rememberedIn: nil)
        let model = try makeModel(in: work.appendingPathComponent("model"), weights: Data("weights".utf8))
        let other = try makeModel(in: work.appendingPathComponent("other"), weights: Data("other weights".utf8))
        let current = ModelFingerprint.of(model, digest: digest)
        let legacy = ModelFingerprint.legacy(of: model)
        #expect(ModelFingerprint.isLegacy(legacy) && !ModelFingerprint.isLegacy(current))
        #expect(ModelFingerprint.matches(current, current: current, directory: model))
        #expect(ModelFingerprint.matches(legacy, current: current, directory: model))
        #expect(!ModelFingerprint.matches(ModelFingerprint.legacy(of: other), current: current, directory: model))
        #expect(!ModelFingerprint.matches(ModelFingerprint.of(other, digest: digest), current: current, directory: model))
    }

    /// In the Hugging Face cache the weights are a link to `blobs/SHA256`: the name is the digest,
    /// taken without reading the file (a blob named otherwise than its bytes shows it).
    @Test func aHubCacheBlobsNameIsItsDigest() throws {
        let work = try TestScratch.folder("nlukit-fingerprint")
        defer { try? FileManager.default.removeItem(at: work) }
        let repository = work.appendingPathComponent("models--org--model")
        let name = sha256(Data("the real weights".utf8))
        let blob = repository.appendingPathComponent("blobs/\(name)")
        try FileManager.default.createDirectory(at: blob.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("bytes that are not read".utf8).write(to: blob)
        let snapshot = repository.appendingPathComponent("snapshots/0123456789abcdef0123456789abcdef01234567")
        try FileManager.default.createDirectory(at: snapshot, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: snapshot.appendingPathComponent("model.safetensors").path,
                                                   withDestinationPath: "../../blobs/\(name)")
        let remembered = work.appendingPathComponent("remembered")
        let digest = WeightsDigest(rememberedIn: remembered)
        #expect(digest.sha256(of: snapshot.appendingPathComponent("model.safetensors")) == name)
        #expect(!FileManager.default.fileExists(atPath: remembered.path))   // nothing hashed, nothing to remember
        // The same weights outside the cache are hashed, to the same digest.
        let plain = work.appendingPathComponent("plain.safetensors")
        try Data("the real weights".utf8).write(to: plain)
        #expect(digest.sha256(of: plain) == name)
    }

    /// A file outside the cache is hashed once: its digest is remembered under its path, size and
    /// modification time, read back next time, and not used once the file changes.
    @Test func aHashedDigestIsRememberedUntilTheFileChanges() throws {
        let work = try TestScratch.folder("nlukit-fingerprint")
        defer { try? FileManager.default.removeItem(at: work) }
        let file = work.appendingPathComponent("model.safetensors")
        try Data("version one".utf8).write(to: file)
        let remembered = work.appendingPathComponent("remembered")
        let digest = WeightsDigest(rememberedIn: remembered)
        #expect(digest.sha256(of: file) == sha256(Data("version one".utf8)))
        let entries = try FileManager.default.contentsOfDirectory(atPath: remembered.path)
        #expect(entries.count == 1)
        // The remembered entry is what a second call reads (planted here: no hashing happens).
        let planted = String(repeating: "ab", count: 32)
        try Data(planted.utf8).write(to: remembered.appendingPathComponent(entries[0]))
        #expect(digest.sha256(of: file) == planted)
        // Rewritten (another size): hashed again.
        try Data("version two, longer".utf8).write(to: file)
        #expect(digest.sha256(of: file) == sha256(Data("version two, longer".utf8)))
        // A missing file has no digest.
        #expect(digest.sha256(of: work.appendingPathComponent("missing.safetensors")) == nil)
    }
}
