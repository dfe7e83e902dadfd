import Testing
import NLUText
@testable import NLUIntents

/// Chinese and Japanese utterances in the intent featurizer: one word per character, so the word
/// unigrams and bigrams are character unigrams and bigrams, and character n-grams across each run.
@Suite struct UnspacedScriptFeatureTests {
    @Test func chineseWordsAreCharactersAndBigramsAreCharacterPairs() {
        var options = FeatureOptions()
        options.language = "zh-CN"
        options.characterNGrams = nil
        #expect(TermExtractor(options: options).terms(in: "打开灯") == ["打", "开", "灯", "打 开", "开 灯"])
    }

    /// Character n-grams are taken across the run "东京塔" (padded as a word is), not per character; a
    /// Latin word between runs keeps its own n-grams.
    @Test func characterNGramsSpanEachRun() {
        var options = FeatureOptions()
        options.language = "ja"
        options.wordNGrams = 1...1
        options.characterNGrams = 3...3
        let terms = TermExtractor(options: options).terms(in: "東京タワー wifi 行く")
        #expect(terms == ["東", "京", "タ", "ワ", "ー", "wifi", "行", "く",
                          "# 東京", "#東京タ", "#京タワ", "#タワー", "#ワー ",
                          "# wi", "#wif", "#ifi", "#fi ",
                          "# 行く", "#行く "])
    }

    @Test func runsEndAtAnythingBetweenThem() {
        let tokens = WordTokenizer().tokens(in: "东京、大阪 ok")
        #expect(TermExtractor.characterNGramUnits(tokens) == ["东京", "、", "大阪", "ok"])
    }

    /// English terms are the same as ever (no unspaced characters, so every word is its own unit).
    @Test func englishTermsAreUnchanged() {
        let terms = TermExtractor(options: FeatureOptions()).terms(in: "Turn ON the lights")
        #expect(terms == ["turn", "on", "the", "light", "turn on", "on the", "the light",
                          "# tu", "#tur", "#urn", "#rn ", "# tur", "#turn", "#urn ",
                          "# on", "#on ", "# on ",
                          "# th", "#the", "#he ", "# the", "#the ",
                          "# li", "#lig", "#igh", "#ght", "#hts", "#ts ", "# lig", "#ligh", "#ight", "#ghts", "#hts "])
    }
}
