import Foundation
import NLUBuiltins
import NLUTestSupport
import Testing
@testable import NLUIntents

/// An intents model reads its built-ins in its dataset's language, at training (the tagger's features) and at
/// prediction, after a save and a load too; a language the built-ins do not read gets digits, e-mails, URLs and
/// phone numbers only, with one warning at training.
@Suite struct BuiltinLanguageEntityTests {
    static func utterance(_ text: String, _ mention: String?) -> Utterance {
        guard let mention, let range = text.range(of: mention) else { return Utterance(text) }
        let start = text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound)
        return Utterance(text, entities: [EntityAnnotation(start: start, end: start + mention.unicodeScalars.count, entity: "sys-number", value: mention)])
    }

    /// A French pizza-ordering dataset with a `sys-number` slot (Watson's name for a number built-in).
    static func dataset(language: String?) -> IntentDataset {
        IntentDataset(language: language, intents: [
            Intent(name: "commander", utterances: [
                utterance("je voudrais trois pizzas", "trois"), utterance("une pizza s'il vous plaît", "une"),
                utterance("quatre pizzas margherita", "quatre"), utterance("commander cinq pizzas", "cinq"),
                utterance("je veux une pizza", nil),
            ]),
            Intent(name: "annuler", utterances: [
                utterance("annulez ma commande", nil), utterance("je ne veux plus rien", nil), utterance("annuler tout", nil),
                utterance("stop, annulez", nil),
            ]),
        ], entities: [EntityDefinition(name: "sys-number", builtin: "number")])
    }

    static func train(_ dataset: IntentDataset, log: (String) -> Void = { _ in }) throws -> IntentClassifier {
        var training = TrainingOptions()
        training.hiddenSizes = [8]
        training.epochs = 30
        training.validationSplit = 0
        return try IntentClassifier.train(on: dataset, training: training, entityLog: log)
    }

    /// The values of the `sys-number` mentions the built-in recognizer resolved (the tagger may tag a word it
    /// cannot resolve: that mention keeps its text and no built-in kind).
    static func number(_ classifier: IntentClassifier, _ text: String) -> [String] {
        classifier.predict(text).entities.filter { $0.entity == "sys-number" && $0.builtin == .number }.map(\.value)
    }

    @Test func frenchModelReadsFrenchNumbersAfterReload() throws {
        let classifier = try Self.train(Self.dataset(language: "fr-FR"))
        #expect(classifier.entityExtractor?.builtins.language == .french)
        #expect(Self.number(classifier, "deux pizzas") == ["2"])
        #expect(Self.number(classifier, "douze pizzas") == ["12"])
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("fr.nlumodel")
        try classifier.save(to: url)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.entityExtractor?.builtins.language == .french)
        #expect(loaded.entityExtractor?.tagger?.builtinLanguage == .french)
        #expect(Self.number(loaded, "deux pizzas") == ["2"])
        #expect(Self.number(loaded, "trente pizzas") == ["30"])
        // Without a tagger (no annotation), a number of several words is one built-in.
        var unannotated = Self.dataset(language: "fr")
        for index in unannotated.intents.indices {
            unannotated.intents[index].utterances = unannotated.intents[index].utterances.map { Utterance($0.text) }
        }
        #expect(Self.number(try Self.train(unannotated), "quatre-vingt-dix-sept pizzas") == ["97"])
    }

    /// A Chinese dataset's model reads Chinese numerals inside unspaced utterances, with the built-ins' exact spans.
    @Test func chineseModelReadsChineseNumerals() throws {
        let dataset = IntentDataset(language: "zh-CN", intents: [
            Intent(name: "order", utterances: [Utterance("我要三个披萨"), Utterance("来两个披萨"), Utterance("订十二个披萨")]),
            Intent(name: "cancel", utterances: [Utterance("取消订单"), Utterance("我不要了"), Utterance("全部取消")]),
        ], entities: [EntityDefinition(name: "sys-number", builtin: "number")])
        let classifier = try Self.train(dataset)
        #expect(classifier.entityExtractor?.builtins.language == .chinese)
        #expect(Self.number(classifier, "我要二十五个披萨") == ["25"])
        #expect(Self.number(classifier, "来两千四百五个") == ["2450"])
    }

    @Test func datasetWithoutLanguageStaysEnglish() throws {
        let classifier = try Self.train(Self.dataset(language: nil))
        #expect(classifier.entityExtractor?.builtins.language == .english)
        #expect(Self.number(classifier, "two pizzas") == ["2"])
        #expect(Self.number(classifier, "deux pizzas").isEmpty)
    }

    @Test func unsupportedLanguageReadsDigitsOnlyAndWarnsOnce() throws {
        var logged: [String] = []
        let classifier = try Self.train(Self.dataset(language: "pl"), log: { logged.append($0) })
        let warnings = logged.filter { $0.hasPrefix("warning:") }
        #expect(warnings.count == 1, "\(logged)")
        #expect(warnings.first?.contains("'pl'") == true && warnings.first?.contains("fr") == true)
        #expect(classifier.entityExtractor?.builtins.language == nil)
        #expect(Self.number(classifier, "3 pizze") == ["3"])
        // No English word is read as a number in a Polish model, nor a digit group whose mark depends on the language.
        #expect(Self.number(classifier, "two pizzas").isEmpty)
        #expect(Self.number(classifier, "1.500 pizz").isEmpty)
    }

    @Test func englishAndFrenchDatasetsWarnNothing() throws {
        var logged: [String] = []
        _ = try Self.train(Self.dataset(language: "fr"), log: { logged.append($0) })
        _ = try Self.train(Self.dataset(language: nil), log: { logged.append($0) })
        #expect(!logged.contains { $0.hasPrefix("warning:") })
    }

    @Test func readingBuiltinsInAnotherLanguageChangesOnlyTheBuiltins() throws {
        let english = try Self.train(Self.dataset(language: nil))
        let french = english.readingBuiltins(in: .french)
        #expect(Self.number(french, "deux pizzas") == ["2"])
        #expect(french.predict("deux pizzas").intent == english.predict("deux pizzas").intent)
    }

    @Test func languageCodesResolveAsTheBuiltinsReadThem() {
        #expect(BuiltinEntityLanguage(code: nil).language == .english)
        #expect(BuiltinEntityLanguage(code: "de_DE").language == .german)
        #expect(BuiltinEntityLanguage(code: "zh-CN").language == .chinese)
        #expect(BuiltinEntityLanguage(code: "ja-JP").language == .japanese)
        #expect(BuiltinEntityLanguage(code: "ko-KR").language == nil)
        #expect(BuiltinEntityLanguage(code: "ko-KR").warning?.contains("ko-KR") == true)
        #expect(BuiltinEntityLanguage(code: "pt-BR").warning == nil)
    }
}
