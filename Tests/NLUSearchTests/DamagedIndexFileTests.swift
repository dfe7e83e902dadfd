import Foundation
import GRDB
import NLUSearch
import NLUTestSupport
import Testing

/// A file that is not a whole index — truncated, overwritten in the middle or at its start, a text
/// file, an empty file, another program's SQLite database — is named as such with what to do, never
/// with SQLite's bare "SQLite error 11: database disk image is malformed". Bytes appended after the
/// last page are harmless (SQLite reads the pages its header counts): the index answers as before.
@Suite struct DamagedIndexFileTests {
    /// An index of a few hundred pages (each shape below lands on real pages), its bytes and what
    /// two searches return.
    static func makePristine(in directory: URL) throws -> (bytes: [UInt8], results: [[SearchResult]]) {
        let url = directory.appendingPathComponent("pristine.sqlite")
        do {
            // Closed before its bytes are read: until then the pages are in the -wal file.
            let index = try DocumentIndex.create(at: url, embedder: CompassEmbedder(), chunking: try ChunkingOptions(size: 40, overlap: 5))
            try index.add((0..<300).map { number in
                try IndexDocument(id: "d\(number)", text: (0..<60).map { "word\(number * 7 + $0) north keeper" }.joined(separator: " "))
            })
        }
        let bytes = Array(try Data(contentsOf: url))
        return (bytes, try searches(try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true)))
    }

    static func searches(_ index: DocumentIndex) throws -> [[SearchResult]] {
        [try index.search("keeper word1500", options: SearchOptions(k: 5, mode: .keyword)),
         try index.search("north word20", options: SearchOptions(k: 5, mode: .hybrid))]
    }

    /// Opens the file (reading, then writing handle) and searches it; the first error, which must be a ``SearchError``.
    static func firstError(_ url: URL) -> SearchError? {
        for readOnly in [true, false] {
            do {
                let index = try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: readOnly)
                _ = try index.info()
                _ = try searches(index)
            } catch let error as SearchError {
                return error
            } catch {
                Issue.record("\(url.lastPathComponent): not a SearchError: \(error)")
                return nil
            }
        }
        return nil
    }

    @Test func aFileThatIsNotAWholeIndexSaysSoAndWhatToDo() throws {
        let directory = try TestScratch.folder("nlukit-damaged")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (pristine, _) = try Self.makePristine(in: directory)
        #expect(pristine.count > 100 * 4096, "\(pristine.count) bytes")
        let middle = pristine.count / 2
        // Not random: the same bytes every run (a pattern no page holds).
        let garbage = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        func overwritten(_ range: Range<Int>, with bytes: [UInt8]) -> [UInt8] {
            var copy = pristine
            copy.replaceSubrange(range.clamped(to: 0..<copy.count), with: bytes.prefix(range.count))
            return copy
        }
        let damaged: [(String, [UInt8])] = [
            ("truncated to half", Array(pristine.prefix(middle))),
            ("truncated inside the first page", Array(pristine.prefix(3000))),
            ("NUL bytes over the middle", overwritten(middle..<(middle + 20_000), with: [UInt8](repeating: 0, count: 20_000))),
            ("garbage over the middle", overwritten((pristine.count / 3)..<(pristine.count / 3 + 50_000), with: garbage)),
        ]
        for (shape, bytes) in damaged {
            let url = directory.appendingPathComponent("index.sqlite")
            try? FileManager.default.removeItem(at: url)
            try Data(bytes).write(to: url)
            let error = Self.firstError(url)
            guard case .damaged(let path, let reason)? = error else {
                Issue.record("\(shape): \(String(describing: error))")
                continue
            }
            #expect(path == url.path, "\(shape)")
            #expect(reason.contains("not a whole NLUKit index") && reason.contains("re-create it with nlu index create"), "\(shape): \(reason)")
            #expect(!"\(error!)".contains("SQLite error"), "\(shape)")
        }
        let notIndexes: [(String, [UInt8], String)] = [
            ("header overwritten", overwritten(0..<100, with: garbage), "not an SQLite file"),
            ("a text file", Array("id,text\n1,The keeper lives north.\n".utf8), "not an SQLite file"),
            ("an empty file", [], "an empty file"),
        ]
        for (shape, bytes, expected) in notIndexes {
            let url = directory.appendingPathComponent("index.sqlite")
            try? FileManager.default.removeItem(at: url)
            try Data(bytes).write(to: url)
            let error = Self.firstError(url)
            guard case .notAnIndex(_, let reason)? = error else {
                Issue.record("\(shape): \(String(describing: error))")
                continue
            }
            #expect(reason.contains(expected) && reason.contains("nlu index create"), "\(shape): \(reason)")
        }
        let other = directory.appendingPathComponent("other.sqlite")
        try DatabaseQueue(path: other.path).write { db in try db.execute(sql: "CREATE TABLE notes (text TEXT)") }
        guard case .notAnIndex(_, let reason)? = Self.firstError(other) else { Issue.record("another program's database opened"); return }
        #expect(reason.contains("another program's database") && reason.contains("nlu index create"), "\(reason)")
    }

    /// A small index in a fresh folder, closed (its pages out of the -wal file).
    static func makeSmall() throws -> (directory: URL, url: URL) {
        let directory = try TestScratch.folder("nlukit-damaged-small")
        let url = directory.appendingPathComponent("index.sqlite")
        let index = try DocumentIndex.create(at: url, embedder: CompassEmbedder(), chunking: try ChunkingOptions(size: 6, overlap: 2))
        try index.add(DocumentIndexTests.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        return (directory, url)
    }

    /// The keyword table's own records damaged (one byte of a page, here its format version): FTS5 says
    /// "invalid fts5 file format (found 0, expected 4) - run 'rebuild'" as a plain SQLite error, which
    /// reached the user whole; it is a damaged index like any other.
    @Test func damagedKeywordTablesAreADamagedIndex() throws {
        let (directory, url) = try Self.makeSmall()
        defer { try? FileManager.default.removeItem(at: directory) }
        try DatabaseQueue(path: url.path).write { db in try db.execute(sql: "UPDATE chunks_fts_config SET v = 0 WHERE k = 'version'") }
        guard case .damaged(let path, let reason)? = Self.firstError(url) else {
            Issue.record("not named as damaged: \(String(describing: Self.firstError(url)))")
            return
        }
        #expect(path == url.path)
        #expect(reason == "it is not a whole NLUKit index (truncated, or bytes overwritten in it; SQLite: invalid fts5 file format "
                + "(found 0, expected 4)); re-create it with nlu index create and add its documents again")
    }

    /// A folder where SQLite keeps its log (`-wal`) or the log's shared memory (`-shm`): named, instead of
    /// "unable to open database file", "attempt to write a readonly database", or a reader's claim that the
    /// log holds changes. A reader needs no `-shm` file, so a folder there does not stop a search.
    @Test func aFolderInPlaceOfSQLitesSideFilesIsNamed() throws {
        let (directory, url) = try Self.makeSmall()
        defer { try? FileManager.default.removeItem(at: directory) }
        for suffix in ["-wal", "-shm"] {
            let folder = url.path + suffix
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let expected = SearchError.storage(path: url.path, message: "\(folder) is a folder, where SQLite keeps the index's "
                + (suffix == "-wal" ? "write-ahead log" : "shared memory for that log") + " in a file; remove or rename that folder (nlu never makes it)")
            #expect(throws: expected) { try DocumentIndex(at: url, embedder: CompassEmbedder()).add([try IndexDocument(id: "n", text: "north")]) }
            if suffix == "-wal" {
                #expect(throws: expected) { try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true) }
            } else {
                let results = try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true)
                    .search("keeper north", options: SearchOptions(k: 1, mode: .keyword))
                #expect(results.count == 1)
            }
        }
    }

    /// Bytes after the last page (NULs, garbage) change nothing SQLite reads: same results, and the
    /// file takes writes.
    @Test func bytesAppendedAfterTheLastPageChangeNothing() throws {
        let directory = try TestScratch.folder("nlukit-appended")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (pristine, results) = try Self.makePristine(in: directory)
        for tail in [[UInt8](repeating: 0, count: 5_000), (0..<5_003).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }] {
            let url = directory.appendingPathComponent("index.sqlite")
            try? FileManager.default.removeItem(at: url)
            try Data(pristine + tail).write(to: url)
            #expect(try Self.searches(try DocumentIndex(at: url, embedder: CompassEmbedder(), readOnly: true)) == results)
            let writer = try DocumentIndex(at: url, embedder: CompassEmbedder())
            try writer.add([try IndexDocument(id: "new", text: "north keeper again")])
            #expect(try writer.info().documentCount == 301)
        }
    }
}
