#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUFuzzSupport
import NLUTestSupport
import Testing

/// Issue 11's "exit codes and messages": usage errors exit 2 before any work and name the flag;
/// input errors exit 1 and name the file, the field, the line or the question; no raw Foundation
/// or Swift error text; "-" reads standard input wherever a file is read.
@Suite struct ErrorMessageCommandTests {
    static let qa = QACommandTests.bert
    static let sample = IntentsCommandTests.sample
    static let corpus = SafeOutputCommandTests.corpus
    static let lm = fixturesDirectory.appendingPathComponent("lm/lstm-1.nlumodel").path

    func write(_ text: String, to name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    func expectClean(_ run: NLURun, _ context: String, sourceLocation: SourceLocation = #_sourceLocation) {
        for raw in FuzzCases.rawErrorText {
            #expect(!run.stderr.contains(raw), "\(context): raw '\(raw)' in \(run.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test func anUnknownOptionIsReportedBeforeOtherChecks() throws {
        let run = try runNLU(["qa", "ask", "--model", "x", "--frob"])
        #expect(run.status == 2 && run.stderr.hasPrefix("Error: Unknown option '--frob'"), "\(run.stderr)")
        // Without a typo, the real validation error still shows.
        let value = try runNLU(["qa", "ask", "--model", "x", "--context", "some text", "--top-k", "3"])
        #expect(value.status == 2 && value.stderr.contains("give --question"), "\(value.stderr)")
        let nested = try runNLU(["intents", "train", Self.sample, "-o", "", "--bogus-flag", "3"])
        #expect(nested.status == 2 && nested.stderr.contains("Unknown option '--bogus-flag'"), "\(nested.stderr)")
    }

    /// A text that starts with "-" reads as an unknown option: the error says to put it after `--`; a real
    /// option typo gets no such hint.
    @Test func aTextStartingWithADashIsPointedToTheDoubleDash() throws {
        let text = try runNLU(["entities", "extract", "-5 degrees"])
        #expect(text.status == 2)
        #expect(text.stderr.hasPrefix("Error: Unknown option '-5 degrees' (a text that starts with '-' goes after '--': nlu … -- \"-5 degrees\")"),
                "\(text.stderr)")
        let word = try runNLU(["tokenize", "--vocab", "x", "-world"])
        #expect(word.status == 2 && word.stderr.contains("goes after '--'"), "\(word.stderr)")
        let typo = try runNLU(["qa", "ask", "--model", "x", "--frob"])
        #expect(typo.status == 2 && !typo.stderr.contains("goes after"), "\(typo.stderr)")
        let after = try runNLU(["entities", "extract", "--", "-5 degrees"])
        #expect(after.status == 0 && after.stdout.contains("temperature"), "\(after.stderr)")
    }

    /// A negative number after an option is its value (ArgumentParser alone reads "-1" as a short
    /// option and says "Missing value"): the option's own range check speaks, naming it.
    @Test func negativeValuesReachTheOptionsRangeCheck() throws {
        let model = fixturesDirectory.appendingPathComponent("entities/pre-entities.nlumodel").path
        let top = try runNLU(["intents", "predict", "--model", model, "--top", "-1", "hello"])
        #expect(top.status == 2 && top.stderr.contains("--top-k must be at least 1, got -1"), "\(top.stderr)")
        let threshold = try runNLU(["intents", "predict", "--model", model, "--threshold", "-0.5", "hello"])
        #expect(threshold.status == 2 && threshold.stderr.contains("--threshold must be between 0 and 1, got -0.5"), "\(threshold.stderr)")
        // After "--" nothing is joined: "-1" is a text.
        let text = try runNLU(["intents", "predict", "--model", model, "--", "-1"])
        #expect(text.status == 0, "\(text.stderr)")
    }

    /// An OpenBLAS core the CPU cannot run is refused with exit 2 (it would die of SIGILL at the first
    /// product); one it can run works. The refusal is checked where the CPU lacks AVX-512.
    @Test func anOpenBLASCoreTheCPUCannotRunIsRefused() throws {
        let flags = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8))?
            .split(separator: "\n").first { $0.hasPrefix("flags") }.map { Set($0.split(separator: " ").map(String.init)) } ?? []
        guard flags.contains("avx2") && flags.contains("fma") else { return }  // not an x86-64 Linux CPU with AVX2
        let runnable = try runNLU(["--version"], environment: ["OPENBLAS_CORETYPE": "Haswell"])
        #expect(runnable.status == 0, "\(runnable.stderr)")
        guard !flags.contains("avx512f") else { return }
        let forced = try runNLU(["selfcheck"], environment: ["OPENBLAS_CORETYPE": "SkylakeX"])
        #expect(forced.status == 2 && forced.stderr.contains("OPENBLAS_CORETYPE=SkylakeX needs AVX-512, which this CPU does not have"),
                "\(forced.status): \(forced.stderr)")
    }

    /// A file that cannot be read is named with the reason: missing, or a directory where a file was expected.
    @Test func unreadableFilesSayWhy() throws {
        let directory = try TestScratch.folder().path
        let missing = try runNLU(["entities", "extract", "--file", "/nonexistent/input.txt"])
        #expect(missing.status == 1 && missing.stderr.contains("/nonexistent/input.txt: cannot read the file (no such file or directory)"),
                "\(missing.stderr)")
        let vocabulary = try runNLU(["tokenize", "--vocab", "/nonexistent/vocab.txt", "hello"])
        #expect(vocabulary.status == 1 && vocabulary.stderr.contains("/nonexistent/vocab.txt: cannot read the vocabulary (no such file or directory)"),
                "\(vocabulary.stderr)")
        let json = try runNLU(["coreml", "predict", fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path,
                               "--input", "not json"])
        #expect(json.status == 1 && json.stderr.contains("the input is not valid JSON ("), "\(json.stderr)")
        for run in [vocabulary, json] { expectClean(run, "unreadable input") }
        let folder = try runNLU(["entities", "extract", "--file", directory])
        #expect(folder.status == 1 && folder.stderr.contains("\(directory): cannot read the file (a directory, not a file)"),
                "\(folder.stderr)")
    }

    /// Foundation's JSON parser gives no position for a truncated file, a lone surrogate or a number
    /// out of range (and calls the surrogate an "end of file"): the messages say what and where.
    @Test func jsonSyntaxErrorsSayWhereInOurWords() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        let cases = [
            ("truncated.json", "{\"intents\": [\n  {\"name\": \"greet\",\n", "ends in the middle of a value at line 2"),
            ("surrogate.json", #"{"intents": ["# + "\n" + #"  {"name": "\ud800"}]}"#, "invalid \\u escape: a lone surrogate at line 2, column 13"),
            ("low.json", #"{"intents": [{"name": "\udfff"}]}"#, "invalid \\u escape: a lone surrogate at line 1, column 24"),
            ("number.json", "{\"intents\": [],\n \"version\": 1e309}", "the number 1e309 in field 'version' is out of range at line 2, column 13"),
        ]
        for (name, text, expected) in cases {
            let path = try write(text, to: name, in: directory)
            let run = try runNLU(["intents", "import", path, "-o", directory.appendingPathComponent("out.json").path])
            #expect(run.status == 1 && run.stderr.contains(expected), "\(name): \(run.stderr)")
            expectClean(run, name)
        }
    }

    @Test func usageErrorsExitTwoBeforeAnyWorkNamingTheFlag() throws {
        let tokenize = try runNLU(["tokenize", "--model", Self.qa, "--max-length", "4", "--stride", "2", "hello"])
        #expect(tokenize.status == 2 && tokenize.stderr.contains("--stride (2) must be smaller than the 2 tokens"), "\(tokenize.stderr)")
        let stride = try runNLU(["qa", "ask", "--model", Self.qa, "--question", "Who?", "--context", "The fox.", "--doc-stride", "1000"])
        #expect(stride.status == 2 && stride.stderr.contains("--doc-stride must be between 0 and the default max sequence length"),
                "\(stride.stderr)")
        for flag in ["--top-k", "--max-answer-length", "--max-question-length"] {
            let ask = try runNLU(["qa", "ask", "--model", Self.qa, "--question", "Who?", "--context", "The fox.", flag, HostileInputCommandTests.huge])
            #expect(ask.status == 2 && ask.stderr.contains("\(flag) must be between 1 and"), "\(flag): \(ask.stderr)")
            let evaluate = try runNLU(["qa", "evaluate", "--model", Self.qa, "--squad", QACommandTests.squad, flag, HostileInputCommandTests.huge])
            #expect(evaluate.status == 2 && evaluate.stderr.contains(flag), "\(flag): \(evaluate.stderr)")
        }
    }

    @Test func anEmptyContextIsAnInputErrorNotTheUsage() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        let empty = try write("", to: "empty.txt", in: directory)
        let file = try runNLU(["qa", "ask", "--model", Self.qa, "--question", "Who?", "--context-file", empty])
        #expect(file.status == 1 && file.stderr.contains("\(empty): the context is empty") && !file.stderr.contains("Usage:"), "\(file.stderr)")
        let stdin = try runNLU(["qa", "ask", "--model", Self.qa, "--question", "Who?"], input: "  \n")
        #expect(stdin.status == 1 && stdin.stderr.contains("standard input: the context is empty"), "\(stdin.stderr)")
    }

    @Test func validJSONWithAWrongValueNamesTheFieldAndTheFile() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        // config.json: a fraction where an integer belongs.
        let checkpoint = directory.appendingPathComponent("qa")
        try FileManager.default.copyItem(atPath: Self.qa, toPath: checkpoint.path)
        let config = checkpoint.appendingPathComponent("config.json")
        let text = try String(contentsOf: config, encoding: .utf8)
        try Data(text.replacingOccurrences(of: #""num_attention_heads": 4"#, with: #""num_attention_heads": 4.5"#).utf8).write(to: config)
        let heads = try runNLU(["qa", "ask", "--model", checkpoint.path, "--question", "Who?", "--context", "The fox."])
        #expect(heads.status == 1 && heads.stderr.contains("\(config.path): field 'num_attention_heads': 4.5 does not fit"), "\(heads.stderr)")
        expectClean(heads, "config.json")
        // A dataset: an entity start of 1.5 and a version of 10^30.
        let entity = try write("""
            {"format": "nlukit-intents", "version": 1, "intents": [
             {"name": "a", "utterances": [{"text": "hello there", "entities": [{"entity": "x", "start": 1.5, "end": 3}]}, {"text": "hi"}]},
             {"name": "b", "utterances": [{"text": "bye"}, {"text": "ciao"}]}]}
            """, to: "entity.json", in: directory)
        let start = try runNLU(["intents", "import", entity, "-o", directory.appendingPathComponent("o.json").path])
        #expect(start.status == 1 && start.stderr.contains("\(entity): malformed JSON: at intents[0].utterances[0].entities[0].start: 1.5"),
                "\(start.stderr)")
        let version = try write(#"{"format": "nlukit-intents", "version": 1e30, "intents": [{"name": "a", "utterances": [{"text": "hi"}]}]}"#,
                                to: "version.json", in: directory)
        let huge = try runNLU(["intents", "import", version, "-o", directory.appendingPathComponent("o.json").path])
        #expect(huge.status == 1 && huge.stderr.contains("\(version): malformed JSON: at version: 1e+30"), "\(huge.stderr)")
        // An LM manifest with a fractional size.
        let model = directory.appendingPathComponent("lm.nlumodel")
        try FileManager.default.copyItem(atPath: Self.lm, toPath: model.path)
        let manifest = model.appendingPathComponent("manifest.json")
        let original = try String(contentsOf: manifest, encoding: .utf8)
        try Data(original.replacingOccurrences(of: #""hiddenSize": 8"#, with: #""hiddenSize": 4.5"#).utf8).write(to: manifest)
        let generate = try runNLU(["lm", "generate", "--model", model.path, "--max-tokens", "2"])
        #expect(generate.status == 1 && generate.stderr.contains("\(manifest.path): field 'config.hiddenSize': 4.5"), "\(generate.stderr)")
        expectClean(generate, "lm manifest")
        for run in [start, huge] { expectClean(run, "dataset") }
    }

    @Test func squadErrorsNameTheQuestion() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        var squad = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: QACommandTests.squad))) as? [String: Any])
        var data = try #require(squad["data"] as? [[String: Any]])
        var paragraphs = try #require(data[0]["paragraphs"] as? [[String: Any]])
        var qas = try #require(paragraphs[0]["qas"] as? [[String: Any]])
        qas[1]["question"] = 42
        paragraphs[0]["qas"] = qas
        data[0]["paragraphs"] = paragraphs
        squad["data"] = data
        let path = directory.appendingPathComponent("bad-squad.json").path
        try JSONSerialization.data(withJSONObject: squad).write(to: URL(fileURLWithPath: path))
        let id = try #require(qas[1]["id"] as? String)
        let run = try runNLU(["qa", "evaluate", "--model", Self.qa, "--squad", path])
        #expect(run.status == 1 && run.stderr.contains("\(path): not SQuAD JSON: question '\(id)'") && run.stderr.contains("expected a string"),
                "\(run.stderr)")
        expectClean(run, "squad")
    }

    @Test func csvErrorsNameTheFileLine() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("o.json").path
        let unclosed = try write("text,intent\nturn on the radio,on\n\"unclosed quote,on\nhi,greet\n", to: "unclosed.csv", in: directory)
        let quote = try runNLU(["intents", "import", unclosed, "-o", output])
        #expect(quote.status == 1 && quote.stderr.contains("\(unclosed): malformed CSV: line 3: a quoted field opens here and is never closed"),
                "\(quote.stderr)")
        let multiline = try write("text,intent\nturn on the radio,on\n\"two\nlines\",on\nhi,\nbye,greet\n", to: "rows.csv", in: directory)
        let empty = try runNLU(["intents", "import", multiline, "-o", output])
        #expect(empty.status == 1 && empty.stderr.contains("\(multiline): malformed CSV: line 5: the intent column is empty"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test func dashReadsStandardInputWhereverAFileIsRead() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        // The children's temporary folder is this test's own, so that what is left there is theirs
        // alone (not a copy some other crashed `nlu` left in the shared one).
        let temporary = directory.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: false)
        let environment = ["TMPDIR": temporary.path]
        let dataset = try String(contentsOfFile: Self.sample, encoding: .utf8)
        let corpus = try String(contentsOfFile: Self.corpus, encoding: .utf8)
        let imported = directory.appendingPathComponent("imported.json").path
        let importRun = try runNLU(["intents", "import", "-", "-o", imported], input: dataset, environment: environment)
        #expect(importRun.status == 0 && FileManager.default.fileExists(atPath: imported), "\(importRun.stderr)")
        let stdinPath = try runNLU(["intents", "import", "/dev/stdin", "-o", imported], input: dataset, environment: environment)
        #expect(stdinPath.status == 0, "\(stdinPath.stderr)")
        let train = try runNLU(["intents", "train", "-", "-o", directory.appendingPathComponent("i.nlumodel").path, "--epochs", "1", "--hidden", "8"],
                               input: dataset, environment: environment)
        #expect(train.status == 0, "\(train.stderr)")
        let lmTrain = try runNLU(["lm", "train", "-", "-o", directory.appendingPathComponent("l.nlumodel").path] + SafeOutputCommandTests.tinyLM,
                                 input: corpus, environment: environment)
        #expect(lmTrain.status == 0, "\(lmTrain.stderr)")
        let perplexity = try runNLU(["lm", "perplexity", "--model", Self.lm, "-"], input: "the cat sat on the mat .\n", environment: environment)
        #expect(perplexity.status == 0 && perplexity.stdout.contains("perplexity"), "\(perplexity.stderr)")
        let squad = try runNLU(["qa", "evaluate", "--model", Self.qa, "--squad", "-"], input: try String(contentsOfFile: QACommandTests.squad, encoding: .utf8), environment: environment)
        #expect(squad.status == 0 && squad.stdout.contains("exact match"), "\(squad.stderr)")
        // A bad dataset on standard input is named as such (not by its temporary copy's path), and
        // the copy is gone afterwards.
        let bad = try runNLU(["intents", "import", "-", "-o", imported], input: "{\"format\": \"nlukit-intents\", ", environment: environment)
        #expect(bad.status == 1 && bad.stderr.hasPrefix("Error: standard input") && !bad.stderr.contains("nlu-stdin-"), "\(bad.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: temporary.path).filter { $0.hasPrefix("nlu-stdin-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func stateOutWritesAtomicallyAndRefusesTheModel() throws {
        let directory = try TestScratch.folder("nlu-messages")
        defer { try? FileManager.default.removeItem(at: directory) }
        let target = directory.appendingPathComponent("target.json")
        try Data(#"{"shape": [1], "values": [0]}"#.utf8).write(to: target)  // a state: --state-out replaces nothing else
        let link = directory.appendingPathComponent("state.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "target.json")
        let run = try runNLU(["lm", "predict", "--model", Self.lm, "--state-out", link.path, "the", "cat"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) == "target.json")
        #expect(try String(contentsOf: target, encoding: .utf8).hasPrefix("{\"shape\""))
        let full = try runNLU(["lm", "predict", "--model", Self.lm, "--state-out", "/dev/full", "the"])
        #expect(full.status == 1 && full.stderr.contains("/dev/full") && full.stderr.contains("No space left"), "\(full.stderr)")
        let model = try runNLU(["lm", "predict", "--model", Self.lm, "--state-out", Self.lm, "the"])
        #expect(model.status == 1, "\(model.stderr)")
    }
}

extension ErrorMessageCommandTests {
    /// Empty standard input is an empty input, as docs/reliability.md promises, not an unknown format.
    @Test func importOfEmptyStandardInputSaysItIsEmpty() throws {
        let directory = try TestScratch.folder("nlu-empty")
        defer { try? FileManager.default.removeItem(at: directory) }
        let run = try runNLU(["intents", "import", "-", "-o", directory.appendingPathComponent("out.json").path], input: "")
        #expect(run.status == 1, "\(run.stderr)")
        #expect(run.stderr.contains("standard input: empty input: expected a dataset or an export"), "\(run.stderr)")
    }
}
