import Foundation
import NLUTestSupport
import Testing

/// `nlu intents import|train|evaluate` and a dataset's language: a code that is no language code is refused
/// (`--language`: a usage error, exit 2; a dataset's field: exit 1 naming the file and field), both listing the
/// supported languages; a well-formed code without a stemmer trains on unstemmed words and says so once.
@Suite struct IntentsLanguageCommandTests {
    static let fast = ["--epochs", "3", "--hidden", "16", "--no-entities"]

    /// A small dataset in NLUKit's form, in `language` (none when nil).
    static func dataset(language: String?) -> String {
        let field = language.map { #""language": "\#($0)", "# } ?? ""
        return #"{"format": "nlukit-intents", "version": 1, \#(field)"intents": ["#
            + #"{"name": "reserver", "utterances": [{"text": "je voudrais réserver"}, {"text": "réservation pour deux"}, {"text": "réservez une table"}]},"#
            + #"{"name": "annuler", "utterances": [{"text": "annulez ma réservation"}, {"text": "je veux annuler"}, {"text": "annulation svp"}]}]}"#
    }

    /// A work folder holding `bot.json` (``dataset(language:)``) and the path of a model beside it.
    func project(language: String?) throws -> (directory: URL, data: URL, model: String) {
        let directory = try TestScratch.folder("nlu-intents-language")
        let data = directory.appendingPathComponent("bot.json")
        try Data(Self.dataset(language: language).utf8).write(to: data)
        return (directory, data, directory.appendingPathComponent("bot.nlumodel").path)
    }

    @Test func aLanguageOptionThatIsNoCodeIsAUsageError() throws {
        let (directory, data, model) = try project(language: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["intents", "train", data.path, "-o", model, "--language", "e!"],
                          ["intents", "import", data.path, "-o", directory.appendingPathComponent("out.json").path, "--language", "e!"],
                          ["intents", "evaluate", data.path, "--folds", "2", "--language", "e!"],
                          ["intents", "export", data.path, "--format", "rasa", "-o", directory.appendingPathComponent("out.yml").path, "--language", "e!"]] {
            let run = try runNLU(arguments)
            #expect(run.status == 2, "\(arguments[1]): \(run.stderr)")
            #expect(run.stderr.hasPrefix("Error: --language: 'e!' is not a language code (expected a code such as 'fr' or a culture such as 'fr-FR'); supported: ar, ca, "),
                    "\(arguments[1]): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: model))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("out.json").path))
    }

    @Test func aDatasetLanguageThatIsNoCodeIsRefusedNamingTheFileAndField() throws {
        let (directory, data, model) = try project(language: "e!")
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["intents", "train", data.path, "-o", model] + Self.fast,
                          ["intents", "import", data.path, "-o", directory.appendingPathComponent("out.json").path]] {
            let run = try runNLU(arguments)
            #expect(run.status == 1, "\(arguments[1]): \(run.stderr)")
            #expect(run.stderr.contains("bot.json: field 'language': 'e!' is not a language code (expected a code such as 'fr' or a culture such as 'fr-FR'); supported: ar, ca, "),
                    "\(arguments[1]): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: model))
        // --language names the dataset's language instead: it trains, saying the export's is overridden.
        let chosen = try runNLU(["intents", "train", data.path, "-o", model, "--language", "fr"] + Self.fast)
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stderr.contains("the export's language is e!; --language fr overrides it"), "\(chosen.stderr)")
    }

    @Test func aLanguageWithoutAStemmerTrainsAndSaysSoOnce() throws {
        let (directory, data, model) = try project(language: nil)
        defer { try? FileManager.default.removeItem(at: directory) }
        let warning = "warning: \(data.path): the dataset's language 'xx' has no Snowball stemmer: its words train as written, with the language-independent features (stemmed: ar, ca, "
        let train = try runNLU(["intents", "train", data.path, "-o", model, "--language", "xx"] + Self.fast)
        #expect(train.status == 0, "\(train.stderr)")
        #expect(train.stderr.components(separatedBy: "no Snowball stemmer").count == 2, "\(train.stderr)")
        #expect(train.stderr.contains(warning), "\(train.stderr)")
        let evaluate = try runNLU(["intents", "evaluate", data.path, "--folds", "3", "--language", "xx"] + Self.fast)
        #expect(evaluate.status == 0, "\(evaluate.stderr)")
        #expect(evaluate.stderr.components(separatedBy: "no Snowball stemmer").count == 2, "\(evaluate.stderr)")
        let french = try runNLU(["intents", "train", data.path, "-o", model, "--language", "fr"] + Self.fast)
        #expect(french.status == 0 && !french.stderr.contains("warning:"), "\(french.stderr)")
    }

    /// Inputs in two languages are never merged: refused (exit 1) naming each and saying how, nothing written;
    /// with --language, the other language's input is left out with a warning.
    @Test func inputsInTwoLanguagesAreRefusedOrFilteredByLanguage() throws {
        let (directory, french, _) = try project(language: "fr")
        defer { try? FileManager.default.removeItem(at: directory) }
        let english = directory.appendingPathComponent("en.json")
        try Data(Self.dataset(language: "en").utf8).write(to: english)
        let output = directory.appendingPathComponent("out.json").path
        let mixed = try runNLU(["intents", "import", french.path, english.path, "-o", output])
        #expect(mixed.status == 1, "\(mixed.stderr)")
        #expect(mixed.stderr.contains("\(french.path) (fr), \(english.path) (en): the inputs are in different languages, and a dataset has one: "
                                      + "import each language separately, or give --language to import the inputs in one of them"), "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output))
        let chosen = try runNLU(["intents", "import", french.path, english.path, "-o", output, "--language", "fr", "--json"])
        #expect(chosen.status == 0, "\(chosen.stderr)")
        #expect(chosen.stderr.contains("warning: \(english.path): in en, not in --language fr: left out"), "\(chosen.stderr)")
        let summary = try JSONSerialization.jsonObject(with: Data(chosen.stdout.utf8)) as? [String: Any]
        #expect(summary?["utterances"] as? Int == 6, "\(chosen.stdout)")
    }
}
