import Testing
import NLUText
@testable import NLUIntents

/// Chinese and Japanese utterances in the intent featurizer: one word per character, so the word
/// unigrams and bigrams are character unigrams and bigrams.
@Suite struct UnspacedScriptFeatureTests {
    @Test func chineseWordsAreCharactersAndBigramsAreCharacterPairs() {
        var options = FeatureOptions()
        options.language = "zh-CN"
        options.characterNGrams = nil
        #expect(TermExtractor(options: options).terms(in: "打开灯") == ["打", "开", "灯", "打 开", "开 灯"])
    }

    /// Character n-grams stay inside each word, so a character's are its padded self; a Latin word between
    /// runs keeps its own. (Across whole runs they cost accuracy on xSID: docs/benchmarks.md.)
    @Test func characterNGramsStayInsideEachCharacter() {
        var options = FeatureOptions()
        options.language = "ja"
        options.wordNGrams = 1...1
        options.characterNGrams = 3...3
        let terms = TermExtractor(options: options).terms(in: "東京タワー wifi 行く")
        #expect(terms == ["東", "京", "タ", "ワ", "ー", "wifi", "行", "く",
                          "# 東 ", "# 京 ", "# タ ", "# ワ ", "# ー ",
                          "# wi", "#wif", "#ifi", "#fi ",
                          "# 行 ", "# く "])
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
