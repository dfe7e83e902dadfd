import Foundation
import NLUTestSupport
import Testing

/// `nlu intents import` and `nlu intents export` replace an existing file only when they wrote it
/// (a re-run over their own output), when it is empty, or with `--force`; the test split never
/// lands on the training set, and a model package holding a user's files is not replaced. So do
/// `qa ask --output`, `embed --output` and `lm predict --state-out`.
@Suite struct OutputReplacementCommandTests {
    static let sample = IntentsCommandTests.sample
    static let platforms = fixturesDirectory.appendingPathComponent("intents/platforms")
    static let exports = [("rasa", "out.yml"), ("clu", "out.json"), ("lu", "out.lu"), ("dialogflow-cx", "out.zip")]

    @Test func aFileNluDidNotWriteIsKeptUnlessForced() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let precious = directory.appendingPathComponent("precious.txt")
        try Data("precious\n".utf8).write(to: precious)
        let refused = try runNLU(["intents", "import", Self.sample, "-o", precious.path])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("\(precious.path): holds a file that is not an NLUKit dataset (JSON) written by nlu; "
                                        + "refusing to replace it (choose another path, move it away, or pass --force to replace it)"),
                "\(refused.stderr)")
        #expect(try String(contentsOf: precious, encoding: .utf8) == "precious\n")

        for (format, file) in Self.exports {
            let output = directory.appendingPathComponent(file)
            try Data("mine\n".utf8).write(to: output)
            let run = try runNLU(["intents", "export", Self.sample, "--format", format, "-o", output.path])
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(run.stderr.contains("\(output.path): holds a file that is not a \(format) export written by nlu"), "\(format): \(run.stderr)")
            #expect(try String(contentsOf: output, encoding: .utf8) == "mine\n", "\(format)")
            let forced = try runNLU(["intents", "export", Self.sample, "--format", format, "-o", output.path, "--force"])
            #expect(forced.status == 0, "\(format): \(forced.stderr)")
        }
        // A dataset is not a Rasa export (nor the other way round), even though nlu wrote it.
        let dataset = directory.appendingPathComponent("dataset.json")
        #expect(try runNLU(["intents", "import", Self.sample, "-o", dataset.path]).status == 0)
        let crossed = try runNLU(["intents", "export", Self.sample, "--format", "clu", "-o", dataset.path])
        #expect(crossed.status == 1 && crossed.stderr.contains("not a clu export"), "\(crossed.stderr)")

        let forced = try runNLU(["intents", "import", Self.sample, "-o", precious.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
    }

    @Test func reRunningOverItsOwnOutputOrAnEmptyFileWorks() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let dataset = directory.appendingPathComponent("notes.json")
        for _ in 0..<2 {
            let run = try runNLU(["intents", "import", Self.sample, "-o", dataset.path])
            #expect(run.status == 0, "\(run.stderr)")
        }
        let empty = directory.appendingPathComponent("empty.json")
        #expect(FileManager.default.createFile(atPath: empty.path, contents: Data()))
        #expect(try runNLU(["intents", "import", Self.sample, "-o", empty.path]).status == 0)
        for (format, file) in Self.exports {
            let output = directory.appendingPathComponent(file).path
            for round in 0..<2 {
                let run = try runNLU(["intents", "export", dataset.path, "--format", format, "-o", output])
                #expect(run.status == 0, "\(format) round \(round): \(run.stderr)")
            }
        }
        // The CLU test split's default path, written by an earlier run, is replaced too.
        let clu = Self.platforms.appendingPathComponent("clu-utf16.json").path
        let email = directory.appendingPathComponent("email.json").path
        for _ in 0..<2 { #expect(try runNLU(["intents", "import", clu, "-o", email]).status == 0) }
    }

    @Test func theTestSplitNeverReplacesTheTrainingSet() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clu = Self.platforms.appendingPathComponent("clu-utf16.json").path
        let output = directory.appendingPathComponent("email.json")
        #expect(try runNLU(["intents", "import", clu, "-o", output.path]).status == 0)
        let training = try Data(contentsOf: output)
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "email.json")
        let spellings = [output.path, directory.path + "/./email.json", link.path]
        for spelling in spellings {
            let run = try runNLU(["intents", "import", clu, "-o", output.path, "--test-output", spelling])
            #expect(run.status == 2, "\(spelling): \(run.stderr)")
            #expect(run.stderr.contains("--test-output \(spelling) is the same file as --output"), "\(run.stderr)")
            #expect(try Data(contentsOf: output) == training)
        }
        // Before the training set exists, too.
        let fresh = directory.appendingPathComponent("fresh.json").path
        let run = try runNLU(["intents", "import", clu, "-o", fresh, "--test-output", fresh])
        #expect(run.status == 2 && !FileManager.default.fileExists(atPath: fresh), "\(run.stderr)")
        // The default test-split path linked to the training set.
        let other = directory.appendingPathComponent("other.json")
        try FileManager.default.createSymbolicLink(atPath: directory.appendingPathComponent("other.test.json").path,
                                                   withDestinationPath: "other.json")
        let linked = try runNLU(["intents", "import", clu, "-o", other.path])
        #expect(linked.status == 2 && linked.stderr.contains("the default test-split path"), "\(linked.stderr)")
    }

    @Test func theDefaultTestSplitPathKeepsAFileTheUserNeverNamed() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let clu = Self.platforms.appendingPathComponent("clu-utf16.json").path
        let notes = directory.appendingPathComponent("notes.test.json")
        try Data("my test notes\n".utf8).write(to: notes)
        let output = directory.appendingPathComponent("notes.json").path
        let run = try runNLU(["intents", "import", clu, "-o", output])
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("\(notes.path) (the default test-split path: --output with .test before the extension): holds a file "
                                    + "that is not an NLUKit dataset (JSON) written by nlu; refusing to replace it "
                                    + "(choose another with --test-output"), "\(run.stderr)")
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my test notes\n")
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written")
        // An export without a test split does not write the path, so the file there is no obstacle.
        #expect(try runNLU(["intents", "import", Self.sample, "-o", output]).status == 0)
        let chosen = directory.appendingPathComponent("split.json").path
        #expect(try runNLU(["intents", "import", clu, "-o", output, "--test-output", chosen]).status == 0)
        #expect(try String(contentsOf: notes, encoding: .utf8) == "my test notes\n")
    }

    @Test func aModelPackageHoldingTheUsersFilesIsNotReplaced() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let package = directory.appendingPathComponent("pkg")
        let train = ["intents", "train", Self.sample, "-o", package.path, "--epochs", "1", "--hidden", "8"]
        #expect(try runNLU(train).status == 0)
        #expect(try runNLU(train).status == 0, "a package of the same kind alone is replaced")
        try Data("notes\n".utf8).write(to: package.appendingPathComponent("notes.txt"))
        try FileManager.default.createDirectory(at: package.appendingPathComponent("sub"), withIntermediateDirectories: false)
        try Data("a,b\n".utf8).write(to: package.appendingPathComponent("sub/important.csv"))
        let run = try runNLU(train)
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("holds a model package with entries a model package does not have (notes.txt, sub/)"), "\(run.stderr)")
        #expect(try String(contentsOf: package.appendingPathComponent("notes.txt"), encoding: .utf8) == "notes\n")
        #expect(try String(contentsOf: package.appendingPathComponent("sub/important.csv"), encoding: .utf8) == "a,b\n")
    }

    /// The file writers other than `intents`, each with the runs that write one kind of output.
    static func fileWriters(in directory: URL) throws -> [(name: String, run: (String) -> [String])] {
        let questions = directory.appendingPathComponent("questions.jsonl")
        try Data(#"{"id": 1, "question": "Who jumped?", "context": "The quick brown fox jumps over the lethargic dog."}"#.utf8 + [0x0A])
            .write(to: questions)
        let qa = QACommandTests.distilbert, embedder = EmbedCommandTests.model, lm = LanguageModelCommandTests.model
        let embed = { (format: [String]) in { (output: String) in ["embed", "--model", embedder, "a text", "another"] + format + ["--output", output] } }
        return [
            ("qa ask", { ["qa", "ask", "--model", qa, "--input", questions.path, "--output", $0] }),
            ("embed jsonl", embed([])),
            ("embed tsv", embed(["--format", "tsv"])),
            ("embed npy", embed(["--format", "npy"])),
            ("embed --query", embed(["--query", "a text"])),
            ("embed --query --json", embed(["--query", "a text", "--json"])),
            ("lm predict", { ["lm", "predict", "--model", lm, "--state-out", $0, "the", "cat"] }),
            ("lm predict --state-in", { ["lm", "predict", "--model", lm, "--state-in", $0, "--state-out", $0, "cat"] }),
        ]
    }

    @Test func otherFileWritersKeepAUsersFileUnlessForced() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, arguments) in try Self.fileWriters(in: directory) where !name.contains("--state-in") {
            let notes = directory.appendingPathComponent("notes")
            try Data("my notes\n1\t2\n".utf8).write(to: notes)
            let refused = try runNLU(arguments(notes.path))
            #expect(refused.status == 1, "\(name): \(refused.stderr)")
            #expect(refused.stderr.contains("\(notes.path): holds a file that is not ")
                    && refused.stderr.contains(" written by nlu; refusing to replace it (choose another path, move it away, "
                                               + "or pass --force to replace it)"), "\(name): \(refused.stderr)")
            #expect(try Data(contentsOf: notes) == Data("my notes\n1\t2\n".utf8), "\(name): kept byte for byte")
            let forced = try runNLU(arguments(notes.path) + ["--force"])
            #expect(forced.status == 0, "\(name): \(forced.stderr)")
            #expect(try Data(contentsOf: notes) != Data("my notes\n1\t2\n".utf8), "\(name): replaced with --force")
        }
        // Another kind of output nlu wrote is still not this one: a jsonl embeddings file is not an npy matrix.
        let vectors = directory.appendingPathComponent("vectors.jsonl")
        #expect(try runNLU(["embed", "--model", EmbedCommandTests.model, "a", "--output", vectors.path]).status == 0)
        let crossed = try runNLU(["embed", "--model", EmbedCommandTests.model, "a", "--format", "npy", "--output", vectors.path])
        #expect(crossed.status == 1 && crossed.stderr.contains("not an npy embeddings matrix"), "\(crossed.stderr)")
        // --force without the output it governs is a usage error, not silently ignored.
        let stray = try runNLU(["lm", "predict", "--model", LanguageModelCommandTests.model, "--force", "the"])
        #expect(stray.status == 2 && stray.stderr.contains("--force applies to --state-out"), "\(stray.stderr)")
    }

    @Test func otherFileWritersReRunOverTheirOwnOutputOrAnEmptyFile() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, (name, arguments)) in try Self.fileWriters(in: directory).enumerated() {
            let output = directory.appendingPathComponent("output-\(index)")
            if name.contains("--state-in") {  // carries its own state forward
                #expect(try runNLU(["lm", "predict", "--model", LanguageModelCommandTests.model, "--state-out", output.path, "the"]).status == 0)
            } else {
                #expect(FileManager.default.createFile(atPath: output.path, contents: Data()))
            }
            for round in 0..<2 {
                // A tsv file carries nothing that tells nlu's from a user's: only the empty file is replaced without --force.
                let tsvAgain = round == 1 && name == "embed tsv"
                let run = try runNLU(arguments(output.path) + (tsvAgain ? ["--force"] : []))
                #expect(run.status == 0, "\(name) round \(round): \(run.stderr)")
            }
        }
    }

    /// A user's own numeric TSV (vectors from elsewhere) looks exactly like `embed --format tsv`'s output: it is kept
    /// unless --force says otherwise (it was replaced silently).
    @Test func aNumericTSVIsKeptUnlessForced() throws {
        let directory = try TestScratch.folder("nlu-replace")
        defer { try? FileManager.default.removeItem(at: directory) }
        let vectors = directory.appendingPathComponent("my-vectors.tsv")
        try Data("0.1\t0.2\t0.3\n0.4\t0.5\t0.6\n".utf8).write(to: vectors)
        let refused = try runNLU(["embed", "--model", EmbedCommandTests.model, "a", "--format", "tsv", "--output", vectors.path])
        #expect(refused.status == 1 && refused.stderr.contains("--force"), "\(refused.stderr)")
        #expect(try Data(contentsOf: vectors) == Data("0.1\t0.2\t0.3\n0.4\t0.5\t0.6\n".utf8))
        let forced = try runNLU(["embed", "--model", EmbedCommandTests.model, "a", "--format", "tsv", "--output", vectors.path, "--force"])
        #expect(forced.status == 0, "\(forced.stderr)")
    }
}
