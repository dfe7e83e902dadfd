import NLUBuiltins
import NLUText

/// The attributes the slot tagger sees for each token, after Snips NLU's and Rasa's CRF features:
/// the lower-cased word and its ±2 neighbours, the bigrams with the previous and next word, the word
/// shape of the token and its neighbours, prefixes (2, 3) and suffixes (2, 3, 4), digit / punctuation
/// / title-case / first / last flags, "inside a match of dictionary X" (`g:X:B` at the match's first
/// token, `g:X:I` after, also for the ±1 neighbours), "inside a match of regex entity X" (`re:X`) and, when
/// the model has built-in kinds as features, "inside a built-in match of kind X" (`bi:X`) and, with
/// ``sentenceWords``, every other word of the utterance by side: `L=w` for each word before the token, `R=w` for each
/// word after it (ATIS: "arriving … at [9 am]" is an arrival time, "ground transportation … [denver]" a plain city,
/// cues further away than ±2 words; docs/entities.md).
///
/// `scripts/fixtures/slot_features.py` is the Python port the crfsuite fixtures and the benchmark use;
/// the two must stay in step (a test compares them token by token); the port has no built-in features, which
/// are off unless the dataset uses built-ins (or `--crf-builtin-features all`).
///
///     let tokens = WordTokenizer().tokens(in: "turn on the radio")
///     SlotFeatureExtractor().attributes(tokens, in: "turn on the radio")[3]   // ["bias", "w=radio", ...]
public struct SlotFeatureExtractor: Sendable {
    /// Dictionaries whose matches become features.
    public var gazetteer: Gazetteer?
    /// Regex entities whose matches become features.
    public var patterns: RegexEntityMatcher?
    /// Built-in kinds whose matches become features.
    public var builtins: BuiltinRecognizer?
    /// Whether each token also gets the words before it (`L=w`) and after it (`R=w`), each distinct word once
    /// per side, in text order, at most ``sentenceWordWindow`` words away.
    public var sentenceWords: Bool

    /// How far each side of a token its sentence words reach. Without a bound a text of n words would get
    /// n² attributes (a long line through `nlu intents predict` or the server would exhaust memory); 64 is
    /// beyond every utterance of Snips (35 words at most) and ATIS (46), so their features are the whole
    /// utterance's words.
    public static let sentenceWordWindow = 64

    /// Makes an extractor.
    public init(gazetteer: Gazetteer? = nil, patterns: RegexEntityMatcher? = nil, builtins: BuiltinRecognizer? = nil,
                sentenceWords: Bool = false) {
        self.gazetteer = gazetteer
        self.patterns = patterns
        self.builtins = builtins
        self.sentenceWords = sentenceWords
    }

    /// The reference time of built-in features: a match's span does not depend on "now", only its value,
    /// so a fixed one keeps features the same from run to run.
    static let builtinReference = ReferenceTime(date: CivilDate(year: 2000, month: 1, day: 1)!)

    /// The attribute names of each token of `text` (tokens from ``WordTokenizer`` on `text`).
    public func attributes(_ tokens: [WordTokenizer.Token], in text: String) -> [[String]] {
        var timeouts: [RegexEntityMatcher.Timeout] = []
        return attributes(tokens, in: text, patternTimeouts: &timeouts)
    }

    /// ``attributes(_:in:)``, appending to `patternTimeouts` the regex patterns that ran out of time on `text`;
    /// `regexMatches`, when given, are ``patterns``' matches on `text` already found (not searched again).
    func attributes(_ tokens: [WordTokenizer.Token], in text: String, patternTimeouts: inout [RegexEntityMatcher.Timeout],
                    regexMatches: [RegexEntityMatcher.Match]? = nil) -> [[String]] {
        let count = tokens.count
        // Stream-safe: the attributes are hashed, and Swift hashes a run of marks in time quadratic in its length.
        let words = tokens.map { StreamSafeText.string(of: $0.text.lowercased()) }
        let shapes = tokens.map { Self.shape($0.text) }
        func word(_ i: Int) -> String { i < 0 ? "__BOS__" : (i >= count ? "__EOS__" : words[i]) }
        var dictionary = [[String]](repeating: [], count: count)
        if let gazetteer {
            for match in gazetteer.matches(tokens.map { Gazetteer.normalize($0.text) }) {
                for i in match.tokens { dictionary[i].append("g:\(match.entity):\(i == match.tokens.lowerBound ? "B" : "I")") }
            }
        }
        var regex = [[String]](repeating: [], count: count)
        if let patterns {
            for match in regexMatches ?? patterns.matches(in: text, tokens: tokens, timeouts: &patternTimeouts) {
                for i in match.tokens where !regex[i].contains("re:\(match.entity)") { regex[i].append("re:\(match.entity)") }
            }
        }
        var builtin = [[String]](repeating: [], count: count)
        if let builtins {
            // Both lists are in text order: one sweep marks the tokens each match overlaps.
            var first = 0
            for match in builtins.entities(in: text, reference: Self.builtinReference) {
                while first < count, tokens[first].range.upperBound <= match.range.lowerBound { first += 1 }
                var i = first
                while i < count, tokens[i].range.lowerBound < match.range.upperBound {
                    if !builtin[i].contains("bi:\(match.type.rawValue)") { builtin[i].append("bi:\(match.type.rawValue)") }
                    i += 1
                }
            }
        }
        var result: [[String]] = []
        result.reserveCapacity(count)
        for (i, token) in tokens.enumerated() {
            let w = words[i]
            var f = ["bias", "w=" + w]
            for d in [-2, -1, 1, 2] { f.append("w[\(d > 0 ? "+" : "")\(d)]=\(word(i + d))") }
            f.append("w[-1]|w=\(word(i - 1))|\(w)")
            f.append("w|w[+1]=\(w)|\(word(i + 1))")
            f.append("shape=" + shapes[i])
            f.append("shape[-1]=" + (i > 0 ? shapes[i - 1] : "__BOS__"))
            f.append("shape[+1]=" + (i + 1 < count ? shapes[i + 1] : "__EOS__"))
            let scalars = Array(w.unicodeScalars)
            for k in [2, 3] where scalars.count > k { f.append("p\(k)=" + String(String.UnicodeScalarView(scalars[0..<k]))) }
            for k in [2, 3, 4] where scalars.count > k { f.append("s\(k)=" + String(String.UnicodeScalarView(scalars[(scalars.count - k)...]))) }
            if token.kind == .number {
                f.append("digit")
            } else if w.unicodeScalars.contains(where: { $0.value >= 0x30 && $0.value <= 0x39 }) {
                f.append("hasdigit")
            }
            if token.kind == .punctuation || token.kind == .symbol { f.append("punct") }
            if token.text.unicodeScalars.first?.properties.isUppercase == true { f.append("title") }
            if i == 0 { f.append("first") }
            if i == count - 1 { f.append("last") }
            f += dictionary[i]
            for d in [-1, 1] where (0..<count).contains(i + d) {
                f += dictionary[i + d].map { "\($0)[\(d > 0 ? "+" : "")\(d)]" }
            }
            f += regex[i]
            f += builtin[i]
            if sentenceWords {
                let window = Self.sentenceWordWindow
                f += Self.distinct(words[max(0, i - window)..<i]).map { "L=" + $0 }
                f += Self.distinct(words[(i + 1)..<min(count, i + 1 + window)]).map { "R=" + $0 }
            }
            result.append(f)
        }
        return result
    }

    /// The words of `slice`, each once, in order of first appearance.
    static func distinct(_ slice: ArraySlice<String>) -> [String] {
        var seen = Set<String>()
        return slice.filter { seen.insert($0).inserted }
    }

    /// Word shape with runs collapsed: "Paris" → "Xx", "R2D2" → "XdXd", "3.5" → "d.d".
    static func shape<S: StringProtocol>(_ word: S) -> String {
        var result = String.UnicodeScalarView()
        var last: Unicode.Scalar?
        for scalar in word.unicodeScalars {
            let properties = scalar.properties
            let mapped: Unicode.Scalar
            if properties.isUppercase { mapped = "X" }
            else if properties.isLowercase { mapped = "x" }
            else if properties.numericType == .decimal || properties.numericType == .digit { mapped = "d" }
            else { mapped = scalar }
            if mapped != last { result.append(mapped); last = mapped }
        }
        return String(result)
    }
}
