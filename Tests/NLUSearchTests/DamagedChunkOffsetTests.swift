import Foundation
import GRDB
import NLUSearch
import Testing

/// Chunk rows whose offsets cannot be their document's (a damaged or hand-edited file) are an error
/// naming the file, the chunk and its document in every search mode, never results whose offsets
/// would trap when the document is sliced with them.
@Suite struct DamagedChunkOffsetTests {
    /// An index of the three documents, with chunk 0 of "b-doc" (which every search below finds) set to `change`.
    func damagedIndex(_ change: String) throws -> URL {
        let url = try DocumentIndexTests().makeIndex().1
        try DatabaseQueue(path: url.path).write { db in
            try db.execute(sql: "UPDATE chunks SET \(change) WHERE position = 0 AND document = (SELECT number FROM documents WHERE id = 'b-doc')")
        }
        return url
    }

    @Test(arguments: [
        ("start = 5000000000, end = -7", "has the offsets 5000000000..<-7, which are no range in a document"),
        ("start = -1", "has the offsets -1..<"),
        ("start = end + 1", "which are no range in a document (0 ≤ start ≤ end)"),
        ("end = 9000, start = 8990", "has the offsets 8990..<9000, beyond the end of its document (64 Unicode scalars)"),
        ("start = start + 1", "but a text of"),
        // The right length at the wrong place (a long fuzz run's case: both offsets shifted), or another text there.
        ("start = start + 2, end = end + 2", "where its document does not hold its text"),
        ("text = upper(text)", "has the offsets 0..<"),
    ])
    func damagedOffsetsAreAnErrorNamingTheChunk(change: String, message: String) throws {
        let url = try damagedIndex(change)
        let index = try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true)
        for mode in SearchMode.allCases {
            let error = #expect(throws: SearchError.self, "\(mode)") {
                try index.search("Ansgar lighthouse north", options: SearchOptions(k: 10, mode: mode))
            }
            let text = error.map { "\($0)" } ?? ""
            #expect(text.hasPrefix("\(url.path): the index is damaged: chunk 0 of \"b-doc\" "), "\(mode): \(text)")
            #expect(text.contains(message), "\(mode): \(text)")
        }
        // Searches that do not reach the damaged chunk still work.
        #expect(try index.search("récif", options: SearchOptions(k: 1, mode: .keyword)).map(\.documentID) == ["c-doc"])
    }

    /// A NUL character cannot be stored (SQLite's text ends at it, as GRDB binds it): the text kept
    /// would be shorter than its chunks' offsets say, which the search then reports as damage. Such
    /// a document is refused when added, naming it, and nothing is written.
    @Test func aDocumentWithANulCharacterIsRefused() throws {
        let index = try DocumentIndex(inMemoryWith: CompassEmbedder(), chunking: try ChunkingOptions(size: 3, overlap: 0))
        let error = #expect(throws: SearchError.self) {
            try index.add([try IndexDocument(id: "fine", text: "north"),
                           try IndexDocument(id: "nul", text: "north\u{0}pole lies far away beyond the sea north of everything")])
        }
        #expect(error == .invalidDocument(id: "nul", reason: "the text holds a NUL character (U+0000), which an index cannot store"))
        #expect(throws: SearchError.self) { try index.add([try IndexDocument(id: "a\u{0}b", text: "north")]) }
        #expect(try index.info().documentCount == 0)
    }
}
