import Foundation

/// A model-free embedder: each text becomes the L2-normalized count vector of its terms (and of
/// adjacent term pairs) hashed into `dimension` buckets, with a sign hash so that collisions
/// cancel on average (the "hashing trick", as in scikit-learn's `HashingVectorizer`).
///
/// Its cosine similarity is a lexical similarity: it finds texts that share words, not
/// paraphrases. It needs no weights, is deterministic across runs and platforms (FNV-1a, not
/// Swift's seeded `Hasher`), and is fast, so it serves tests, benchmarks of the vector path and
/// collections where no embedding model is installed.
///
///     let embedder = try HashingEmbedder(dimension: 384)
///     let vectors = try embedder.embed(["the quick brown fox"])
public struct HashingEmbedder: TextEmbedder {
    /// The identity recorded in an index: `hashing` with the dimension and this scheme's revision.
    public let identity: EmbedderIdentity

    /// The most buckets allowed (vectors are stored per chunk; a bigger one wastes the file).
    public static let maximumDimension = 8192

    /// - Throws: ``SearchError/invalidArgument(_:)`` when `dimension` is not in 1...8192.
    public init(dimension: Int = 384) throws {
        guard (1...Self.maximumDimension).contains(dimension) else {
            throw SearchError.invalidArgument("the hashing embedder's dimension must be in 1...\(Self.maximumDimension), got \(dimension)")
        }
        identity = EmbedderIdentity(name: "hashing", dimension: dimension, revision: "1")
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        texts.map(vector)
    }

    func vector(_ text: String) -> [Float] {
        let dimension = identity.dimension
        var vector = [Float](repeating: 0, count: dimension)
        let words = KeywordTerms.terms(text)
        func add(_ hash: UInt64) {
            let bucket = Int(hash % UInt64(dimension))
            // The top bit of the hash chooses the sign, independent of the bucket.
            vector[bucket] += (hash >> 63) == 0 ? 1 : -1
        }
        for (index, word) in words.enumerated() {
            add(Self.fnv1a(word))
            if index > 0 { add(Self.fnv1a(words[index - 1] + " " + word)) }
        }
        let norm = vector.reduce(0) { $0 + $1 * $1 }.squareRoot()
        if norm > 0 { for index in vector.indices { vector[index] /= norm } }
        return vector
    }

    /// 64-bit FNV-1a of the UTF-8 bytes, then a murmur-style finalizer so that the low bits
    /// (the bucket) and the top bit (the sign) both depend on every byte.
    static func fnv1a(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        hash ^= hash >> 33
        hash = hash &* 0xff51_afd7_ed55_8ccd
        hash ^= hash >> 33
        return hash
    }
}
