/// One utterance of an entity evaluation as the report page shows it: its text, the annotated mentions
/// (trimmed to the words they cover) and the predicted ones.
///
///     let utterance = EvaluatedEntities(text: "fly to Paris", expected: [.init(entity: "city", start: 7, end: 12)],
///                                       predicted: [])
///     utterance.missed.map(\.entity)   // ["city"]
public struct EvaluatedEntities: Sendable, Equatable {
    /// The utterance as the dataset has it.
    public var text: String
    /// The annotated mentions.
    public var expected: [EntityEvaluation.Mention]
    /// The predicted mentions.
    public var predicted: [EntityEvaluation.Mention]

    public init(text: String, expected: [EntityEvaluation.Mention], predicted: [EntityEvaluation.Mention]) {
        self.text = text
        self.expected = expected
        self.predicted = predicted
    }

    /// Annotated mentions no prediction matches exactly (type and span), in text order.
    public var missed: [EntityEvaluation.Mention] {
        let predicted = Set(self.predicted)
        return Set(expected).filter { !predicted.contains($0) }.sorted { ($0.start, $0.end, $0.entity) < ($1.start, $1.end, $1.entity) }
    }

    /// Predicted mentions no annotation matches exactly, in text order.
    public var spurious: [EntityEvaluation.Mention] {
        let expected = Set(self.expected)
        return Set(predicted).filter { !expected.contains($0) }.sorted { ($0.start, $0.end, $0.entity) < ($1.start, $1.end, $1.entity) }
    }

    /// Missed plus spurious mentions: 0 when the prediction is exactly the annotation.
    public var wrongMentionCount: Int { missed.count + spurious.count }

    /// The text a mention covers (empty when its offsets fall outside the text).
    public func surface(of mention: EntityEvaluation.Mention) -> String {
        let scalars = text.unicodeScalars
        guard mention.start >= 0, mention.start <= mention.end, mention.end <= scalars.count else { return "" }
        let start = scalars.index(scalars.startIndex, offsetBy: mention.start)
        let end = scalars.index(start, offsetBy: mention.end - mention.start)
        return String(scalars[start..<end])
    }
}
