import Foundation
import GRDB
@testable import NLUSearch
import Testing

/// A reading handle on a file this process cannot write (another user's index in a folder it cannot
/// write: search, info and `qa ask --index` failed with "attempt to write a readonly database").
/// Tests run as root, whom permissions do not stop, so these pass `writable: false` where the library
/// asks `access(2)`; `CLITests/IndexReliabilityCommandTests` runs `nlu` as the user nobody on a
/// chmod'ed file and folder, the real case.
@Suite struct ReadOnlyIndexTests {
    func makeIndex() throws -> URL {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: CompassEmbedder(), chunking: try ChunkingOptions(size: 6, overlap: 2))
        try index.add(DocumentIndexTests.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        return url
    }

    func filesBeside(_ url: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path).sorted()
    }

    /// Opened read-only and immutable: it searches and counts, creates no -wal or -shm beside the file
    /// (while open, not only after), and refuses writes, saying why.
    @Test func aReadingHandleOnAFileItCannotWriteCreatesNothingAndWritesNothing() throws {
        let url = try makeIndex()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(try filesBeside(url) == ["index.sqlite"])
        let reader = try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true, writable: false)
        #expect(try reader.search("Who is Ansgar?", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "b-doc")
        #expect(try reader.search("north", options: SearchOptions(k: 1, mode: .hybrid)).count == 1)
        #expect(try reader.info().documentCount == 3)
        #expect(try filesBeside(url) == ["index.sqlite"])
        for write in [{ try reader.add([try IndexDocument(id: "x", text: "north")]) }, { _ = try reader.delete(ids: ["a-doc"]) }] {
            let error = #expect(throws: SearchError.self) { try write() }
            #expect("\(error.map { "\($0)" } ?? "")".contains("read-only"), "\(String(describing: error))")
        }
        #expect(try filesBeside(url) == ["index.sqlite"])
        #expect(try DocumentIndex(at: url).info().documentCount == 3)
    }

    /// A -wal file that holds commits (a writer still running, or killed before its checkpoint) is not
    /// skipped: an immutable open would read the file without them.
    @Test func aReadingHandleSeesCommitsStillInTheWAL() throws {
        let url = try makeIndex()
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        // A writer that keeps its connection open: its commit stays in the -wal (no checkpoint).
        let writer = try DatabaseQueue(path: url.path)
        try writer.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        try writer.write { db in try db.execute(sql: "UPDATE documents SET id = 'renamed' WHERE id = 'b-doc'") }
        #expect(((try FileManager.default.attributesOfItem(atPath: url.path + "-wal"))[.size] as? Int ?? 0) > 0)
        let reader = try DocumentIndex(at: url, embedder: nil, readOnly: true, writable: false)
        #expect(try reader.search("Who is Ansgar?", options: SearchOptions(k: 1, mode: .keyword)).first?.documentID == "renamed")
        #expect(try reader.contains(id: "renamed") && !(try reader.contains(id: "b-doc")))
        try writer.close()
    }
}
