/// How documents are cut into passages: `size` words per chunk, the last `overlap` words of one
/// chunk repeated at the start of the next, so that a sentence cut at a boundary is whole in one
/// of the two. Words are runs of non-whitespace.
///
///     let options = try ChunkingOptions(size: 100, overlap: 20)
public struct ChunkingOptions: Sendable, Equatable, Codable {
    public let size: Int
    public let overlap: Int

    /// The largest chunk size accepted: the embedders read at most a few hundred tokens anyway.
    public static let maximumSize = 10_000

    /// The defaults fit sentence-embedding models that read up to 256 word pieces.
    public static let `default` = ChunkingOptions(uncheckedSize: 100, overlap: 20)

    /// - Throws: ``SearchError/invalidArgument(_:)`` unless 1 ≤ size ≤ 10,000 and 0 ≤ overlap < size.
    public init(size: Int, overlap: Int) throws {
        guard (1...Self.maximumSize).contains(size) else {
            throw SearchError.invalidArgument("the chunk size must be in 1...\(Self.maximumSize) words, got \(size)")
        }
        guard overlap >= 0, overlap < size else {
            throw SearchError.invalidArgument("the overlap must be at least 0 and less than the chunk size (\(size)), got \(overlap)")
        }
        self.init(uncheckedSize: size, overlap: overlap)
    }

    private init(uncheckedSize size: Int, overlap: Int) {
        self.size = size
        self.overlap = overlap
    }
}
