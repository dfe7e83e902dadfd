import Foundation
import NLUCore
import NLUEmbeddings
import NLUHub
import NLUSearch

/// A sentence-transformers model (``SentenceEmbedder``) as a ``TextEmbedder`` for a
/// ``DocumentIndex``: its identity is the model's name (for display), the embedding dimension and
/// a fingerprint of the model's files. The fingerprint and the dimension say which model it is
/// (``isSameModel(as:)``): an index accepts the same files under any folder name or path (a
/// renamed copy, another snapshot of the Hugging Face cache with the same files) and refuses a
/// different model under the same name.
///
///     let embedder = try SentenceIndexEmbedder(modelDirectory: URL(fileURLWithPath: "all-MiniLM-L6-v2"))
///     let index = try DocumentIndex.create(at: url, embedder: embedder, modelSource: "all-MiniLM-L6-v2")
public struct SentenceIndexEmbedder: TextEmbedder {
    public let embedder: SentenceEmbedder
    public let identity: EmbedderIdentity
    /// Where the model's files are: an index that recorded the older fingerprint is compared by it.
    private let modelDirectory: URL

    public init(modelDirectory: URL) throws {
        embedder = try SentenceEmbedder(modelDirectory: modelDirectory)
        self.modelDirectory = modelDirectory
        identity = EmbedderIdentity(name: Self.name(of: modelDirectory), dimension: embedder.dimension,
                                    revision: Self.fingerprint(of: modelDirectory))
    }

    public func embed(_ texts: [String]) throws -> [[Float]] {
        try embedder.embed(texts, options: EmbeddingOptions())
    }

    /// The same dimension and fingerprint (``fingerprint(of:)``): the same files, wherever they are.
    /// An index made before the whole weights were hashed records the older fingerprint
    /// (``ModelFingerprint/legacy(of:)``, 16 hex digits), and is compared by that.
    /// The name is not compared: it is where the files were when the index was made (a folder that
    /// may be renamed or moved), and an index made before the Hub id was recorded as the name holds a
    /// snapshot's commit hash there. The fingerprint is never that of another kind of embedder (the
    /// hashing embedder's revision is "1"), so this accepts no other kind.
    public func isSameModel(as recorded: EmbedderIdentity) -> Bool {
        recorded.dimension == identity.dimension
            && ModelFingerprint.matches(recorded.revision, current: identity.revision, directory: modelDirectory)
    }

    /// The model's name: the Hub id of a snapshot in the Hugging Face cache
    /// (`models--ORG--NAME/snapshots/COMMIT` is `ORG/NAME`), else the directory's name; a directory
    /// called `model` (as Python packages ship models) takes its parent's.
    static func name(of directory: URL) -> String {
        if let repository = HubModelID.repository(ofSnapshot: directory) { return repository }
        let url = directory.standardizedFileURL
        return url.lastPathComponent == "model" ? url.deletingLastPathComponent().lastPathComponent : url.lastPathComponent
    }

    /// The model's files as an index records them (``ModelFingerprint``): the configuration files and
    /// the SHA-256 of the whole weights.
    static func fingerprint(of directory: URL) -> String {
        ModelFingerprint.of(directory)
    }
}
