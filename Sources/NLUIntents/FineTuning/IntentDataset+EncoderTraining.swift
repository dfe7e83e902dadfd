import NLUCore

extension IntentDataset {
    /// Throws unless an intent head on an encoder can learn from the dataset: at least 2 intents to tell apart, and an
    /// utterance for each. `why` says what else the second intent is needed for, where a trainer needs it for more.
    /// - Throws: ``TrainingSettingError`` (setting "dataset") naming the count or the intent without utterances.
    func checkIntentsToTellApart(why: String? = nil) throws {
        guard intents.count >= 2 else {
            throw TrainingSettingError(setting: "dataset", value: "\(intents.count) intent\(intents.count == 1 ? "" : "s")",
                                       requirement: "at least 2 intents to tell apart" + (why.map { " (\($0))" } ?? ""))
        }
        if let empty = intents.first(where: { $0.utterances.isEmpty }) {
            throw TrainingSettingError(setting: "dataset", value: "intent '\(empty.name)' with no utterance",
                                       requirement: "at least one utterance per intent")
        }
    }
}
