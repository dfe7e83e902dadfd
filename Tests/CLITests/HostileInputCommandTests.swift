import Foundation
import Testing

/// Inputs that used to crash or hang `nlu` (overflow traps, huge allocations, stack overflows,
/// endless loops) are now clear errors: exit 2 for a flag out of range, exit 1 for a bad file.
@Suite struct HostileInputCommandTests {
    static let huge = "9223372036854775807"
    static let corpus = SafeOutputCommandTests.corpus
    static let sample = IntentsCommandTests.sample

    func workDirectory() throws -> URL { try makeWorkDirectory("nlu-hostile") }

    @Test func hugeIntegerOptionsAreUsageErrorsNamingTheFlag() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("never-\(UUID().uuidString).nlumodel").path
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
        let directory = try workDirectory()
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
        let directory = try workDirectory()
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
}
