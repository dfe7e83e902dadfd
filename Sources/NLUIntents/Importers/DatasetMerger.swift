/// Datasets merged one after another: intents named alike joined (utterances appended), entities
/// named alike joined (values appended), counterexamples concatenated, the first language kept.
/// The indices by name live as long as the merge, so that merging many files costs their total size
/// (a project folder of 2,000 files re-indexed the whole merge for each file).
///
///     var merger = DatasetMerger()
///     for part in parts { merger.add(part) }
///     let dataset = merger.dataset
struct DatasetMerger {
    private(set) var dataset = IntentDataset()
    private var intentIndex: [String: Int] = [:]
    private var entityIndex: [String: Int] = [:]

    /// Adds `part`'s intents, counterexamples and entities.
    mutating func add(_ part: IntentDataset) {
        for intent in part.intents {
            if let index = intentIndex[intent.name] {
                dataset.intents[index].utterances += intent.utterances
            } else {
                intentIndex[intent.name] = dataset.intents.count
                dataset.intents.append(intent)
            }
        }
        dataset.counterexamples += part.counterexamples
        for entity in part.entities {
            if let index = entityIndex[entity.name] {
                dataset.entities[index].values += entity.values
            } else {
                entityIndex[entity.name] = dataset.entities.count
                dataset.entities.append(entity)
            }
        }
        dataset.language = dataset.language ?? part.language
    }
}
