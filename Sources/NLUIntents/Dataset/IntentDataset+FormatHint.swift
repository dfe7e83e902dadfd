extension IntentDataset {
    /// The top-level keys of NLUKit's dataset JSON.
    static let topLevelKeys: Set<String> = ["format", "version", "language", "intents", "counterexamples", "entities"]

    /// What to do about a JSON object that has the shape of an NLUKit dataset but not its `format`
    /// marker (a hand-written file, or one built by a script): only the marker tells a dataset from
    /// other exports, so detection does not guess; the hint says how to mark it. `nil` when `root`
    /// does not look like a dataset, or is marked as one.
    ///
    ///     IntentDataset.formatHint(for: ["intents": [["name": "greet", "utterances": []]]])
    ///     // "it looks like an NLUKit dataset without its \"format\" field: add ..."
    static func formatHint(for root: [String: Any]) -> String? {
        let format = root["format"]
        guard format as? String != formatName, !root.isEmpty, Set(root.keys).isSubset(of: topLevelKeys),
              let intents = root["intents"] as? [Any], !intents.isEmpty,
              intents.allSatisfy({ ($0 as? [String: Any])?["name"] is String }) else { return nil }
        guard let format else {
            return "it looks like an NLUKit dataset without its \"format\" field: add \"format\": \"\(formatName)\" at the top level, "
                + "or pass --format nlukit"
        }
        let written = (format as? String).map { "'\($0)'" } ?? "not a string"
        return "it looks like an NLUKit dataset, but its \"format\" is \(written), not '\(formatName)': "
            + "write \"format\": \"\(formatName)\", or pass --format nlukit"
    }
}
