/// Collects intents and counterexamples as an importer reads them, then checks and finishes the
/// dataset the same way for every format: out-of-scope labels become counterexamples, intents
/// without utterances are dropped with a warning, duplicates are an error where the format has
/// intent objects (and merged where it only has labels, as CSV rows do).
struct DatasetAssembler {
    let file: String
    let options: ImportOptions
    /// Whether two intents of the same name are merged (label formats) or an error (object formats).
    let mergesDuplicates: Bool
    var language: String?
    var entities: [EntityDefinition] = []
    private var order: [String] = []
    private var utterancesByIntent: [String: [Utterance]] = [:]
    private var descriptions: [String: String] = [:]
    private var counterexamples: [Utterance] = []

    init(file: String, options: ImportOptions, mergesDuplicates: Bool) {
        self.file = file
        self.options = options
        self.mergesDuplicates = mergesDuplicates
    }

    /// Whether `label` names the out-of-scope class.
    func isOutOfScope(_ label: String) -> Bool { options.outOfScopeLabels.contains(label.lowercased()) }

    /// Adds a whole intent (object formats); a second intent of the same name throws unless merging.
    mutating func addIntent(_ name: String, description: String? = nil, utterances: [Utterance]) throws {
        if isOutOfScope(name) {
            counterexamples += utterances
            return
        }
        if utterancesByIntent[name] != nil {
            guard mergesDuplicates else { throw IntentDatasetError.duplicateIntent(file: file, name: name) }
        } else {
            order.append(name)
            utterancesByIntent[name] = []
        }
        utterancesByIntent[name, default: []] += utterances
        if let description, !description.isEmpty { descriptions[name] = description }
    }

    /// Adds one labelled utterance (label formats).
    mutating func add(_ utterance: Utterance, to label: String) {
        if isOutOfScope(label) {
            counterexamples.append(utterance)
            return
        }
        if utterancesByIntent[label] == nil { order.append(label) }
        utterancesByIntent[label, default: []].append(utterance)
    }

    /// Adds an utterance of no intent.
    mutating func addCounterexample(_ utterance: Utterance) { counterexamples.append(utterance) }

    /// The finished, validated dataset.
    func dataset(warnings: inout [String]) throws -> IntentDataset {
        var intents: [Intent] = []
        var empty: [String] = []
        for name in order {
            let utterances = utterancesByIntent[name] ?? []
            if utterances.isEmpty { empty.append(name); continue }
            let distinct = Set(utterances.map(\.text)).count
            if distinct < utterances.count {
                warnings.append("\(file): intent '\(name)' has \(utterances.count - distinct) duplicate utterance(s); kept")
            }
            intents.append(Intent(name: name, description: descriptions[name], utterances: utterances))
        }
        if !empty.isEmpty {
            warnings.append("\(file): skipped \(empty.count) intent(s) without utterances: \(empty.joined(separator: ", "))")
        }
        let dataset = IntentDataset(language: language, intents: intents, counterexamples: counterexamples, entities: entities)
        if options.validates { try dataset.validate(file: file) }
        return dataset
    }
}
