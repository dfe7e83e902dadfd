import Foundation
import NLUTestSupport
import Testing
import NLUCore
import NLUText
@testable import NLUIntents

/// The dataset's language chooses the stemmer of the intent featurizer, the model keeps it, and
/// `--language` (``ImportOptions/language``) names it for exports that record none.
/// Expected stems are Snowball's (snowballstemmer 3.1.1: "réservation" → "réserv" in French, "réservat" in English).
@Suite struct IntentLanguageTests {
    static func frenchDataset(language: String?) -> IntentDataset {
        IntentDataset(language: language, intents: [
            Intent(name: "reserver", utterances: ["je voudrais réserver une table", "réservation pour deux personnes",
                                                  "réservez une table ce soir"]),
            Intent(name: "annuler", utterances: ["annulez ma réservation", "je veux annuler", "annulation de la table"]),
        ])
    }

    static func quickOptions() -> TrainingOptions {
        var options = TrainingOptions()
        options.epochs = 4
        options.validationSplit = 0
        options.hiddenSizes = [8]
        return options
    }

    @Test func termsAreStemmedInTheOptionsLanguage() {
        var options = FeatureOptions()
        options.characterNGrams = nil
        options.wordNGrams = 1...1
        #expect(TermExtractor(options: options).terms(in: "réservation tables") == ["réservat", "tabl"])
        options.language = "fr-FR"
        #expect(TermExtractor(options: options).terms(in: "réservation tables") == ["réserv", "tabl"])
        // No Snowball stemmer for Chinese: the words stay as they are.
        options.language = "zh-CN"
        #expect(options.stemmer == nil)
        #expect(TermExtractor(options: options).terms(in: "réservation tables") == ["réservation", "tables"])
    }

    @Test func trainingFollowsTheDatasetLanguageAndTheModelKeepsIt() throws {
        let classifier = try IntentClassifier.train(on: Self.frenchDataset(language: "fr"), training: Self.quickOptions(), entities: nil)
        #expect(classifier.featurizer.options.language == "fr")
        #expect(classifier.featurizer.terms.contains("réserv"))
        #expect(!classifier.featurizer.terms.contains("réservat"))
        let url = try TestScratch.folder().appendingPathComponent("fr.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.featurizer.options.language == "fr")
        #expect(loaded.predict("réservations", top: 2) == classifier.predict("réservations", top: 2))
    }

    @Test func optionsLanguageOverridesTheDataset() throws {
        var features = FeatureOptions()
        features.language = "en"
        let classifier = try IntentClassifier.train(on: Self.frenchDataset(language: "fr"), features: features,
                                                    training: Self.quickOptions(), entities: nil)
        #expect(classifier.featurizer.options.language == "en")
        #expect(classifier.featurizer.terms.contains("réservat"))
    }

    /// A model saved before languages were recorded has no `language` in its features: English.
    @Test func modelsWithoutALanguageStemEnglish() throws {
        let classifier = try IntentClassifier.train(on: Self.frenchDataset(language: nil), training: Self.quickOptions(), entities: nil)
        #expect(classifier.featurizer.options.language == nil)
        #expect(classifier.featurizer.terms.contains("réservat"))
        let url = try TestScratch.folder().appendingPathComponent("old.nlumodel")
        try classifier.save(to: url)
        let manifest = try String(contentsOf: url.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("\"language\""))
        #expect(try IntentClassifier.load(from: url).featurizer.options.language == nil)
    }

    @Test func importLanguageNamesTheDatasetLanguage() throws {
        let folder = try TestScratch.folder()
        let csv = folder.appendingPathComponent("phrases.csv")
        try "je voudrais réserver,reserver\nannulez tout,annuler\n".write(to: csv, atomically: true, encoding: .utf8)
        #expect(try IntentImporter.importDataset(from: csv).dataset.language == nil)
        let imported = try IntentImporter.importDataset(from: csv, options: ImportOptions(language: "fr-CA"))
        #expect(imported.dataset.language == "fr")
        #expect(imported.warnings.isEmpty)

        // An export that records another language is overridden, with a warning that says so.
        let json = folder.appendingPathComponent("dataset.json")
        var dataset = Self.frenchDataset(language: "de")
        dataset.intents[0].utterances.append("réserver")
        try JSONEncoder().encode(dataset).write(to: json)
        let overridden = try IntentImporter.importDataset(from: json, options: ImportOptions(language: "fr"))
        #expect(overridden.dataset.language == "fr")
        #expect(overridden.warnings.contains { $0.contains("the export's language is de; --language fr overrides it") })
    }

    /// A Rasa project records its language in config.yml, as the platforms' exports record theirs.
    @Test func rasaProjectConfigNamesTheLanguage() throws {
        let project = try TestScratch.folder().appendingPathComponent("project")
        let data = project.appendingPathComponent("data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        try "language: de\npipeline:\n  - name: WhitespaceTokenizer\n".write(
            to: project.appendingPathComponent("config.yml"), atomically: true, encoding: .utf8)
        try """
        version: "3.1"
        nlu:
        - intent: gruss
          examples: |
            - hallo
            - guten tag
        - intent: abschied
          examples: |
            - tschüss
            - auf wiedersehen
        """.write(to: data.appendingPathComponent("nlu.yml"), atomically: true, encoding: .utf8)
        #expect(try IntentImporter.importDataset(from: project).dataset.language == "de")
        #expect(try IntentImporter.importDataset(from: project, options: ImportOptions(language: "en")).dataset.language == "en")
    }

    // MARK: Codes that are no language, languages without a stemmer

    /// The one rule (LanguageCode): a language of 2-3 letters, then subtags; a Snowball name names a stemmer.
    @Test func aLanguageMustBeACode() throws {
        for code in ["e!", "", "x", "fr-", "français", "en US", "a1"] {
            #expect(throws: IntentLanguageError(code: code)) { try IntentLanguage(code: code) }
        }
        #expect(try IntentLanguage(code: "fr-FR").stemmer == .french)
        #expect(try IntentLanguage(code: "german").stemmer == .german)
        #expect(try IntentLanguage(code: "xx").stemmer == nil)
        #expect(try IntentLanguage(code: nil).stemmer == .english)
        let message = IntentLanguageError(code: "e!", place: "--language").description
        #expect(message.hasPrefix("--language: 'e!' is not a language code (expected a code such as 'fr' or a culture such as 'fr-FR'); supported: ar, ca, cs, da, de,"))
        #expect(message.contains(" ja, ") && message.contains(" zh") && message.contains(" th, "))
    }

    @Test func importRefusesALanguageThatIsNoCode() throws {
        let folder = try TestScratch.folder()
        let json = folder.appendingPathComponent("dataset.json")
        try JSONEncoder().encode(Self.frenchDataset(language: "e!")).write(to: json)
        #expect {
            try IntentImporter.importDataset(from: json)
        } throws: { error in
            "\(error)".hasPrefix("\(json.path): field 'language': 'e!' is not a language code") && "\(error)".contains("supported: ar,")
        }
        // --language names a language the export lacks: refused before anything is read, naming the option.
        try JSONEncoder().encode(Self.frenchDataset(language: "fr")).write(to: json)
        #expect(throws: IntentLanguageError(code: "fr!", place: "--language")) {
            try IntentImporter.importDataset(from: json, options: ImportOptions(language: "fr!"))
        }
        // A LUIS app names its field: culture.
        let luis = folder.appendingPathComponent("app.json")
        try #"{"luis_schema_version": "7.0.0", "culture": "en US!", "intents": [{"name": "Greet"}, {"name": "None"}], "utterances": [{"text": "hello", "intent": "Greet", "entities": []}, {"text": "bye", "intent": "None", "entities": []}]}"#
            .write(to: luis, atomically: true, encoding: .utf8)
        #expect {
            try IntentImporter.importDataset(from: luis)
        } throws: { error in
            "\(error)".hasPrefix("\(luis.path): field 'culture': 'en' is not") || "\(error)".hasPrefix("\(luis.path): field 'culture': 'en us!' is not")
        }
    }

    @Test func trainingAndLoadingRefuseALanguageThatIsNoCode() throws {
        #expect {
            try IntentClassifier.train(on: Self.frenchDataset(language: "e!"), training: Self.quickOptions(), entities: nil, file: "bot.json")
        } throws: { error in
            "\(error)".hasPrefix("bot.json: field 'language': 'e!' is not a language code")
        }
        // A manifest edited by hand: the load names the manifest and the field.
        let classifier = try IntentClassifier.train(on: Self.frenchDataset(language: "fr"), training: Self.quickOptions(), entities: nil)
        let url = try TestScratch.folder().appendingPathComponent("fr.nlumodel")
        try classifier.save(to: url)
        let manifest = url.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains(#""language":"fr""#) || text.contains(#""language" : "fr""#))
        try text.replacingOccurrences(of: #""language":"fr""#, with: #""language":"e!""#)
            .replacingOccurrences(of: #""language" : "fr""#, with: #""language" : "e!""#)
            .write(to: manifest, atomically: true, encoding: .utf8)
        #expect {
            try IntentClassifier.load(from: url)
        } throws: { error in
            "\(error)".contains("manifest.json: field config.features.language: 'e!' is not a language code")
        }
    }

    /// A well-formed code without a stemmer trains on the words as written, and says so once, naming the
    /// stemmed languages; with built-ins in the dataset, the same one warning says they are missing too.
    @Test func aLanguageWithoutAStemmerTrainsUnstemmedAndSaysSoOnce() throws {
        var log: [String] = []
        let classifier = try IntentClassifier.train(on: Self.frenchDataset(language: "xx"), training: Self.quickOptions(),
                                                    entities: nil, file: "bot.json", entityLog: { log.append($0) })
        #expect(classifier.featurizer.terms.contains("réservation"))
        #expect(!classifier.featurizer.terms.contains("réserv") && !classifier.featurizer.terms.contains("réservat"))
        #expect(log == ["warning: bot.json: the dataset's language 'xx' has no Snowball stemmer: its words train as written, "
                        + "with the language-independent features (stemmed: \(IntentLanguage.stemmedCodes))"])
        #expect(IntentLanguage.stemmedCodes.hasPrefix("ar, ca, cs, da, de, el, en, eo, es,"))

        var withBuiltins = Self.frenchDataset(language: "ko")
        withBuiltins.entities = [EntityDefinition(name: "count", builtin: "number")]
        log = []
        _ = try IntentClassifier.train(on: withBuiltins, training: Self.quickOptions(), file: "bot.json", entityLog: { log.append($0) })
        let warnings = log.filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1, "\(log)")
        #expect(warnings.first?.contains("'ko' has no Snowball stemmer") == true)
        #expect(warnings.first?.contains("built-in entities do not read it either (supported: en, fr, es, de, pt, it, nl, zh, ja)") == true)

        // Nothing to say: a stemmed language, a language read by character, stemming turned off.
        for code in ["fr", "zh-CN", "ja", "th"] {
            log = []
            _ = try IntentClassifier.train(on: Self.frenchDataset(language: code), training: Self.quickOptions(), entities: nil,
                                           entityLog: { log.append($0) })
            #expect(log.isEmpty, "\(code): \(log)")
        }
        var unstemmed = FeatureOptions()
        unstemmed.stemming = false
        log = []
        _ = try IntentClassifier.train(on: Self.frenchDataset(language: "xx"), features: unstemmed, training: Self.quickOptions(),
                                       entities: nil, entityLog: { log.append($0) })
        #expect(log.isEmpty, "\(log)")
    }

    @Test func crossValidationSaysItOnceNotPerFold() throws {
        var dataset = Self.frenchDataset(language: "xx")
        for index in dataset.intents.indices { dataset.intents[index].utterances += dataset.intents[index].utterances.map { Utterance($0.text + " svp") } }
        var log: [String] = []
        _ = try IntentClassifier.crossValidate(dataset, folds: 3, training: Self.quickOptions(), entities: nil, log: { log.append($0) })
        #expect(log.count == 1 && log[0].contains("'xx' has no Snowball stemmer"), "\(log)")
    }
}
