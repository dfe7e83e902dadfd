import Foundation
import NLUTestSupport
import Testing
import NLUCore
import NLUInputOutput
import NLUText
@testable import NLUIntents

/// Character n-grams across runs of Thai, Lao, Khmer and Myanmar letters (``LetterRunNGrams``): the expected
/// n-grams are scikit-learn 1.9.1's `char_wb` 3-4-grams of the same text
/// (`CountVectorizer(analyzer="char_wb", ngram_range=(3, 4)).build_analyzer()(text)`), `#~`-prefixed.
@Suite struct LetterRunNGramTests {
    static func runOptions(language: String) -> FeatureOptions {
        var options = FeatureOptions()
        options.language = language
        options.wordNGrams = 1...1
        options.characterNGrams = nil
        options.letterRunNGrams = 3...4
        return options
    }

    static func runTerms(_ text: String, language: String) -> [String] {
        TermExtractor(options: runOptions(language: language)).terms(in: text).filter(LetterRunNGrams.isTerm)
    }

    static func scikitLearn(_ grams: [String]) -> [String] { grams.map { "#~" + $0 } }

    @Test func thaiGetsThreeAndFourGramsAcrossTheRun() {
        let terms = TermExtractor(options: Self.runOptions(language: "th")).terms(in: "ปิดไฟ")
        // The letters (each with its marks) are the words; the n-grams run across them, over Unicode scalars.
        #expect(terms == ["ปิ", "ด", "ไ", "ฟ"]
                + Self.scikitLearn([" ปิ", "ปิด", "ิดไ", "ดไฟ", "ไฟ ", " ปิด", "ปิดไ", "ิดไฟ", "ดไฟ "]))
    }

    @Test func laoKhmerAndMyanmarGetThemToo() {
        #expect(Self.runTerms("ເປີດໄຟ", language: "lo") == Self.scikitLearn(
            [" ເປ", "ເປີ", "ປີດ", "ີດໄ", "ດໄຟ", "ໄຟ ", " ເປີ", "ເປີດ", "ປີດໄ", "ີດໄຟ", "ດໄຟ "]))
        #expect(Self.runTerms("បើកភ្លើង", language: "km") == Self.scikitLearn(
            [" បើ", "បើក", "ើកភ", "កភ្", "ភ្ល", "្លើ", "លើង", "ើង ",
             " បើក", "បើកភ", "ើកភ្", "កភ្ល", "ភ្លើ", "្លើង", "លើង "]))
        #expect(Self.runTerms("မီးဖွင့်", language: "my") == Self.scikitLearn(
            [" မီ", "မီး", "ီးဖ", "းဖွ", "ဖွင", "ွင့", "င့်", "့် ",
             " မီး", "မီးဖ", "ီးဖွ", "းဖွင", "ဖွင့", "ွင့်", "င့် "]))
    }

    /// A run ends at a space, a Latin word, a digit, punctuation or another script; no n-gram crosses one.
    @Test func runsEndWhereTheLettersDo() {
        var options = Self.runOptions(language: "th")
        options.letterRunNGrams = 3...3
        let terms = TermExtractor(options: options).terms(in: "ไฟ wifi ห้อง5ไฟ,ไฟ").filter(LetterRunNGrams.isTerm)
        #expect(terms == Self.scikitLearn([" ไฟ", "ไฟ ",                   // ไฟ
                                           " ห้", "ห้อ", "้อง", "อง ",        // ห้อง
                                           " ไฟ", "ไฟ ", " ไฟ", "ไฟ "]))     // ไฟ after the digit, after the comma
        // Thai then Lao with nothing between: two runs.
        #expect(Self.runTerms("ไฟໄຟ", language: "th") == Self.scikitLearn([" ไฟ", "ไฟ ", " ไฟ ", " ໄຟ", "ໄຟ ", " ໄຟ "]))
    }

    /// Chinese, Japanese and English text makes no such n-grams: their terms are what they were without the option.
    @Test func chineseJapaneseAndEnglishTermsAreUnchanged() {
        for (text, language) in [("打开客厅的灯", "zh"), ("明日の天気を教えて", "ja"), ("Turn ON the lights", "en")] {
            var before = FeatureOptions()
            before.language = language
            before.letterRunNGrams = nil
            var after = before
            after.letterRunNGrams = 1...4
            #expect(TermExtractor(options: after).terms(in: text) == TermExtractor(options: before).terms(in: text), "\(language)")
            #expect(TermExtractor(options: FeatureOptions()).terms(in: text).allSatisfy { !LetterRunNGrams.isTerm($0) })
        }
    }

    /// The padding alone is no term, so a `~` token's character n-gram `#~ ` is never taken for one.
    @Test func aTildeTokenIsNoLetterRunTerm() {
        var options = Self.runOptions(language: "th")
        options.includePunctuation = true
        options.characterNGrams = 1...3
        options.letterRunNGrams = 1...2
        let terms = TermExtractor(options: options).terms(in: "~ ไฟ")
        #expect(terms.contains("#~ "))
        #expect(terms.filter(LetterRunNGrams.isTerm) == Self.scikitLearn(["ไ", "ฟ", " ไ", "ไฟ", "ฟ "]))
    }

    @Test func lengthsOutsideOneToTwentyAreRefused() throws {
        for lengths in [0...4, 3...21] {
            var options = FeatureOptions()
            options.letterRunNGrams = lengths
            let error = #expect(throws: OutOfRangeError.self) { try options.validate() }
            #expect(error?.name == "letterRunNGrams", "\(lengths)")
        }
        var options = FeatureOptions()
        options.letterRunNGrams = 1...20
        try options.validate()
    }

    /// A manifest's lengths are checked on load, naming the field and the file.
    @Test func aManifestWithLengthsOutOfRangeIsRefused() throws {
        let url = try TestScratch.folder().appendingPathComponent("bad.nlumodel")
        try FileManager.default.copyItem(at: fixture("thai-before-letter-runs.nlumodel"), to: url)
        let manifest = url.appendingPathComponent("manifest.json")
        let text = try String(contentsOf: manifest, encoding: .utf8)
        #expect(text.contains("\"features\" : {"))
        try Data(text.replacingOccurrences(of: "\"features\" : {", with: "\"features\" : {\"letterRunNGrams\" : [0, 4],").utf8).write(to: manifest)
        let error = #expect(throws: OutOfRangeError.self) { try IntentClassifier.load(from: url) }
        #expect(error?.name == "config.features.letterRunNGrams")
        #expect(error?.file == manifest.path)
    }

    static let thaiDataset = IntentDataset(language: "th", intents: [
        Intent(name: "lights_on", utterances: ["เปิดไฟ", "เปิดไฟห้องนอน", "ช่วยเปิดไฟหน่อย"]),
        Intent(name: "lights_off", utterances: ["ปิดไฟ", "ปิดไฟห้องครัว", "ช่วยปิดไฟหน่อย"]),
        Intent(name: "weather", utterances: ["พรุ่งนี้ฝนตกไหม", "อากาศวันนี้เป็นอย่างไร", "บอกพยากรณ์อากาศ"]),
    ])

    /// A Thai model keeps its letter-run n-grams through a save and a load, and its package says that a reader
    /// needs format version 3 (an earlier one would drop them without a word).
    @Test func aThaiModelRoundTripsWithItsLetterRunNGrams() throws {
        var training = TrainingOptions()
        training.epochs = 20
        training.validationSplit = 0
        training.hiddenSizes = [8]
        let classifier = try IntentClassifier.train(on: Self.thaiDataset, training: training, entities: nil)
        #expect(classifier.featurizer.options.letterRunNGrams == 3...4)
        #expect(classifier.featurizer.terms.contains("#~ปิดไ"))
        let url = try TestScratch.folder().appendingPathComponent("th.nlumodel")
        try classifier.save(to: url)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect(manifest?["formatVersion"] as? Int == 3)
        let loaded = try IntentClassifier.load(from: url)
        #expect(loaded.featurizer.options == classifier.featurizer.options)
        #expect(loaded.featurizer.terms == classifier.featurizer.terms)
        for text in ["เปิดไฟห้องครัว", "ฝนตกไหม"] {
            #expect(loaded.featurizer.vector(for: text) == classifier.featurizer.vector(for: text))
            #expect(loaded.predict(text, top: 3) == classifier.predict(text, top: 3))
        }
    }

    /// An English model has no letter-run terms, so its package stays readable by version-1 readers.
    @Test func anEnglishModelStaysFormatVersionOne() throws {
        let dataset = IntentDataset(language: "en", intents: [
            Intent(name: "on", utterances: ["turn on the lights", "lights on please"]),
            Intent(name: "off", utterances: ["turn off the lights", "lights off please"]),
        ])
        var training = TrainingOptions()
        training.epochs = 2
        training.validationSplit = 0
        let url = try TestScratch.folder().appendingPathComponent("en.nlumodel")
        try IntentClassifier.train(on: dataset, training: training, entities: nil).save(to: url)
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: url.appendingPathComponent("manifest.json"))) as? [String: Any]
        #expect(manifest?["formatVersion"] as? Int == 1)
    }

    /// `thai-before-letter-runs.nlumodel` was trained by `nlu` before letter-run n-grams existed (at ca97203, on
    /// the dataset above: `--hidden 4 --epochs 60 --validation-split 0 --seed 1`); its manifest has no
    /// `letterRunNGrams`. It loads with none, and answers what that build answered (`nlu intents predict --json`).
    @Test func aModelSavedBeforeLetterRunNGramsLoadsWithItsOldFeatures() throws {
        let classifier = try IntentClassifier.load(from: fixture("thai-before-letter-runs.nlumodel"))
        #expect(classifier.featurizer.options.letterRunNGrams == nil)
        #expect(classifier.featurizer.options.characterNGrams == 3...4)
        let expected: [(text: String, ranking: [(String, Float)])] = [
            ("เปิดไฟห้องครัว", [("lights_off", 0.43241045), ("weather", 0.31550914), ("lights_on", 0.25208044)]),
            ("ปิดไฟ", [("lights_off", 0.37757188), ("lights_on", 0.34479824), ("weather", 0.27762994)]),
            ("ฝนตกไหม", [("weather", 0.4039828), ("lights_on", 0.29957688), ("lights_off", 0.2964403)]),
        ]
        for (text, ranking) in expected {
            let predicted = classifier.predict(text, top: 3)
            #expect(predicted.ranking.map(\.intent) == ranking.map(\.0), "\(text)")
            #expect(zip(predicted.ranking, ranking).allSatisfy { abs($0.confidence - $1.1) < 1e-5 }, "\(text)")
        }
        // With the option the package lacks, the same text would make terms the old build never made.
        var withRuns = classifier.featurizer.options
        withRuns.letterRunNGrams = 3...4
        #expect(TermExtractor(options: withRuns).terms(in: "ปิดไฟ") != TermExtractor(options: classifier.featurizer.options).terms(in: "ปิดไฟ"))
    }
}
