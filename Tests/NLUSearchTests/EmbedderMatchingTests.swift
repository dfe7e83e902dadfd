import Foundation
import NLUSearch
import Testing

/// An embedder whose revision stands for its files, as `SentenceIndexEmbedder`'s fingerprint does:
/// it is the same model under any name.
struct FingerprintedCompassEmbedder: TextEmbedder {
    var identity: EmbedderIdentity
    func embed(_ texts: [String]) throws -> [[Float]] { try CompassEmbedder().embed(texts) }
    func isSameModel(as recorded: EmbedderIdentity) -> Bool {
        recorded.dimension == identity.dimension && recorded.revision == identity.revision
    }
}

/// Which embedders an index takes (``TextEmbedder/isSameModel(as:)``): the name counts unless the
/// embedder's revision identifies its files; the dimension and revision always count.
@Suite struct EmbedderMatchingTests {
    func makeIndex(_ embedder: any TextEmbedder) throws -> URL {
        let url = try temporaryIndexURL()
        let index = try DocumentIndex.create(at: url, embedder: embedder, modelSource: "compass", chunking: try ChunkingOptions(size: 6, overlap: 2))
        try index.add(DocumentIndexTests.documents.map { try IndexDocument(id: $0.0, text: $0.1, metadataJSON: $0.2) })
        return url
    }

    /// The recorded name is where the model's folder was; an embedder that compares its files takes
    /// the index under another name, and the file keeps the name it recorded.
    @Test func anEmbedderThatComparesItsFilesOpensTheIndexUnderAnotherName() throws {
        let recorded = EmbedderIdentity(name: "minilm", dimension: 3, revision: "4f10d6b9339883e8")
        let url = try makeIndex(FingerprintedCompassEmbedder(identity: recorded))
        let renamed = FingerprintedCompassEmbedder(identity: EmbedderIdentity(name: "minilm-copy", dimension: 3, revision: recorded.revision))
        let index = try DocumentIndex(at: url, embedder: renamed)
        #expect(try index.search("north", options: SearchOptions(k: 2, mode: .vector)).map(\.documentID) == ["a-doc", "b-doc"])
        try index.add([try IndexDocument(id: "d-doc", text: "north north")])
        #expect(try DocumentIndex(at: url).model == recorded)
        // Another revision or dimension is another model, whatever the name.
        for other in [EmbedderIdentity(name: "minilm", dimension: 3, revision: "0000000000000000"),
                      EmbedderIdentity(name: "minilm", dimension: 4, revision: recorded.revision)] {
            let error = #expect(throws: SearchError.self) { try DocumentIndex(at: url, embedder: FingerprintedCompassEmbedder(identity: other)) }
            #expect(error == .modelMismatch(path: url.path, index: recorded, given: other))
        }
    }

    /// Embedders without a fingerprint (the hashing embedder, hand-written ones) are told apart by
    /// their whole identity: the relaxed rule cannot make one of them accept another.
    @Test func embeddersWithoutAFingerprintNeedTheWholeIdentity() throws {
        let url = try makeIndex(CompassEmbedder())
        let renamed = CompassEmbedder(identity: EmbedderIdentity(name: "compass-2", dimension: 3, revision: "1"))
        #expect(throws: SearchError.modelMismatch(path: url.path, index: CompassEmbedder().identity, given: renamed.identity)) {
            try DocumentIndex(at: url, embedder: renamed)
        }
        // A fingerprinting embedder does not take an index of another kind with its dimension and revision either.
        let sameNumbers = FingerprintedCompassEmbedder(identity: EmbedderIdentity(name: "compass", dimension: 3, revision: "1"))
        _ = try DocumentIndex(at: url, embedder: sameNumbers)   // the same identity: the same model
        #expect(throws: SearchError.self) {
            try DocumentIndex(at: url, embedder: FingerprintedCompassEmbedder(identity: EmbedderIdentity(name: "compass", dimension: 3, revision: "2")))
        }

        let hashing = try temporaryIndexURL()
        _ = try DocumentIndex.create(at: hashing, embedder: try HashingEmbedder(dimension: 384))
        #expect(throws: Never.self) { try DocumentIndex(at: hashing, embedder: try HashingEmbedder(dimension: 384)) }
        #expect(throws: SearchError.self) { try DocumentIndex(at: hashing, embedder: try HashingEmbedder(dimension: 256)) }
        let lookalike = CompassEmbedder(identity: EmbedderIdentity(name: "not-hashing", dimension: 384, revision: "1"))
        #expect(!(try HashingEmbedder(dimension: 384)).isSameModel(as: lookalike.identity))
        #expect(throws: SearchError.self) { try DocumentIndex(at: hashing, embedder: lookalike) }
    }

    /// `withEmbedder` attaches the model to an index opened without one, on the same open file, with
    /// the same checks as opening with it.
    @Test func withEmbedderAttachesTheModelToAnOpenIndex() throws {
        let url = try makeIndex(CompassEmbedder())
        let plain = try DocumentIndex(at: url, readOnly: true)
        #expect(!plain.canSearchVectors)
        let index = try plain.withEmbedder(CompassEmbedder())
        #expect(index.canSearchVectors)
        let opened = try DocumentIndex(at: url, embedder: CompassEmbedder())
        #expect(try index.search("north", options: SearchOptions(k: 5, mode: .hybrid))
                == opened.search("north", options: SearchOptions(k: 5, mode: .hybrid)))
        let other = CompassEmbedder(identity: EmbedderIdentity(name: "compass", dimension: 3, revision: "2"))
        #expect(throws: SearchError.modelMismatch(path: url.path, index: CompassEmbedder().identity, given: other.identity)) {
            try plain.withEmbedder(other)
        }
        let keywordOnly = try DocumentIndex(inMemoryWith: nil)
        let error = #expect(throws: SearchError.self) { try keywordOnly.withEmbedder(CompassEmbedder()) }
        #expect("\(error!)".contains("keyword-only"))
    }
}
