/// The vectors of an index in memory: the matrix and, per row, which chunk it is. Rows are in
/// (document id, chunk position) order, so ``TopK``'s "lower row wins a tie" means "smaller id wins".
struct VectorCache {
    var matrix: VectorMatrix
    var chunkNumbers: [Int64] = []
    var keys: [ChunkKey] = []
    var rowOfChunk: [Int64: Int] = [:]
    /// SQLite's `PRAGMA data_version` when loaded: another process's commit changes it.
    var dataVersion: Int
}

/// A chunk by document id and position: the order results tie-break in.
public struct ChunkKey: Hashable, Comparable, Sendable {
    public var documentID: String
    public var position: Int

    public init(documentID: String, position: Int) {
        self.documentID = documentID
        self.position = position
    }

    public static func < (a: ChunkKey, b: ChunkKey) -> Bool {
        a.documentID != b.documentID ? a.documentID < b.documentID : a.position < b.position
    }
}

extension DocumentIndex {
    /// A chunk found by one ranking of the SQLite backend: its row number, to read its text by
    /// once the ranking is final.
    public struct Candidate: RankedChunk, Sendable {
        var number: Int64
        public var key: ChunkKey
        public var score: Double
    }
}
