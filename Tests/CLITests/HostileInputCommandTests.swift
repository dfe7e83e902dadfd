import Foundation
import NLUTestSupport
import Testing

/// Inputs that used to crash or hang `nlu` (overflow traps, huge allocations, stack overflows,
/// endless loops) are now clear errors: exit 2 for a flag out of range, exit 1 for a bad file.
@Suite struct HostileInputCommandTests {
    static let huge = "9223372036854775807"
    static let corpus = SafeOutputCommandTests.corpus
    static let sample = IntentsCommandTests.sample

    @Test func hugeIntegerOptionsAreUsageErrorsNamingTheFlag() throws {
        let out = TestScratch.file("never", extension: "nlumodel").path
        for flag in ["--hidden", "--embedding", "--sequence-length", "--layers", "--batch-size", "--epochs"] {
            let run = try runNLU(["lm", "train", Self.corpus, "-o", out, flag, Self.huge])
            #expect(run.status == 2 && run.stderr.contains(flag), "\(flag): \(run.status) \(run.stderr)")
        }
        let big = try runNLU(["lm", "train", Self.corpus, "-o", out, "--hidden", "100000"])
        #expect(big.status == 2 && big.stderr.contains("--hidden must be between 1 and 16384"), "\(big.stderr)")
        for flag in ["--batch-size", "--epochs", "--patience"] {
            let run = try runNLU(["intents", "train", Self.sample, "-o", out, flag, Self.huge])
            #expect(run.status == 2 && run.stderr.contains(flag), "\(flag): \(run.status) \(run.stderr)")
        }
        let weightDecay = try runNLU(["intents", "train", Self.sample, "-o", out, "--weight-decay", "inf"])
        #expect(weightDecay.status == 2 && weightDecay.stderr.contains("--weight-decay"), "\(weightDecay.stderr)")
        let folds = try runNLU(["intents", "evaluate", Self.sample, "--folds", Self.huge])
        #expect(folds.status == 2 && folds.stderr.contains("--folds must be between 2 and 1000"), "\(folds.stderr)")
        let threads = try runNLU(["selfcheck", "--size", "32"], environment: ["NLUKIT_THREADS": Self.huge])
        #expect(threads.status == 2 && threads.stderr.contains("NLUKIT_THREADS="), "\(threads.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }

    @Test func moreFoldsThanTheSmallestIntentAllowsIsRefused() throws {
        let run = try runNLU(["intents", "evaluate", Self.sample, "--folds", "1000"])
        #expect(run.status == 1 && run.stderr.contains("expected at most"), "\(run.stderr)")
    }

    /// Rewrites one field of a package's manifest.json (a JSON path of object keys).
    func setManifestField(_ package: URL, _ path: [String], to value: Any) throws {
        let url = package.appendingPathComponent("manifest.json")
        var root = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        func set(_ object: inout [String: Any], _ keys: ArraySlice<String>) {
            guard let key = keys.first else { return }
            if keys.count == 1 { object[key] = value; return }
            var child = object[key] as? [String: Any] ?? [:]
            set(&child, keys.dropFirst())
            object[key] = child
        }
        set(&root, path[...])
        try JSONSerialization.data(withJSONObject: root).write(to: url)
    }

    @Test func manifestsOutOfRangeNameTheFieldInsteadOfCrashingOrSpinning() throws {
        let directory = try TestScratch.folder("nlu-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let lm = directory.appendingPathComponent("lm.nlumodel")
        #expect(try runNLU(["lm", "train", Self.corpus, "-o", lm.path] + SafeOutputCommandTests.tinyLM).status == 0)
        for (field, value) in [("hiddenSize", 1 << 62), ("layers", 10_000_000), ("embeddingSize", -1)] {
            let copy = directory.appendingPathComponent("\(field).nlumodel")
            try FileManager.default.copyItem(at: lm, to: copy)
            try setManifestField(copy, ["config", field], to: value)
            let run = try runNLU(["lm", "generate", "--model", copy.path, "--max-tokens", "2"])
            #expect(run.status == 1 && run.stderr.contains(field) && run.stderr.contains(copy.path), "\(field): \(run.stderr)")
        }
        let intents = directory.appendingPathComponent("car.nlumodel")
        #expect(try runNLU(["intents", "train", Self.sample, "-o", intents.path, "--epochs", "1", "--hidden", "8"]).status == 0)
        try setManifestField(intents, ["config", "features", "wordNGrams"], to: [1, Int.max])
        let predict = try runNLU(["intents", "predict", "--model", intents.path, "hello"])
        #expect(predict.status == 1 && predict.stderr.contains("config.features.wordNGrams"), "\(predict.stderr)")
    }

    @Test func nestedAndExplodingImportsAreRefused() throws {
        let directory = try TestScratch.folder("nlu-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let url = directory.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url.path
        }
        var bomb = ["a0: &a0 [\(Array(repeating: "\"lol\"", count: 9).joined(separator: ","))]"]
        for level in 1...9 { bomb.append("a\(level): &a\(level) [\(Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ","))]") }
        bomb.append("nlu: *a9")
        let luis = """
        {"luis_schema_version": "7.0.0", "intents": [{"name": "a"}, {"name": "b"}], "utterances": [
         {"text": "hello there", "intent": "a", "entities": [{"entity": "x", "startPos": 0, "endPos": \(Self.huge)}]},
         {"text": "bye", "intent": "b", "entities": []}]}
        """
        let cases: [(String, String)] = [
            (try write("deep.yml", "nlu: " + String(repeating: "[", count: 10_000)), "nest deeper than 256"),
            (try write("bomb.yml", bomb.joined(separator: "\n") + "\n"), "aliases expand to more than"),
            (try write("deep.json", String(repeating: "[", count: 10_000)), "nest 10000 deep"),
            (try write("luis.json", luis), "entity 'x' spans startPos 0 to endPos \(Self.huge)"),
        ]
        for (path, message) in cases {
            let run = try runNLU(["intents", "import", path, "-o", directory.appendingPathComponent("out.json").path])
            #expect(run.status == 1 && run.stderr.contains(message) && run.stderr.contains(path), "\(path): \(run.stderr)")
        }
    }

    /// Round two (issue 46): a reference time whose offset no clock uses is refused by every command that takes
    /// one (`+99:00` was accepted and the offset ignored).
    @Test func referenceTimesOutsideTheClocksOffsetsAreRefused() throws {
        let model = try TestScratch.folder("nlu-hostile").appendingPathComponent("m.nlumodel")
        defer { try? FileManager.default.removeItem(at: model.deletingLastPathComponent()) }
        let trained = try runNLU(["intents", "train", Self.sample, "-o", model.path, "--epochs", "2"])
        try #require(trained.status == 0, "\(trained.stderr)")
        for time in ["2016-11-07T10:00:00+99:00", "2016-11-07T10:00:00+14:01", "2016-11-07T10:00:00-14:30", "2016-11-07T10:00:00+05:60"] {
            for arguments in [["entities", "extract", "--reference-time", time, "tomorrow at 5pm"],
                              ["intents", "predict", "--model", model.path, "--reference-time", time, "tomorrow at 5pm"]] {
                let run = try runNLU(arguments)
                #expect(run.status == 2 && run.stderr.contains("--reference-time") && run.stderr.contains("-14:00 to +14:00"),
                        "\(arguments): \(run.stderr)")
            }
        }
        let edge = try runNLU(["entities", "extract", "--reference-time", "2016-11-07T10:00:00+14:00", "--json", "tomorrow"])
        #expect(edge.status == 0 && edge.stdout.contains("2016-11-08"), "\(edge.stderr)")
    }

    /// Round two: an export naming a lookup file outside itself (`/etc/passwd`, `../../…`, a link leading out)
    /// copied that file's lines into the dataset, exit 0; `intents import` now refuses it naming the path, and
    /// writes nothing.
    @Test func exportsNamingFilesOutsideThemselvesAreRefused() throws {
        let directory = try TestScratch.folder("nlu-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        let export = directory.appendingPathComponent("export")
        try FileManager.default.createDirectory(at: export, withIntermediateDirectories: true)
        try Data("alice\nbob\n".utf8).write(to: directory.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: export.appendingPathComponent("users.txt"),
                                                   withDestinationURL: directory.appendingPathComponent("secret.txt"))
        let markdown = "## intent:greet\n- hi there\n- hello\n\n## intent:bye\n- bye\n\n## lookup:user\n"
        let cases: [(String, String, String)] = [
            ("nlu.json", """
                {"rasa_nlu_data": {"common_examples": [{"text": "hi", "intent": "greet"}, {"text": "bye", "intent": "bye"}],
                 "lookup_tables": [{"name": "user", "elements": "/etc/passwd"}]}}
                """, "lookup_tables[0].elements: '/etc/passwd' leads to /etc/passwd, outside the export's folder"),
            ("dots.md", markdown + "../../../../../../\(directory.path)/secret.txt\n", "secret.txt, outside the export's folder"),
            ("absolute.md", markdown + directory.appendingPathComponent("secret.txt").path + "\n", "secret.txt, outside the export's folder"),
            ("link.md", markdown + "users.txt\n", "'users.txt' leads to "),
        ]
        for (name, text, message) in cases {
            let file = export.appendingPathComponent(name)
            try Data(text.utf8).write(to: file)
            let output = directory.appendingPathComponent("out.json")
            let run = try runNLU(["intents", "import", file.path, "-o", output.path])
            #expect(run.status == 1 && run.stderr.contains(message) && run.stderr.contains(name), "\(name): \(run.stderr)")
            #expect(!FileManager.default.fileExists(atPath: output.path), "\(name)")
            try FileManager.default.removeItem(at: file)
        }
    }

    /// Round two: the files a model is made of (`vocab.txt`, `tokenizer.json`, `config.json`, `manifest.json`,
    /// a saved state) and a document added to an index were read whole without a bound: 3 GB ones took 3 GB and
    /// aborted the process. Each is refused from its size, before a byte is read, naming it and the limit. The
    /// files are sparse (no disk), and each run is held by `ulimit -v` to 1.4 GB of address space, about 1 GB
    /// past the runtime's own.
    @Test func modelFilesAndDocumentsLargerThanTheirLimitAreRefusedUnread() throws {
        let directory = try TestScratch.folder("nlu-hostile")
        defer { try? FileManager.default.removeItem(at: directory) }
        func sparse(_ path: String, bytes: Int) throws -> URL {
            let url = directory.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
            let handle = try FileHandle(forWritingTo: url)
            try handle.truncate(atOffset: UInt64(bytes))
            try handle.close()
            return url
        }
        /// A copy of the model folder `source` whose `file` is replaced by a sparse file over the model-file limit.
        /// With `link`, the file is a symbolic link to the sparse one, as a Hugging Face snapshot's files link to blobs.
        func model(_ source: URL, replacing file: String, link: Bool = false) throws -> String {
            let copy = directory.appendingPathComponent(file + (link ? "-link-" : "-") + source.lastPathComponent)
            try FileManager.default.copyItem(at: source, to: copy)
            try FileManager.default.removeItem(at: copy.appendingPathComponent(file))
            let big = try sparse(copy.lastPathComponent + (link ? "-blob" : "/" + file), bytes: (1 << 30) + 1)
            if link { try FileManager.default.createSymbolicLink(at: copy.appendingPathComponent(file), withDestinationURL: big) }
            return copy.path
        }
        let embeddings = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny")
        let package = directory.appendingPathComponent("intents.nlumodel")
        let trained = try runNLU(["intents", "train", Self.sample, "-o", package.path, "--epochs", "2"])
        try #require(trained.status == 0, "\(trained.stderr)")
        let lm = directory.appendingPathComponent("lm.nlumodel")
        let lmTrained = try runNLU(["lm", "train", Self.corpus, "-o", lm.path, "--epochs", "1", "--hidden", "8", "--embedding", "8", "--layers", "1"])
        try #require(lmTrained.status == 0, "\(lmTrained.stderr)")
        let index = directory.appendingPathComponent("i.db").path
        try #require(try runNLU(["index", "create", index, "--model", "hashing"]).status == 0)
        let vocabulary = try sparse("big/vocab.txt", bytes: (1 << 30) + 1)
        let state = try sparse("state.json", bytes: (1 << 30) + 1)
        let document = try sparse("document.txt", bytes: (256 << 20) + 1)
        let tokenizerJSON = try model(embeddings, replacing: "tokenizer.json")
        let linkedTokenizerJSON = try model(embeddings, replacing: "tokenizer.json", link: true)
        let configJSON = try model(embeddings, replacing: "config.json")
        let linkedConfigJSON = try model(embeddings, replacing: "config.json", link: true)
        let modulesJSON = try model(embeddings, replacing: "modules.json")
        let manifest = try model(package, replacing: "manifest.json")
        let cases: [([String], String)] = [
            (["tokenize", "--vocab", vocabulary.path, "hello"], "vocab.txt"),
            (["tokenize", "--model", tokenizerJSON, "hello"], "tokenizer.json"),
            (["tokenize", "--model", linkedTokenizerJSON, "hello"], "tokenizer.json"),
            (["embed", "--model", configJSON, "hello"], "config.json"),
            (["embed", "--model", linkedConfigJSON, "hello"], "config.json"),
            (["embed", "--model", modulesJSON, "hello"], "modules.json"),
            (["intents", "predict", "--model", manifest, "hello"], "manifest.json"),
            (["lm", "predict", "--model", lm.path, "--state-in", state.path, "the"], "state.json"),
        ]
        let endless = EndlessInputCommandTests()
        for (arguments, file) in cases {
            let run = try endless.runUnderMemoryLimit(arguments, megabytes: 1_400, timeout: 60)
            #expect(!run.timedOut && !run.signaled && run.status == 1, "\(arguments): \(run.stderr)")
            #expect(run.stderr.contains(file) && run.stderr.contains("1.0 GiB (1073741825 bytes)")
                    && run.stderr.contains("a model's JSON or text file is read up to 1 GiB"), "\(arguments): \(run.stderr)")
        }
        let add = try endless.runUnderMemoryLimit(["index", "add", index, document.path], megabytes: 1_400, timeout: 60)
        #expect(!add.signaled && add.status == 1, "\(add.stderr)")
        #expect(add.stderr.contains("document.txt: 256.0 MiB (268435457 bytes); an input is read whole up to 256 MiB"), "\(add.stderr)")
    }
}
