import Foundation

/// Which texts a model was trained on, kept as 32-bit hashes of their normalized form (lowercased, whitespace
/// collapsed): enough to tell that a test set repeats the training data (an evaluation on it reports 98 % that new
/// text will not get) without storing the texts. Saved in the model package's metadata (`trainingTexts`, base64 of
/// the sorted hashes, 4 bytes a text); a hash shared by chance makes one text in about 300,000 look seen per
/// 14,000 training texts.
///
///     let seen = fingerprint.count(of: testTexts)   // how many test texts were trained on
public struct TrainingTextFingerprint: Sendable, Equatable {
    /// The metadata key the fingerprint is saved under.
    public static let metadataKey = "trainingTexts"
    /// The most texts a fingerprint holds (a larger training set keeps the first this many).
    static let maximumCount = 10_000_000

    private let hashes: Set<UInt32>

    /// The fingerprint of `texts`.
    public init<Texts: Sequence>(_ texts: Texts) where Texts.Element == String {
        hashes = Set(texts.lazy.prefix(Self.maximumCount).map(Self.hash))
    }

    /// Reads the base64 form of ``encoded``; nil when it is not one (a damaged or foreign value).
    public init?(encoded: String) {
        guard encoded.utf8.count <= 4 * ((4 * Self.maximumCount + 2) / 3) + 4,
              let data = Data(base64Encoded: encoded), data.count % 4 == 0 else { return nil }
        var hashes = Set<UInt32>(minimumCapacity: data.count / 4)
        data.withUnsafeBytes { raw in
            for offset in stride(from: 0, to: raw.count, by: 4) {
                hashes.insert(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
            }
        }
        self.hashes = hashes
    }

    /// The sorted hashes, little-endian, in base64.
    public var encoded: String {
        var data = Data(capacity: 4 * hashes.count)
        for hash in hashes.sorted() { withUnsafeBytes(of: hash.littleEndian) { data.append(contentsOf: $0) } }
        return data.base64EncodedString()
    }

    /// How many of `texts` the model was trained on.
    public func count<Texts: Sequence>(of texts: Texts) -> Int where Texts.Element == String {
        texts.reduce(0) { $0 + (hashes.contains(Self.hash($1)) ? 1 : 0) }
    }

    /// FNV-1a over the UTF-8 of the text lowercased with its whitespace runs made one space: stable across runs and
    /// machines (Swift's own hash is seeded per process).
    static func hash(_ text: String) -> UInt32 {
        var hash: UInt32 = 2_166_136_261
        var pendingSpace = false, started = false
        for scalar in text.lowercased().unicodeScalars {
            if scalar.properties.isWhitespace {
                pendingSpace = started
                continue
            }
            if pendingSpace {
                hash = (hash ^ 0x20) &* 16_777_619
                pendingSpace = false
            }
            started = true
            for byte in String(scalar).utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        }
        return hash
    }
}
