/// The condition under which a platform's intent answers: `#Name`, or, for a name `#` cannot hold (the
/// dot of `AMAZON.StopIntent`, the spaces of Dialogflow's `Default Welcome Intent`), the top intent
/// compared by name with the same confidence threshold that `#` applies by default.
enum IntentCondition {
    static func matching(_ intent: String) -> String {
        if SlotPlaceholders.isName(intent) { return "#" + intent }
        let quote = intent.contains("'") ? "\"" : "'"
        return "intents.size() > 0 && intents[0].intent == \(quote)\(intent)\(quote) && intents[0].confidence >= \(DialogueModel.Settings().intentThreshold)"
    }
}
