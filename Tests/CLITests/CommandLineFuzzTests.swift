import Foundation
import NLUFuzzSupport
import NLUTestSupport
import Testing

/// Fuzzing `nlu` as a process: every number option of every subcommand with extreme values, and
/// mutated input files for every command that reads one. Each run must end by itself (timeout),
/// without a signal, with exit 0, 1 or 2, and a failure must say what was wrong where (the flag,
/// or the file). The long run of the same harness is scripts/fuzz.sh.
@Suite(.serialized) struct CommandLineFuzzTests {
    static let extremes = ["0", "-1", "9223372036854775807", "1e309", "nan", "inf", "4.5"]
    static let qa = QACommandTests.bert
    static let lm = fixturesDirectory.appendingPathComponent("lm/lstm-1.nlumodel").path
    static let dataset = fixturesDirectory.appendingPathComponent("intents/nlukit-dataset.json").path
    static let embedder = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
    static let coreml = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path
    static let dialogue = fixturesDirectory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json").path

    /// Options whose value is a number but which have no default to tell it by.
    static let numbersWithoutDefault: Set<String> = ["--max-seq-length", "--doc-stride", "--passages", "--limit", "--folds", "--threshold",
                                                     "--min-df", "--max-features", "--top-k", "--top-p", "--max-length"]

    /// A small working command line for each subcommand with number options; the option under test
    /// is appended last (ArgumentParser keeps the last value of a repeated option).
    static func base(_ command: String, work: URL) -> [String]? {
        let corpus = work.appendingPathComponent("corpus.txt").path
        let out = work.appendingPathComponent("out-\(UUID().uuidString)")
        switch command {
        case "selfcheck": return ["selfcheck", "--size", "8"]
        case "intents train": return ["intents", "train", dataset, "-o", out.path + ".nlumodel", "--epochs", "1", "--hidden", "4", "--crf-iterations", "2"]
        case "intents evaluate": return ["intents", "evaluate", dataset, "--folds", "2", "--epochs", "1", "--hidden", "4", "--crf-iterations", "2"]
        case "intents predict": return ["intents", "predict", "--model", work.appendingPathComponent("intents.nlumodel").path, "turn on"]
        case "qa ask": return ["qa", "ask", "--model", qa, "--question", "Who jumped?", "--context", "The quick brown fox jumps over the dog."]
        case "qa evaluate": return ["qa", "evaluate", "--model", qa, "--squad", QACommandTests.squad, "--limit", "2"]
        case "qa train": return ["qa", "train", "--squad", QATrainCommandTests.squad, "--model", qa, "-o", out.path, "--epochs", "1"]
            + QATrainCommandTests.window
        case "index create": return ["index", "create", out.path + ".db", "--model", embedder]
        case "index search": return ["index", "search", work.appendingPathComponent("index.db").path, "keeper"]
        case "tokenize": return ["tokenize", "--model", qa, "--max-length", "8", "hello there you"]
        case "tokenizer encode": return ["tokenizer", "encode", "--model", qa, "--max-length", "8", "hello there you"]
        case "embed": return ["embed", "--model", embedder, "a text", "another text"]
        case "embed text": return ["embed", "text", "--model", embedder, "a text", "another text"]
        case "embed train":
            guard let pairs = try? EmbedTrainCommandTests.pairsFile(count: 8, in: work) else { return nil }
            return ["embed", "train", EmbedTrainCommandTests.model, "--pairs", pairs, "-o", out.path, "--epochs", "1"]
        case "similarity": return ["similarity", "--model", embedder, "a text", "another text"]
        case "embed similarity": return ["embed", "similarity", "--model", embedder, "a text", "another text"]
        case "lm train": return ["lm", "train", corpus, "-o", out.path + ".nlumodel"] + SafeOutputCommandTests.tinyLM
        case "lm generate": return ["lm", "generate", "--model", lm, "--max-tokens", "3"]
        case "lm predict": return ["lm", "predict", "--model", lm, "the"]
        case "dialogue chat": return ["dialogue", "chat", dialogue]
        default: return nil
        }
    }

    /// Every (subcommand, number option) pair, read from the command tree `nlu` itself describes.
    static func numberOptions() throws -> [(command: String, flag: String)] {
        let dump = try runNLU(["--experimental-dump-help"])
        let root = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any])
        var result: [(String, String)] = []
        func walk(_ command: [String: Any], _ path: [String]) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] where argument["kind"] as? String == "option" {
                guard let long = (argument["names"] as? [[String: Any]])?.first(where: { $0["kind"] as? String == "long" })?["name"] as? String
                else { continue }
                let flag = "--" + long
                let numericDefault = (argument["defaultValue"] as? String).flatMap(Double.init) != nil
                if numericDefault || numbersWithoutDefault.contains(flag) { result.append((path.joined(separator: " "), flag)) }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + [sub["commandName"] as? String ?? ""])
            }
        }
        walk(try #require(root["command"] as? [String: Any]), [])
        return result
    }

    /// Runs the command lines two at a time (a few hundred short processes), in order of the input.
    static func runConcurrently(_ commandLines: [[String]]) throws -> [BoundedRun] {
        final class Results: @unchecked Sendable {
            let lock = NSLock()
            var runs: [BoundedRun?]
            var failure: (any Error)?
            init(count: Int) { runs = Array(repeating: nil, count: count) }
        }
        let results = Results(count: commandLines.count)
        DispatchQueue.concurrentPerform(iterations: 2) { worker in
            for index in stride(from: worker, to: commandLines.count, by: 2) {
                do {
                    let run = try runNLU(commandLines[index], timeout: 60)
                    results.lock.lock(); results.runs[index] = run; results.lock.unlock()
                } catch {
                    results.lock.lock(); results.failure = error; results.lock.unlock()
                }
            }
        }
        if let failure = results.failure { throw failure }
        return results.runs.map { $0! }
    }

    func prepare() throws -> URL {
        let work = try TestScratch.folder("nlu-cli-fuzz")
        try Data(String(repeating: "the cat sat on the mat . the dog ran .\n", count: 20).utf8)
            .write(to: work.appendingPathComponent("corpus.txt"))
        #expect(try runNLU(["intents", "train", Self.dataset, "-o", work.appendingPathComponent("intents.nlumodel").path,
                            "--epochs", "1", "--hidden", "4"]).status == 0)
        let documents = work.appendingPathComponent("doc.txt")
        try Data("The keeper lives in the old lighthouse by the north cape.".utf8).write(to: documents)
        let index = work.appendingPathComponent("index.db").path
        #expect(try runNLU(["index", "create", index, "--model", Self.embedder]).status == 0)
        #expect(try runNLU(["index", "add", index, documents.path]).status == 0)
        return work
    }

    func expectWellBehaved(_ run: BoundedRun, naming names: [String], _ context: String) {
        #expect(!run.timedOut, "\(context): hung (killed after the timeout)")
        #expect(!run.signaled, "\(context): ended by signal \(run.status)")
        #expect([0, 1, 2].contains(run.status), "\(context): exit \(run.status)")
        if run.status != 0 {
            #expect(names.contains { run.stderr.contains($0) }, "\(context): stderr does not name \(names): \(run.stderr.prefix(300))")
        }
        for raw in FuzzCases.rawErrorText where run.stderr.contains(raw) {
            Issue.record("\(context): raw '\(raw)' in \(run.stderr.prefix(300))")
        }
    }

    @Test func everyNumberOptionTakesExtremeValuesWithoutCrashOrHang() throws {
        let work = try prepare()
        defer { try? FileManager.default.removeItem(at: work) }
        let options = try Self.numberOptions()
        #expect(options.count > 40, "the command tree should list the number options")
        var missing = Set<String>()
        // The unit suite gives each option one extreme, rotating through the list (so each value meets
        // a tenth of the options, 2^63-1 included); NLUKIT_FUZZ_CASES (scripts/fuzz.sh) gives every option every value.
        let everyValue = ProcessInfo.processInfo.environment["NLUKIT_FUZZ_CASES"] != nil
        var runs: [(context: String, flag: String, arguments: [String])] = []
        for (index, (command, flag)) in options.enumerated() where command != "serve" {  // serve starts a server: ServeCommandTests
            guard let base = Self.base(command, work: work) else { missing.insert(command); continue }
            let values = everyValue ? Self.extremes : [Self.extremes[index % Self.extremes.count]]
            for value in Set(values).sorted() {
                runs.append(("nlu \(command) \(flag) \(value)", flag, base + [flag, value]))
            }
        }
        let results = try Self.runConcurrently(runs.map(\.arguments))
        for (run, result) in zip(runs, results) {
            // A refused value names the flag; an accepted one may still fail later, naming its input.
            expectWellBehaved(result, naming: result.status == 2 ? [run.flag] : [run.flag, "Error:"], run.context)
        }
        #expect(missing.isEmpty, "add a base command line for: \(missing.sorted())")
    }

    @Test func mutatedInputFilesEndWellAndNameTheFile() throws {
        let work = try prepare()
        defer { try? FileManager.default.removeItem(at: work) }
        let qaBatch = Array(#"{"id": 1, "question": "Who jumped?", "context": "The quick brown fox jumps over the dog."}"#.utf8) + [10]
            + Array(#"{"id": "b", "question": "What?", "context": "A fox."}"#.utf8) + [10]
        let inputs: [(name: String, original: [UInt8], command: (String) -> [String])] = [
            ("dataset.json", Array(try Data(contentsOf: URL(fileURLWithPath: Self.dataset))),
             { ["intents", "import", $0, "-o", $0 + ".imported.json"] }),
            ("questions.jsonl", qaBatch, { ["qa", "ask", "--model", Self.qa, "--input", $0, "--output", $0 + ".answers.jsonl"] }),
            ("texts.txt", Array("pay 5 dollars on monday\nhello there\n".utf8), { ["entities", "extract", "--file", $0] }),
            ("lines.txt", Array("hello there\nsecond line\n".utf8), { ["tokenize", "--model", Self.qa, "--file", $0] }),
            ("corpus.txt", Array("the cat sat on the mat .\n".utf8), { ["lm", "perplexity", "--model", Self.lm, $0] }),
            ("state.json", Array(#"{"shape": [1, 2, 8], "values": [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]}"#.utf8),
             { ["lm", "predict", "--model", Self.lm, "--state-in", $0, "the"] }),
            ("squad.json", Array(try Data(contentsOf: URL(fileURLWithPath: QACommandTests.squad))),
             { ["qa", "evaluate", "--model", Self.qa, "--squad", $0, "--limit", "2"] }),
            ("embed.txt", Array("a first text\na second one\n".utf8), { ["embed", "--model", Self.embedder, "--input", $0] }),
            ("model.mlmodel", Array(try Data(contentsOf: URL(fileURLWithPath: Self.coreml))), { ["coreml", "info", $0] }),
        ]
        var mutator = Mutator(seed: "nlu-subprocess")
        var runs: [(name: String, context: String, arguments: [String])] = []
        for (name, original, command) in inputs {
            for number in 0..<FuzzCases.count(default: 12) {
                let mutated = name.hasSuffix(".json") ? mutator.mutateJSON(original) : mutator.mutate(original)
                let url = work.appendingPathComponent("\(number)-\(name)")
                try Data(mutated).write(to: url)
                runs.append((name, "\(name) case \(number)", command(url.path)))
            }
        }
        let results = try Self.runConcurrently(runs.map(\.arguments))
        for (run, result) in zip(runs, results) {
            // Batch commands report per line ("FILE line N: ...") and go on; each message names the file.
            expectWellBehaved(result, naming: [run.name], run.context)
        }
    }
}
