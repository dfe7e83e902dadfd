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
        let url = try temporaryDirectory().appendingPathComponent("fr.nlumodel")
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
        let url = try temporaryDirectory().appendingPathComponent("old.nlumodel")
        try classifier.save(to: url)
        let manifest = try String(contentsOf: url.appendingPathComponent("manifest.json"), encoding: .utf8)
        #expect(!manifest.contains("\"language\""))
        #expect(try IntentClassifier.load(from: url).featurizer.options.language == nil)
    }

    @Test func importLanguageNamesTheDatasetLanguage() throws {
        let folder = try temporaryDirectory()
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
        let project = try temporaryDirectory().appendingPathComponent("project")
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
}
