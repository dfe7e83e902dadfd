import Foundation
import NLUText

/// The one keyword analysis of a ``DocumentIndex`` and of the PostgreSQL backend: what both store for
/// a chunk and look up for a query, so that the two backends match the same terms and count the same
/// lengths. A term is a ``KeywordTerms`` term (lower-cased run of letters and digits, digits kept),
/// its Latin letters' diacritics removed as SQLite's `unicode61 remove_diacritics 2` removes them
/// ("Café" and "cafe" are one term; other scripts' letters, "й" or "ά", stay as they are), and stemmed.
///
/// An index has a language (English for every index made before languages were recorded). English
/// folds the diacritics, then stems with Snowball English (``EnglishStemmer``: "connection", "connected"
/// → "connect"), and keeps every word. Another language leaves out its Snowball stop words (``StopWords``,
/// where Snowball publishes a list), stems the word as written with the language's ``Stemmer`` (the
/// algorithms read accents: French "réservé", German "Häuser"), then folds the stem's diacritics.
///
/// Text in a script written without spaces (Chinese, Japanese, Thai) is segmented into its characters
/// and the pairs of adjacent characters (``KeywordTerms/forEachTerm(in:segmentingUnspacedScripts:_:)``),
/// in every language: before, each run of such characters was one term, and a query found a document only
/// when it held the same whole run. An index records this (``segmentationSettingKey``); one made before
/// keeps its run terms for its documents and queries alike (``englishWithoutSegmentation``), until it is
/// made again.
///
/// French, Italian and Catalan leave out their elided articles and pronouns before an apostrophe and a letter
/// (``NLUText/Elision``: "l'alarme" and "l’alarme" are "alarm", "dell'anno" is "anno"), as the intent featurizer
/// does. An index records this (``elisionSettingKey``); one made before keeps the elided words it stored, for
/// its documents and queries alike, until it is made again.
///
/// Terms longer than ``maximumTermBytes`` UTF-8 bytes (no word is; base64 runs and hashes are) are
/// left out, in documents and queries alike: PostgreSQL's GIN index refuses entries near 2.7 kB.
///
///     KeywordAnalyzer.terms("Cafés connected in 2024")   // ["cafe", "connect", "in", "2024"]
///     try KeywordAnalyzer(language: "fr").terms("Les réservations")   // ["reserv"]
public struct KeywordAnalyzer: Sendable {
    /// The longest term kept, in UTF-8 bytes.
    public static let maximumTermBytes = 240

    /// The analysis of English text, what a new index without a language uses.
    public static let english = KeywordAnalyzer(stemmer: Stemmer.english, stopWords: [], segmentsUnspacedScripts: true,
                                                elision: nil)

    /// The analysis of an index made before NLUKit segmented unspaced scripts and without a recorded
    /// language: English, each run of Han, kana or Thai one term (the analysis such an index stores).
    public static let englishWithoutSegmentation = KeywordAnalyzer(stemmer: Stemmer.english, stopWords: [],
                                                                   segmentsUnspacedScripts: false, elision: nil)

    /// The language whose stemmer (and stop words) this analysis uses.
    public var language: StemmerLanguage { stemmer.language }
    /// Whether text in scripts written without spaces becomes character and character-pair terms
    /// (every new index), or one term per run (indexes made before).
    public let segmentsUnspacedScripts: Bool
    /// The elided words left out (French, Italian, Catalan), `nil` when none are.
    public let elision: Elision?
    private let stemmer: Stemmer
    private let stopWords: Set<String>

    private init(stemmer: Stemmer, stopWords: Set<String>, segmentsUnspacedScripts: Bool, elision: Elision?) {
        self.stemmer = stemmer
        self.stopWords = stopWords
        self.segmentsUnspacedScripts = segmentsUnspacedScripts
        self.elision = elision
    }

    /// This analysis with unspaced scripts segmented or not.
    func segmentingUnspacedScripts(_ segments: Bool) -> KeywordAnalyzer {
        KeywordAnalyzer(stemmer: stemmer, stopWords: stopWords, segmentsUnspacedScripts: segments, elision: elision)
    }

    /// This analysis with its language's elided words left out or kept.
    func strippingElisions(_ strips: Bool) -> KeywordAnalyzer {
        KeywordAnalyzer(stemmer: stemmer, stopWords: stopWords, segmentsUnspacedScripts: segmentsUnspacedScripts,
                        elision: strips ? Elision(language: language) : nil)
    }

    /// The analysis of `language` (`fr`, `de-CH`, `pt_BR`, `german`...; ``StemmerLanguage/init(code:)``).
    ///
    /// - Throws: ``SearchError/invalidArgument(_:)`` naming the supported languages when Snowball has
    ///   no stemmer for it.
    public init(language code: String) throws {
        let language: StemmerLanguage
        do {
            language = try StemmerLanguage(code: code)
        } catch {
            throw SearchError.invalidArgument("keyword search language: \(error)")
        }
        if language == .english {
            self = .english
            return
        }
        do {
            self.init(stemmer: try Stemmer(language), stopWords: StopWords.list(for: language) ?? [],
                      segmentsUnspacedScripts: true, elision: Elision(language: language))
        } catch {
            throw SearchError.invalidArgument("keyword search language: \(error)")
        }
    }

    /// The index setting (`index_info` key, both backends) that records a language other than English.
    public static let settingKey = "keyword_language"

    /// The index setting (`index_info` key, both backends) that records the segmentation of unspaced
    /// scripts, with the value ``segmentationSettingValue``; an index without it keeps one term per run.
    public static let segmentationSettingKey = "keyword_unspaced_scripts"
    /// The value of ``segmentationSettingKey``: characters and adjacent pairs.
    public static let segmentationSettingValue = "characters-and-pairs"

    /// The index setting (`index_info` key, both backends) that records that elided words are left out, with the
    /// value ``elisionSettingValue``; an index of French, Italian or Catalan without it keeps them.
    public static let elisionSettingKey = "keyword_elision"
    /// The value of ``elisionSettingKey``: the elided words of ``NLUText/Elision``.
    public static let elisionSettingValue = "elided-words-removed"

    /// The settings an index records for this analysis: its language unless English (as every earlier
    /// index), the segmentation of unspaced scripts when it segments them, and the removal of elided words
    /// when it removes them.
    public var settings: [(key: String, value: String)] {
        var settings: [(key: String, value: String)] = []
        if language != .english { settings.append((Self.settingKey, language.rawValue)) }
        if segmentsUnspacedScripts { settings.append((Self.segmentationSettingKey, Self.segmentationSettingValue)) }
        if elision != nil { settings.append((Self.elisionSettingKey, Self.elisionSettingValue)) }
        return settings
    }

    /// The analysis an index's settings record (English when they record no language; runs of unspaced
    /// scripts as one term when they do not record their segmentation; elided words kept when they do not
    /// record their removal).
    ///
    /// - Throws: ``SearchError/notAnIndex(path:reason:)`` for a language NLUKit does not analyse, or a
    ///   segmentation it does not know.
    public static func recorded(in settings: [String: String], index: String) throws -> KeywordAnalyzer {
        var segments = false
        if let segmentation = settings[segmentationSettingKey] {
            guard segmentation == segmentationSettingValue else {
                throw SearchError.notAnIndex(path: index, reason: "index_info: \(segmentationSettingKey) \(segmentation) is not a segmentation NLUKit knows (\(segmentationSettingValue))")
            }
            segments = true
        }
        var stripsElisions = false
        if let elision = settings[elisionSettingKey] {
            guard elision == elisionSettingValue else {
                throw SearchError.notAnIndex(path: index, reason: "index_info: \(elisionSettingKey) \(elision) is not an elision NLUKit knows (\(elisionSettingValue))")
            }
            stripsElisions = true
        }
        guard let code = settings[settingKey] else { return english.segmentingUnspacedScripts(segments) }
        do {
            return try KeywordAnalyzer(language: code).segmentingUnspacedScripts(segments).strippingElisions(stripsElisions)
        } catch {
            throw SearchError.notAnIndex(path: index, reason: "index_info: \(settingKey) \(code) is not a language NLUKit analyses")
        }
    }

    /// The analysed English terms of `text` (``english``), in order, repeats kept.
    public static func terms(_ text: String) -> [String] {
        english.terms(text)
    }

    /// The analysed English terms of each text (``english``).
    public static func terms(ofEach texts: [String]) -> [[String]] {
        english.terms(ofEach: texts)
    }

    /// The analysed English terms of `text` separated by single spaces (``english``).
    public static func analysedText(_ text: String) -> String {
        english.analysedText(text)
    }

    /// The analysed terms of `text`, in order, repeats kept.
    public func terms(_ text: String) -> [String] {
        terms(ofEach: [text])[0]
    }

    /// The analysed terms of each text, as ``terms(_:)`` gives them; each distinct word is folded and
    /// stemmed once for all the texts (a long document repeats its words: stemming is most of the cost).
    public func terms(ofEach texts: [String]) -> [[String]] {
        var analysed: [String: String] = [:]
        return texts.map { text in
            var result: [String] = []
            KeywordTerms.forEachTerm(in: text, segmentingUnspacedScripts: segmentsUnspacedScripts, elision: elision) { term, _ in
                let stem: String
                if let known = analysed[term] {
                    stem = known
                } else {
                    stem = analyse(term)
                    analysed[term] = stem
                }
                if !stem.isEmpty, stem.utf8.count <= Self.maximumTermBytes { result.append(stem) }
            }
            return result
        }
    }

    /// One term's analysis; "" for a stop word.
    private func analyse(_ term: String) -> String {
        // English as every index before languages: fold first (old indexes stay readable as they are).
        guard language != .english else { return stemmer.stem(Self.foldingDiacritics(term)) }
        // Composed, as the algorithms and the stop-word lists spell accented letters.
        let composed = term.unicodeScalars.allSatisfy(\.isASCII) ? term : term.precomposedStringWithCanonicalMapping
        if stopWords.contains(composed) { return "" }
        return Self.foldingDiacritics(stemmer.stem(composed))
    }

    /// The analysed terms of `text` separated by single spaces: what an index stores per chunk (SQLite's
    /// FTS5 `ascii` tokenizer and PostgreSQL's `string_to_array(_, ' ')` split it back into exactly these terms).
    public func analysedText(_ text: String) -> String {
        terms(text).joined(separator: " ")
    }

    /// `term` with its Latin letters' diacritics removed, as FTS5's `remove_diacritics 2` removes them:
    /// a precomposed Latin letter (U+00C0-U+024F, U+1E00-U+1EFF) loses the combining marks of its
    /// canonical decomposition ("ệ" → "e"), and a combining diacritic written apart (U+0300-U+036F)
    /// is dropped. Letters without a decomposition ("ø", "ł", "ß") stay; "ς" becomes "σ" (case folding).
    static func foldingDiacritics(_ term: String) -> String {
        guard term.unicodeScalars.contains(where: { !$0.isASCII }) else { return term }
        var kept = String.UnicodeScalarView()
        for scalar in term.unicodeScalars {
            let value = scalar.value
            if (0x300...0x36F).contains(value) { continue }
            // Case folding, as FTS5's tokenizer folds: the final sigma is a sigma.
            if value == 0x3C2 { kept.append("\u{3C3}"); continue }
            if (0xC0...0x24F).contains(value) || (0x1E00...0x1EFF).contains(value) {
                for part in String(scalar).decomposedStringWithCanonicalMapping.unicodeScalars
                where !(0x300...0x36F).contains(part.value) { kept.append(part) }
            } else {
                kept.append(scalar)
            }
        }
        return String(kept)
    }
}
