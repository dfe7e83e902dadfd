import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu intents import|train|predict|evaluate`, bad inputs included.
@Suite struct IntentsCommandTests {
    static let sample = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Samples/intents/car-dashboard.json").path
    static let intentFixtures = fixturesDirectory.appendingPathComponent("intents")
    static let fast = ["--epochs", "4", "--hidden", "32"]

    func write(_ text: String, _ name: String, in directory: URL) throws -> String {
        let url = directory.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// Trains a small model on the sample; returns its path.
    func trainSample(in directory: URL) throws -> String {
        let model = directory.appendingPathComponent("car.nlumodel").path
        let run = try runNLU(["intents", "train", Self.sample, "-o", model] + Self.fast)
        #expect(run.status == 0, "\(run.stderr)")
        return model
    }

    @Test func importWritesTheDatasetJSON() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let output = directory.appendingPathComponent("car.json").path
        let run = try runNLU(["intents", "import", Self.sample, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("imported 11 intents, 375 utterances, 24 counterexamples"))
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [String: Any]
        #expect(object?["format"] as? String == "nlukit-intents")
        #expect((object?["intents"] as? [Any])?.count == 11)

        let zip = try runNLU(["intents", "import", Self.intentFixtures.appendingPathComponent("dialogflow-agent.zip").path,
                              "-o", directory.appendingPathComponent("df.json").path, "--json"])
        #expect(zip.status == 0, "\(zip.stderr)")
        #expect(zip.stdout.contains("\"format\":\"dialogflow\""))

        let latin1 = try runNLU(["intents", "import", Self.intentFixtures.appendingPathComponent("snips-latin1.json").path,
                                 "-o", directory.appendingPathComponent("snips.json").path])
        #expect(latin1.status == 0)
        #expect(latin1.stderr.contains("warning:") && latin1.stderr.contains("Latin-1"))
    }

    /// A CLINC150 data file: the dataset, its test split and its validation split, each to its file.
    @Test func importWritesCLINC150sSplitsApart() throws {
        let directory = try TestScratch.folder("nlu-intents-clinc")
        defer { try? FileManager.default.removeItem(at: directory) }
        let data = directory.appendingPathComponent("data_full.json")
        try Data((#"{"train": [["how much money do I have", "balance"], ["wake me up at six", "alarm"]], "oos_train": [["a movie", "oos"]], "#
                  + #""val": [["my balance", "balance"]], "oos_val": [["bake bread", "oos"]], "test": [["set an alarm", "alarm"]]}"#).utf8)
            .write(to: data)
        let output = directory.appendingPathComponent("clinc.json").path
        let run = try runNLU(["intents", "import", data.path, "-o", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("imported 2 intents, 2 utterances, 1 counterexample, 0 entities (CLINC150 data JSON)"), "\(run.stdout)")
        #expect(run.stdout.contains("test split: 1 utterances → \(directory.path)/clinc.test.json"), "\(run.stdout)")
        #expect(run.stdout.contains("validation split: 2 utterances → \(directory.path)/clinc.validation.json"), "\(run.stdout)")
        let validation = try String(contentsOfFile: directory.path + "/clinc.validation.json", encoding: .utf8)
        #expect(validation.contains("bake bread") && validation.contains("my balance"))
        // The validation split cannot go where the test split goes.
        let clash = try runNLU(["intents", "import", data.path, "-o", output, "--test-output", directory.path + "/held.json",
                                "--validation-output", directory.path + "/held.json"])
        #expect(clash.status == 2 && clash.stderr.contains("--validation-output \(directory.path)/held.json is the same file as --test-output"),
                "\(clash.stderr)")
    }

    @Test func trainPredictEvaluate() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let model = directory.appendingPathComponent("car.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--epochs", "6", "--hidden", "64", "--seed", "5"])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.contains("epoch 1: loss"))
        #expect(train.stdout.contains("saved \(model): 11 intents + none class"))

        let predict = try runNLU(["intents", "predict", "--model", model, "--json", "--top", "2", "turn on the headlights"])
        #expect(predict.status == 0, "\(predict.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(predict.stdout.utf8)) as? [String: Any])
        #expect(object["text"] as? String == "turn on the headlights")
        #expect(object["intent"] as? String == "turn_on")
        #expect((object["ranking"] as? [[String: Any]])?.count == 2)
        #expect(predict.stdout.hasPrefix("{\"text\":"))

        let stdin = try runNLU(["intents", "predict", "--model", model, "--threshold", "1"], input: "what's the weather like\n\nplay some jazz\n")
        #expect(stdin.status == 0)
        #expect(stdin.stdout.components(separatedBy: "no intent (best").count == 3)   // two utterances, both under 100 %

        let evaluate = try runNLU(["intents", "evaluate", "--model", model, Self.sample, "--json"])
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        #expect((report["accuracy"] as? Double ?? 0) > 0.8)
        #expect(report["macroF1"] != nil && report["perIntent"] != nil && report["confusion"] != nil)
        #expect(report["outOfScopeRecall"] != nil)

        let table = try runNLU(["intents", "evaluate", "--model", model, Self.sample])
        #expect(table.stdout.contains("confusion matrix"))
        // The sample is the model's own training data: the scores come with a warning saying so.
        #expect(table.stderr.contains("warning: 399 of 399 test utterances are in the model's training data: the scores overstate"),
                "\(table.stderr)")
        // A held-out set gets no such warning.
        let heldOut = try write(#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "turn_on", "utterances": [{"text": "could you switch the heater on please"}]}]}"#,
                                "held-out.json", in: directory)
        let fresh = try runNLU(["intents", "evaluate", "--model", model, heldOut])
        #expect(fresh.status == 0 && !fresh.stderr.contains("training data"), "\(fresh.stderr)")
    }

    @Test func predictShowsEntitiesAndNoEntitiesTurnsThemOff() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let model = try trainSample(in: directory)
        let json = try runNLU(["intents", "predict", "--model", model, "--json", "turn on the fog lights"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entities = try #require(object["entities"] as? [[String: Any]])
        #expect(entities.count == 1)
        #expect(entities.first?["entity"] as? String == "appliance")
        #expect(entities.first?["start"] as? Int == 12 && entities.first?["end"] as? Int == 22)
        #expect(entities.first?["text"] as? String == "fog lights" && entities.first?["value"] as? String == "fog lights")
        #expect(entities.first?["extractor"] as? String == "crf")
        #expect((entities.first?["confidence"] as? Double ?? 0) > 0.5)
        #expect(json.stdout.contains("],\"entities\":[{\"entity\":\"appliance\",\"start\":12,\"end\":22,"))

        let evaluate = try runNLU(["intents", "evaluate", "--model", model, Self.sample, "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(evaluate.stdout.utf8)) as? [String: Any])
        let scores = try #require(report["entities"] as? [String: Any])
        #expect((scores["microF1"] as? Double ?? 0) > 0.8 && (scores["perEntity"] as? [String: Any])?["appliance"] != nil)
        #expect((report["sentenceAccuracy"] as? Double ?? 0) > 0.5)

        let text = try runNLU(["intents", "predict", "--model", model, "turn on the fog lights"])
        #expect(text.stdout.contains("    appliance = fog lights \"fog lights\" [12..<22] crf "))

        let plain = directory.appendingPathComponent("plain.nlumodel").path
        let train = try runNLU(["intents", "train", Self.sample, "-o", plain, "--no-entities"] + Self.fast)
        #expect(train.status == 0, "\(train.stderr)")
        let none = try runNLU(["intents", "predict", "--model", plain, "--json", "turn on the fog lights"])
        #expect(none.stdout.contains("\"entities\":[]"))
        let bad = try runNLU(["intents", "train", Self.sample, "-o", plain, "--crf-c2", "-1"])
        #expect(bad.status == 2 && bad.stderr.contains("--crf-c2"))
        // Both forms of an on/off flag contradict each other (the last one used to win silently).
        let both = try runNLU(["intents", "train", Self.sample, "-o", plain, "--crf-sentence-words", "--no-crf-sentence-words"])
        #expect(both.status == 2 && both.stderr.contains("'--crf-sentence-words'") && both.stderr.contains("'--no-crf-sentence-words'"),
                "\(both.stderr)")
    }

    /// A package whose weights are absurd but finite (1e30; the tagger's 1000) loads, as finite weights do.
    /// Its intent logits overflowed Float and its entity transitions overflowed exp: `predict` printed
    /// `nan%` and `predict --json` failed ("JSON has no NaN or infinity"). Every confidence is now a number.
    @Test func predictWithExtremeButFiniteWeightsGivesFiniteConfidences() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        defer { try? FileManager.default.removeItem(at: directory) }
        let model = try trainSample(in: directory)
        let weights = URL(fileURLWithPath: model).appendingPathComponent("weights.safetensors")
        try SafeTensorsPatch.set("input.weight", in: weights, to: 1e30, count: nil)
        try SafeTensorsPatch.set("output.weight", in: weights, to: 1e30, count: nil)
        try SafeTensorsPatch.set("tagger.weights", in: weights, to: 1000, count: nil)
        let json = try runNLU(["intents", "predict", "--model", model, "--json", "turn on the fog lights"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let confidences = ((object["ranking"] as? [[String: Any]] ?? []) + (object["entities"] as? [[String: Any]] ?? []))
            .map { $0["confidence"] as? Double ?? .nan }
        #expect(!confidences.isEmpty && confidences.allSatisfy { (0...1).contains($0) }, "\(json.stdout)")
        let text = try runNLU(["intents", "predict", "--model", model, "turn on the fog lights"])
        #expect(text.status == 0 && !text.stdout.lowercased().contains("nan"), "\(text.stdout)")
    }

    /// Test intents the model was never trained on are scored (as misses) with a warning naming them.
    @Test func evaluateWarnsAboutIntentsTheModelDoesNotHave() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let test = try write(#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "zz_unknown", "utterances": [{"text": "send an email"}]}]}"#,
                             "unknown.json", in: directory)
        let model = fixturesDirectory.appendingPathComponent("entities/pre-entities.nlumodel").path
        let run = try runNLU(["intents", "evaluate", "--model", model, test])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: 1 test utterance of 1 intent the model does not have (zz_unknown)"), "\(run.stderr)")
    }

    /// Standard input is answered line by line, and a line that is not UTF-8 is an error naming it
    /// (not a silent U+FFFD); an empty TEXT argument is a usage error, as for `embed`.
    @Test func predictRejectsInvalidUTF8AndEmptyTexts() throws {
        let model = fixturesDirectory.appendingPathComponent("entities/pre-entities.nlumodel").path
        let run = try runNLU(["intents", "predict", "--model", model], input: Data("turn on the radio\n".utf8) + Data([0x74, 0xFF, 0x0A]),
                             timeout: 120)
        #expect(run.status == 1 && !run.timedOut, "\(run.stderr)")
        #expect(run.stderr.contains("standard input line 2: not valid UTF-8"), "\(run.stderr)")
        let empty = try runNLU(["intents", "predict", "--model", model, "hello", " "])
        #expect(empty.status == 2 && empty.stderr.contains("TEXT argument 2 is empty"), "\(empty.stderr)")
    }

    @Test func predictReturnsBuiltinEntitiesWithTheirResolutionAgainstTheReferenceTime() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        // An NLUKit dataset whose entities "when" and "amount" are built-ins (as the importers map system entities).
        let dataset = try write("""
            {"format": "nlukit-intents", "version": 1,
             "intents": [{"name": "pay", "utterances": [{"text": "pay the landlord"}, {"text": "send money to bob"}, {"text": "transfer cash"}]},
                         {"name": "remind", "utterances": [{"text": "remind me later"}, {"text": "set a reminder"}, {"text": "reminder please"}]}],
             "entities": [{"name": "when", "values": [], "builtin": "datetime"}, {"name": "amount", "values": [], "builtin": "currency"}]}
            """, "builtins.json", in: directory)
        let model = directory.appendingPathComponent("b.nlumodel").path
        let train = try runNLU(["intents", "train", dataset, "-o", model] + Self.fast)
        #expect(train.status == 0, "\(train.stderr)")
        let json = try runNLU(["intents", "predict", "--model", model, "--json", "--reference-time", "2016-11-07T10:00:00",
                               "remind me tomorrow at 7pm to pay $20"])
        #expect(json.status == 0, "\(json.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let entities = try #require(object["entities"] as? [[String: Any]])
        #expect(entities.map { $0["entity"] as? String } == ["when", "amount"])
        #expect(entities.map { $0["value"] as? String } == ["2016-11-08 19:00:00", "20"])
        #expect(entities.map { $0["extractor"] as? String } == ["builtin", "builtin"])
        #expect(entities.map { $0["builtin"] as? String } == ["datetime", "currency"])
        let values = try #require((entities[0]["resolution"] as? [String: Any])?["values"] as? [[String: Any]])
        #expect(values.first?["timex"] as? String == "2016-11-08T19")
        #expect((entities[1]["resolution"] as? [String: Any])?["unit"] as? String == "Dollar")
        let text = try runNLU(["intents", "predict", "--model", model, "--reference-time", "2016-11-07", "pay $20 tomorrow"])
        #expect(text.stdout.contains("    when = 2016-11-08 \"tomorrow\" [8..<16] (date) builtin 100.0%"), "\(text.stdout)")
        let bad = try runNLU(["intents", "predict", "--model", model, "--reference-time", "next week", "hi"])
        #expect(bad.status == 2 && bad.stderr.contains("--reference-time") && bad.stderr.contains("YYYY-MM-DD"))
    }

    /// A regex entity that runs out of time on an utterance at prediction: the JSON has `warnings` naming
    /// the entity and the pattern, the text form a `warning:` line; an ordinary utterance has neither.
    @Test func predictWarnsWhenAPatternRunsOutOfTime() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let dataset = try write(#"""
            {"format": "nlukit-intents", "version": 1,
             "intents": [{"name": "call", "utterances": [{"text": "call bob"}, {"text": "phone alice"}, {"text": "ring carol"}]},
                         {"name": "stop", "utterances": [{"text": "stop it"}, {"text": "halt"}, {"text": "stop now"}]}],
             "entities": [{"name": "code", "values": [{"value": "code", "synonyms": [], "patterns": ["(a+)+$"]}]}]}
            """#, "regex.json", in: directory)
        let model = directory.appendingPathComponent("r.nlumodel").path
        let train = try runNLU(["intents", "train", dataset, "-o", model] + Self.fast)
        #expect(train.status == 0, "\(train.stderr)")
        let runaway = "call " + String(repeating: "a", count: 40) + "!"
        let json = try runNLU(["intents", "predict", "--model", model, "--json", runaway, "call aaa"])
        #expect(json.status == 0, "\(json.stderr)")
        let lines = json.stdout.split(separator: "\n").map { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(lines.count == 2)
        let warnings = lines.first??["warnings"] as? [String] ?? []
        #expect(warnings.count == 1 && warnings[0].contains("entity 'code'") && warnings[0].contains("pattern '(a+)+$'"), "\(json.stdout)")
        #expect(lines.last??["warnings"] == nil)
        let text = try runNLU(["intents", "predict", "--model", model, runaway])
        #expect(text.status == 0 && text.stdout.contains("    warning: entity 'code': pattern '(a+)+$' ran past its share"), "\(text.stdout)")
    }

    @Test func tinyDatasetTrainsWithTheAutomaticMinimumDocumentFrequency() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let dataset = try write(#"""
            {"format": "nlukit-intents", "version": 1, "intents": [
              {"name": "weather", "utterances": [{"text": "will it rain tomorrow"}, {"text": "what is the forecast"}, {"text": "is it sunny outside"}]},
              {"name": "music", "utterances": [{"text": "play some jazz"}, {"text": "put on a song"}, {"text": "play music by queen"}]},
              {"name": "lights", "utterances": [{"text": "turn off the lights"}, {"text": "switch the lamp on"}, {"text": "dim the lights"}]}]}
            """#, "tiny.json", in: directory)
        let model = directory.appendingPathComponent("tiny.nlumodel").path
        let train = try runNLU(["intents", "train", dataset, "-o", model])
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stdout.contains("(min-df 1)"), "\(train.stdout)")
        let predict = try runNLU(["intents", "predict", "--model", model, "is it going to rain today", "play a song by abba", "switch off the lamp"])
        #expect(predict.status == 0, "\(predict.stderr)")
        let intents = predict.stdout.split(separator: "\n").filter { $0.contains("→") }.map { $0.components(separatedBy: "→ ")[1].split(separator: " ").first.map(String.init) }
        #expect(intents == ["weather", "music", "lights"], "\(predict.stdout)")

        let explicit = try runNLU(["intents", "train", dataset, "-o", model, "--min-df", "3", "--json"])
        #expect(explicit.status == 0, "\(explicit.stderr)")
        #expect(explicit.stdout.contains("\"minDocumentFrequency\":3"), "\(explicit.stdout)")
        let tooHigh = try runNLU(["intents", "train", dataset, "-o", model, "--min-df", "5"])
        #expect(tooHigh.status == 1)
        #expect(tooHigh.stderr.contains("no term occurs in at least 5 training utterances"), "\(tooHigh.stderr)")
        let zero = try runNLU(["intents", "train", dataset, "-o", model, "--min-df", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--min-df"))
    }

    @Test func crossValidation() throws {
        let run = try runNLU(["intents", "evaluate", Self.sample, "--folds", "2", "--json"] + Self.fast)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("fold 2/2"))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(report["count"] as? Int == 399)
    }

    @Test func malformedJSONAndYAMLSayWhere() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let json = try write("{\n  \"intents\": [\n    {\"intent\": \"a\",, }\n  ]\n}", "bad.json", in: directory)
        let run = try runNLU(["intents", "import", json, "-o", directory.appendingPathComponent("x.json").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("bad.json: malformed JSON: line 3, column"))
        let yaml = try runNLU(["intents", "train", Self.intentFixtures.appendingPathComponent("rasa-bad.yml").path, "-o",
                               directory.appendingPathComponent("m.nlumodel").path])
        #expect(yaml.status == 1)
        #expect(yaml.stderr.contains("malformed YAML: line "))
    }

    @Test func unknownFormats() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let usage = try runNLU(["intents", "import", Self.sample, "--format", "bogus", "-o", directory.appendingPathComponent("x.json").path])
        #expect(usage.status == 2)
        #expect(usage.stderr.contains("bogus"))
        let text = try write("hello\nworld\n", "notes.txt", in: directory)
        let unknown = try runNLU(["intents", "import", text, "-o", directory.appendingPathComponent("x.json").path])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("unknown dataset format"))
    }

    @Test func datasetProblemsAreClearErrors() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let model = directory.appendingPathComponent("m.nlumodel").path
        let cases: [(String, String)] = [
            (#"{"format": "nlukit-intents", "version": 1, "intents": []}"#, "no intents"),
            (#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "hi"}]}]}"#, "at least two intents"),
            (#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": ""}]}, {"name": "b", "utterances": [{"text": "x"}]}]}"#, "utterance 0 is empty"),
            (#"{"format": "nlukit-intents", "version": 1, "intents": [{"name": "a", "utterances": [{"text": "x"}]}, {"name": "a", "utterances": [{"text": "y"}]}]}"#, "defined more than once"),
            (#"{"format": "nlukit-intents", "version": 3, "intents": []}"#, "dataset version 3 is newer"),
        ]
        for (index, (json, message)) in cases.enumerated() {
            let path = try write(json, "case\(index).json", in: directory)
            let run = try runNLU(["intents", "train", path, "-o", model] + Self.fast)
            #expect(run.status == 1, "\(message)")
            #expect(run.stderr.contains("Error: ") && run.stderr.contains(message), "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: model))
    }

    @Test func zipWithoutTheExpectedFiles() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let run = try runNLU(["intents", "import", Self.intentFixtures.appendingPathComponent("empty-export.zip").path,
                              "-o", directory.appendingPathComponent("x.json").path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("missing files: expected"))
    }

    @Test func failedTrainingLeavesTheExistingModelIntact() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let model = try trainSample(in: directory)
        let before = try runNLU(["intents", "predict", "--model", model, "--json", "volume up"])
        let bad = try write(#"{"format": "nlukit-intents", "version": 1, "intents": []}"#, "bad.json", in: directory)
        let failed = try runNLU(["intents", "train", bad, "-o", model] + Self.fast)
        #expect(failed.status == 1)
        let after = try runNLU(["intents", "predict", "--model", model, "--json", "volume up"])
        #expect(after.status == 0)
        #expect(after.stdout == before.stdout)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "car.nlumodel" && $0 != "bad.json" }
        #expect(leftovers.isEmpty, "\(leftovers)")
    }

    @Test func newerModelFormatIsRefused() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let model = try trainSample(in: directory)
        let manifest = URL(fileURLWithPath: model).appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8).replacingOccurrences(of: "\"formatVersion\" : 1", with: "\"formatVersion\" : 9")
        try Data(text.utf8).write(to: manifest)
        let run = try runNLU(["intents", "predict", "--model", model, "hello"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("9"))
    }

    /// `--letter-run-ngrams` (on by default) makes the `#~` n-grams across runs of Thai letters, and its package needs
    /// format version 3; `none` makes none, and the package stays at 2 (Thai is not English).
    @Test func letterRunNGramsOptionChoosesTheThaiFeatures() throws {
        let directory = try TestScratch.folder("nlu-intents-cli")
        let dataset = Self.intentFixtures.appendingPathComponent("thai-lights-weather.json").path
        for (option, version, hasRuns) in [([String](), 3, true), (["--letter-run-ngrams", "none"], 2, false)] {
            let model = directory.appendingPathComponent("th-\(version).nlumodel").path
            let run = try runNLU(["intents", "train", dataset, "-o", model] + Self.fast + option)
            #expect(run.status == 0, "\(run.stderr)")
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: model).appendingPathComponent("manifest.json"))) as? [String: Any]
            #expect(manifest?["formatVersion"] as? Int == version)
            let config = manifest?["config"] as? [String: Any]
            let vocabulary = config?["vocabulary"] as? [String] ?? []
            #expect(vocabulary.contains("#~ปิดไ") == hasRuns, "\(option)")
            #expect(((config?["features"] as? [String: Any])?["letterRunNGrams"] != nil) == hasRuns)
        }
        let bad = try runNLU(["intents", "train", dataset, "-o", directory.appendingPathComponent("never.nlumodel").path, "--letter-run-ngrams", "0-4"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--letter-run-ngrams"))
    }

    @Test func usageErrorsExitTwo() throws {
        let never = TestScratch.file("never", extension: "nlumodel").path
        let badHidden = try runNLU(["intents", "train", Self.sample, "-o", never, "--hidden", "256,x"])
        #expect(badHidden.status == 2)
        #expect(badHidden.stderr.contains("--hidden"))
        // An empty size is a typo, not a layer fewer.
        for hidden in ["256,,128", "256,"] {
            let empty = try runNLU(["intents", "train", Self.sample, "-o", never, "--hidden", hidden])
            #expect(empty.status == 2 && empty.stderr.contains("--hidden expects comma-separated sizes between 1 and 65536, e.g. 256,128; got '\(hidden)'"),
                    "\(hidden): \(empty.stderr)")
        }
        let neither = try runNLU(["intents", "evaluate", Self.sample])
        #expect(neither.status == 2)
        #expect(neither.stderr.contains("--folds"))
        let badTop = try runNLU(["intents", "predict", "--model", "x.nlumodel", "--top", "0", "hi"])
        #expect(badTop.status == 2)
    }
}
