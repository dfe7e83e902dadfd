import NLUText

/// How well predicted entities match the annotated ones, CoNLL-style: a prediction counts only when its
/// entity type and exact span (Unicode-scalar start and end) equal an annotation's. Precision, recall
/// and F1 per entity type and micro-averaged over all mentions. Annotations are first trimmed to the
/// word tokens they cover (exports often include a trailing space), as the tagger learns them.
///
///     let report = EntityEvaluation(expected: [[.init(entity: "city", start: 7, end: 12)]],
///                                   predicted: [[.init(entity: "city", start: 7, end: 12)]])
///     report.microF1   // 1
public struct EntityEvaluation: Sendable, Encodable {
    /// One mention as the metric sees it.
    public struct Mention: Sendable, Hashable, Encodable {
        public var entity: String
        public var start: Int
        public var end: Int

        public init(entity: String, start: Int, end: Int) {
            self.entity = entity
            self.start = start
            self.end = end
        }
    }

    /// Precision, recall, F1 and support (annotated mentions) of one entity type.
    public struct Scores: Sendable, Equatable, Encodable {
        public var precision: Double
        public var recall: Double
        public var f1: Double
        public var support: Int
    }

    /// Micro-averaged precision over all predicted mentions.
    public var microPrecision: Double
    /// Micro-averaged recall over all annotated mentions.
    public var microRecall: Double
    /// Harmonic mean of the two.
    public var microF1: Double
    /// Scores per entity type (types annotated or predicted).
    public var perEntity: [String: Scores]
    /// Fraction of utterances whose predicted mentions are exactly the annotated ones.
    public var exactUtterances: Double
    /// Every utterance with its annotated and predicted mentions, in evaluation order (empty when the
    /// evaluation was made from mentions alone). Not part of the JSON form, like
    /// ``IntentEvaluation/utterances``: the report page shows the word confusion and the errors.
    public var utterances: [EvaluatedEntities] = []

    // Every stored property but `utterances`.
    private enum CodingKeys: String, CodingKey {
        case microPrecision, microRecall, microF1, perEntity, exactUtterances
    }

    /// The label of a word outside every mention in ``wordConfusion``.
    public static let noEntityLabel = "(none)"

    /// Scores `utterances` (their annotated and predicted mentions) and keeps them for
    /// ``wordConfusion`` and ``worstErrors(limit:)``.
    public init(utterances: [EvaluatedEntities]) {
        self.init(expected: utterances.map(\.expected), predicted: utterances.map(\.predicted))
        self.utterances = utterances
    }

    /// Compares per-utterance mention sets pairwise.
    public init(expected: [[Mention]], predicted: [[Mention]]) {
        var truePositives: [String: Int] = [:], predictedCount: [String: Int] = [:], support: [String: Int] = [:]
        var exact = 0
        for (gold, guess) in zip(expected, predicted) {
            let goldSet = Set(gold), guessSet = Set(guess)
            if goldSet == guessSet { exact += 1 }
            for mention in goldSet { support[mention.entity, default: 0] += 1 }
            for mention in guessSet {
                predictedCount[mention.entity, default: 0] += 1
                if goldSet.contains(mention) { truePositives[mention.entity, default: 0] += 1 }
            }
        }
        func scores(_ tp: Int, _ predicted: Int, _ support: Int) -> Scores {
            let precision = predicted == 0 ? 0 : Double(tp) / Double(predicted)
            let recall = support == 0 ? 0 : Double(tp) / Double(support)
            return Scores(precision: precision, recall: recall,
                          f1: precision + recall == 0 ? 0 : 2 * precision * recall / (precision + recall), support: support)
        }
        var perEntity: [String: Scores] = [:]
        for entity in Set(support.keys).union(predictedCount.keys) {
            perEntity[entity] = scores(truePositives[entity] ?? 0, predictedCount[entity] ?? 0, support[entity] ?? 0)
        }
        let micro = scores(truePositives.values.reduce(0, +), predictedCount.values.reduce(0, +), support.values.reduce(0, +))
        self.perEntity = perEntity
        microPrecision = micro.precision
        microRecall = micro.recall
        microF1 = micro.f1
        exactUtterances = expected.isEmpty ? 0 : Double(exact) / Double(min(expected.count, predicted.count))
    }

    /// Which entity each word of the evaluated utterances was annotated with (rows) and predicted as
    /// (columns), ``noEntityLabel`` for a word outside every mention: Rasa's entity confusion matrix.
    /// A word is inside a mention when the mention covers all of it. Entity types sorted, then
    /// ``noEntityLabel``.
    public var wordConfusion: ConfusionMatrix {
        var expected: [String] = [], predicted: [String] = []
        let tokenizer = WordTokenizer()
        for utterance in utterances {
            let words = utterance.text.scalarOffsets(of: tokenizer.tokens(in: utterance.text).map(\.range))
            func label(_ word: Range<Int>, _ mentions: [Mention]) -> String {
                mentions.first { $0.start <= word.lowerBound && word.upperBound <= $0.end }?.entity ?? Self.noEntityLabel
            }
            for word in words {
                expected.append(label(word, utterance.expected))
                predicted.append(label(word, utterance.predicted))
            }
        }
        let types = Set(expected + predicted).subtracting([Self.noEntityLabel]).sorted()
        return ConfusionMatrix(expected: expected, predicted: predicted, labels: types + [Self.noEntityLabel])
    }

    /// The utterances whose predicted mentions differ from the annotated ones, those with the most wrong
    /// mentions (missed plus spurious) first, ties in evaluation order; at most `limit`.
    public func worstErrors(limit: Int) -> [EvaluatedEntities] {
        let wrong = utterances.enumerated().map { (offset: $0.offset, utterance: $0.element, count: $0.element.wrongMentionCount) }
            .filter { $0.count > 0 }
        let sorted = wrong.sorted { $0.count != $1.count ? $0.count > $1.count : $0.offset < $1.offset }
        return sorted.prefix(max(0, limit)).map(\.utterance)
    }

    /// The annotations of `utterance` trimmed to the word tokens they cover (those covering none dropped).
    public static func mentions(of utterance: Utterance) -> [Mention] {
        let offsets = utterance.text.scalarOffsets(of: WordTokenizer().tokens(in: utterance.text).map(\.range))
        return utterance.entities.compactMap { annotation in
            let inside = SlotTagScheme.tokens(of: offsets, inside: annotation)
            guard let first = inside.first, let last = inside.last else { return nil }
            return Mention(entity: annotation.entity, start: offsets[first].lowerBound, end: offsets[last].upperBound)
        }
    }

    /// The per-type table and the micro averages.
    public func table() -> String {
        var lines = [String(format: "entities: micro precision %.4f   recall %.4f   F1 %.4f   utterances with all entities right %.1f%%",
                            microPrecision, microRecall, microF1, exactUtterances * 100)]
        let width = max(6, perEntity.keys.map(\.count).max() ?? 0)
        func pad(_ text: String, _ width: Int, left: Bool = false) -> String {
            let padding = String(repeating: " ", count: max(0, width - text.count))
            return left ? text + padding : padding + text
        }
        lines.append(pad("entity", width, left: true) + "  precision  recall      f1  support")
        for entity in perEntity.keys.sorted() {
            guard let s = perEntity[entity] else { continue }
            lines.append(pad(entity, width, left: true) + "  " + pad(String(format: "%.3f", s.precision), 9) + "  "
                         + pad(String(format: "%.3f", s.recall), 6) + "  " + pad(String(format: "%.3f", s.f1), 6) + "  " + pad("\(s.support)", 7))
        }
        return lines.joined(separator: "\n")
    }
}
