import Foundation
import GRDB
import NLUTestSupport
import Testing

/// An index built with a sentence-transformers model knows the model by its files (dimension and
/// fingerprint), not by where they were: a renamed or moved copy and a new snapshot of the same
/// files in the Hugging Face cache open it; a model with other files, or another kind of embedder,
/// is refused.
@Suite struct IndexModelLocationCommandTests {
    static let fixture = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny")

    static let documents = """
        {"id": "fox", "text": "The quick brown fox jumps over the lazy dog."}
        {"id": "paris", "text": "Paris is the capital of France."}
        {"id": "tea", "text": "Green tea is brewed with water below boiling."}
        """

    /// The model recorded in the index (`index info --json`).
    func recordedModel(_ db: String, environment: [String: String]? = nil) throws -> (name: String?, dimension: Int?, source: String?) {
        let info = try runNLU(["index", "info", db, "--json"], environment: environment)
        #expect(info.status == 0, "\(info.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(info.stdout.utf8)) as? [String: Any]
        let model = object?["model"] as? [String: Any]
        return (model?["name"] as? String, model?["dimension"] as? Int, object?["modelSource"] as? String)
    }

    /// A copy of the fixture model whose config.json has one more byte: the same model to load, other files.
    func alteredCopy(at url: URL) throws {
        try FileManager.default.copyItem(at: Self.fixture, to: url)
        let config = url.appendingPathComponent("config.json")
        try (try Data(contentsOf: config) + Data("\n".utf8)).write(to: config)
    }

    @Test func aRenamedOrMovedCopyOfTheModelOpensTheIndex() throws {
        let directory = try TestScratch.folder("nlu-index-model-move")
        defer { try? FileManager.default.removeItem(at: directory) }
        let original = directory.appendingPathComponent("minilm-a")
        try FileManager.default.copyItem(at: Self.fixture, to: original)
        let db = directory.appendingPathComponent("st.db").path
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(Self.documents.utf8).write(to: documents)
        #expect(try runNLU(["index", "create", db, "--model", original.path]).status == 0)
        #expect(try runNLU(["index", "add", db, documents.path]).status == 0)
        let search = ["index", "search", db, "a fox and a dog", "--mode", "vector", "--k", "3", "--json"]
        let before = try runNLU(search)
        #expect(before.status == 0 && before.stdout.contains("\"document\":\"fox\""), "\(before.stderr)")

        // The model's folder moves and is renamed: the recorded location is gone, and says so.
        try FileManager.default.createDirectory(at: directory.appendingPathComponent("elsewhere"), withIntermediateDirectories: false)
        let moved = directory.appendingPathComponent("elsewhere/renamed-model")
        try FileManager.default.moveItem(at: original, to: moved)
        let lost = try runNLU(search)
        #expect(lost.status == 1 && lost.stderr.contains("\(db): the model recorded at its creation does not load from there")
                && lost.stderr.contains("give --model with where it is now"), "\(lost.stderr)")
        // The same files under another name and path open the index, for search and add alike.
        let after = try runNLU(search + ["--model", moved.path])
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == before.stdout)
        let add = try runNLU(["index", "add", db, "--model", moved.path, "-", "--id", "kettle"], input: "The kettle boils water for the tea.")
        #expect(add.status == 0 && add.stdout.contains("it holds 4 documents"), "\(add.stderr)")
        // The index keeps what it recorded: nothing is rewritten.
        let recorded = try recordedModel(db)
        #expect(recorded.name == "minilm-a" && recorded.source == original.path)
        let dimension = try #require(recorded.dimension)

        // A model with other files is another model, whatever its name.
        let altered = directory.appendingPathComponent("minilm-a-altered")
        try alteredCopy(at: altered)
        let other = try runNLU(search + ["--model", altered.path])
        #expect(other.status == 1 && other.stderr.contains("\(db): the index was built with minilm-a (dimension \(dimension), revision")
                && other.stderr.contains("not minilm-a-altered (dimension \(dimension), revision"), "\(other.stderr)")
        // Another kind of embedder with the same dimension is refused both ways.
        let hashing = try runNLU(search + ["--model", "hashing:\(dimension)"])
        #expect(hashing.status == 1 && hashing.stderr.contains("the index was built with minilm-a"), "\(hashing.stderr)")
        let hashingDB = directory.appendingPathComponent("hashing.db").path
        #expect(try runNLU(["index", "create", hashingDB, "--model", "hashing:\(dimension)"]).status == 0)
        let model = try runNLU(["index", "search", hashingDB, "fox", "--model", moved.path])
        #expect(model.status == 1 && model.stderr.contains("the index was built with hashing (dimension \(dimension), revision 1), not renamed-model"),
                "\(model.stderr)")
    }

    /// A Hub id is recorded as the model's name (not the snapshot's commit hash), and a new snapshot
    /// with the same files keeps the index working; one with other files is refused.
    @Test func aNewSnapshotOfTheSameModelInTheHubCacheOpensTheIndex() throws {
        let directory = try TestScratch.folder("nlu-index-model-hub")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cache = try makeHubCache(holding: "org/tiny-minilm", at: Self.fixture.path)
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HF_HUB_CACHE": cache.path, "HF_HUB_OFFLINE": "1"]
        let db = directory.appendingPathComponent("hub.db").path
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(Self.documents.utf8).write(to: documents)
        let create = try runNLU(["index", "create", db, "--model", "org/tiny-minilm"], environment: environment)
        #expect(create.status == 0 && create.stdout.contains("model org/tiny-minilm (dimension"), "\(create.stderr)")
        #expect(try runNLU(["index", "add", db, documents.path], environment: environment).status == 0)
        let recorded = try recordedModel(db)
        #expect(recorded.name == "org/tiny-minilm" && recorded.source == "org/tiny-minilm")
        let search = ["index", "search", db, "capital of France", "--mode", "vector", "--k", "3", "--json"]
        let before = try runNLU(search, environment: environment)
        #expect(before.status == 0, "\(before.stderr)")

        // The model is downloaded again: a new snapshot (a real folder now) with the same files; refs/main moves to it.
        let repository = cache.appendingPathComponent("models--org--tiny-minilm")
        let commit = "fedcba9876543210fedcba9876543210fedcba98"
        try FileManager.default.copyItem(at: Self.fixture, to: repository.appendingPathComponent("snapshots/\(commit)"))
        try FileManager.default.removeItem(at: repository.appendingPathComponent("snapshots/\(hubCacheCommit)"))
        try Data((commit + "\n").utf8).write(to: repository.appendingPathComponent("refs/main"))
        let after = try runNLU(search, environment: environment)
        #expect(after.status == 0, "\(after.stderr)")
        #expect(after.stdout == before.stdout)

        // A snapshot with other files (a new version of the model) is another model.
        let newer = "00112233445566778899aabbccddeeff00112233"
        try alteredCopy(at: repository.appendingPathComponent("snapshots/\(newer)"))
        try Data((newer + "\n").utf8).write(to: repository.appendingPathComponent("refs/main"))
        let refused = try runNLU(search, environment: environment)
        #expect(refused.status == 1 && refused.stderr.contains("the index was built with org/tiny-minilm (dimension")
                && refused.stderr.contains("vectors of different models cannot be compared"), "\(refused.stderr)")
    }

    /// What NLUKit recorded for the fixture model before it hashed the whole weights: FNV-1a over the
    /// configuration files and the weights' size, first and last megabyte (16 hex digits).
    static let olderFingerprint = "1a795f0bf373dc1f"

    /// An index made before the fingerprint read the whole weights records the older form; the same
    /// files still open it, other files are still refused.
    @Test func anIndexRecordingTheOlderFingerprintStillOpens() throws {
        let directory = try TestScratch.folder("nlu-index-model-older")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = directory.appendingPathComponent("minilm")
        try FileManager.default.copyItem(at: Self.fixture, to: model)
        let db = directory.appendingPathComponent("old.db").path
        let documents = directory.appendingPathComponent("docs.jsonl")
        try Data(Self.documents.utf8).write(to: documents)
        let create = try runNLU(["index", "create", db, "--model", model.path])
        #expect(create.status == 0 && create.stdout.contains("revision sha256:"), "\(create.stdout)")
        #expect(try runNLU(["index", "add", db, documents.path]).status == 0)
        try DatabaseQueue(path: db).write { database in
            try database.execute(sql: "UPDATE index_info SET value = ? WHERE key = 'model_revision'", arguments: [Self.olderFingerprint])
        }
        let search = ["index", "search", db, "a fox and a dog", "--mode", "vector", "--k", "3", "--json"]
        let opened = try runNLU(search)
        #expect(opened.status == 0 && opened.stdout.contains("\"document\":\"fox\""), "\(opened.stderr)")
        let altered = directory.appendingPathComponent("minilm-altered")
        try alteredCopy(at: altered)
        let refused = try runNLU(search + ["--model", altered.path])
        #expect(refused.status == 1 && refused.stderr.contains("revision \(Self.olderFingerprint)"), "\(refused.stderr)")
    }
}
