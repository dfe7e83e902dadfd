import NLUBuiltins
import NLUDialogue
import NLUIntents

extension ParsedMessage {
    /// The message a dialogue sees for an intent model's prediction of `text`: its ranking when it recognized
    /// an intent (none when the "none" class won or nothing passed the threshold), and every entity it
    /// extracted, numeric built-ins (numbers, ordinals, percentages) with their number for comparisons.
    ///
    ///     let message = ParsedMessage(prediction: classifier.predict("turn on the lights", top: 10))
    public init(prediction: IntentPrediction) {
        let numeric: Set<BuiltinEntityType> = [.number, .ordinal, .percentage]
        self.init(
            text: prediction.text,
            intents: prediction.intent == nil ? [] : prediction.ranking.map { .init(intent: $0.intent, confidence: Double($0.confidence)) },
            entities: prediction.entities.map { entity in
                .init(entity: entity.entity, value: entity.value, text: entity.text, start: entity.start, end: entity.end,
                      confidence: entity.confidence,
                      number: entity.builtin.map(numeric.contains) == true ? Double(entity.value) : nil)
            })
    }
}
