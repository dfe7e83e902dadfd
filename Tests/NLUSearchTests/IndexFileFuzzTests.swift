import Foundation
import GRDB
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUSearch

/// Mutated index files (bytes of the SQLite file flipped in place: header, schema, pages, the
/// index_info settings and stored vectors) open and answer searches, or fail with an error naming
/// the file — no trap (GRDB's fatal errors on unexpected column types included), no hang.
@Suite struct IndexFileFuzzTests {
    @Test func mutatedIndexFilesOpenOrFailNamingTheFile() throws {
        let directory = try TestScratch.folder("nlukit-index-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        let pristine = directory.appendingPathComponent("pristine.sqlite")
        do {
            let index = try DocumentIndex.create(at: pristine, embedder: CompassEmbedder(), modelSource: "compass",
                                                 chunking: try ChunkingOptions(size: 6, overlap: 2))
            try index.add(DocumentIndexTests.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        }
        let original = Array(try Data(contentsOf: pristine))
        var mutator = Mutator(seed: "index.sqlite")
        for number in 0..<FuzzCases.count(default: 150) {
            var bytes = original
            // In place, so pages stay where SQLite looks for them; the 100-byte header half the time.
            for _ in 0..<mutator.int(1...8) {
                let position = mutator.int(0...1) == 0 ? mutator.int(0...99) : mutator.int(0...(bytes.count - 1))
                bytes[position] = UInt8(truncatingIfNeeded: mutator.int(0...255))
            }
            let url = directory.appendingPathComponent("case-\(number).sqlite")
            try Data(bytes).write(to: url)
            let problem = FuzzCases.check({
                let index = try DocumentIndex(at: url, embedder: CompassEmbedder())
                _ = try index.info()
                _ = try index.search("keeper north", options: SearchOptions(k: 3, mode: .hybrid))
                _ = try index.search("lighthouse", options: SearchOptions(k: 3, mode: .keyword))
                try index.add([try IndexDocument(id: "new-doc", text: "A new note about the north cape.")])
                _ = try index.delete(ids: ["a-doc"])
            }, naming: url.lastPathComponent)
            if let problem { Issue.record("case \(number): \(problem)") }
            for suffix in ["", "-wal", "-shm", "-journal"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
        }
    }

    /// Chunk rows given hostile offsets (huge, negative, past the document, reversed, shifted): every
    /// search either returns results whose offsets cut their text out of their document, or fails
    /// naming the file — never offsets that would trap or lie when the document is sliced.
    @Test func damagedChunkOffsetsNeverReachAResult() throws {
        let url = try DocumentIndexTests().makeIndex().1
        let texts = Dictionary(uniqueKeysWithValues: DocumentIndexTests.documents.map { ($0.0, Array($0.1.unicodeScalars)) })
        let chunkCount = try DocumentIndex(at: url).info().chunkCount
        let values: [Int64] = [5_000_000_000, Int64.max, Int64.min, -7, -1, 0, 1, 2, 6, 63, 64, 65, 1000]
        var mutator = Mutator(seed: "index-offsets")
        for number in 0..<FuzzCases.count(default: 60) {
            let copy = url.deletingLastPathComponent().appendingPathComponent("offsets-\(number).sqlite")
            try FileManager.default.copyItem(at: url, to: copy)
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: copy.path + suffix) } }
            try DatabaseQueue(path: copy.path).write { db in
                for _ in 0..<mutator.int(1...3) {
                    let column = ["start", "end"][mutator.int(0...1)]
                    let chunk = mutator.int(1...chunkCount)
                    // An absolute value, or a shift of the stored one.
                    let value = values[mutator.int(0...(values.count - 1))]
                    let expression = mutator.int(0...1) == 0 ? "\(value)" : "\(column) + \(mutator.int(-3...3))"
                    try db.execute(sql: "UPDATE chunks SET \(column) = \(expression) WHERE number = \(chunk)")
                }
            }
            let problem = FuzzCases.check({
                let index = try DocumentIndex(at: copy, embedder: CompassEmbedder(), readOnly: true)
                for mode in SearchMode.allCases {
                    for result in try index.search("north south lighthouse récif", options: SearchOptions(k: 10, mode: mode)) {
                        let scalars = try #require(texts[result.documentID])
                        let sliceable = 0 <= result.start && result.start <= result.end && result.end <= scalars.count
                        if !sliceable || String(String.UnicodeScalarView(scalars[result.start..<result.end])) != result.text {
                            Issue.record("case \(number), \(mode): \(result.documentID) #\(result.chunk) returned with \(result.start)..<\(result.end)")
                        }
                    }
                }
            }, naming: copy.lastPathComponent)
            if let problem { Issue.record("case \(number): \(problem)") }
        }
    }
}
