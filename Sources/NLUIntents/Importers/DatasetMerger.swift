/// Datasets merged one after another: intents named alike joined (utterances appended), entities
/// named alike joined (values appended), counterexamples concatenated, the first language kept (the
/// parts are one export's files, in one language: inputs in several are refused before they are merged,
/// ``IntentImporter/importDataset(from:options:)-([URL],_)``).
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
        Self.join(part.intents, into: &dataset.intents, index: &intentIndex, name: \.name) { $0.utterances += $1.utterances }
        dataset.counterexamples += part.counterexamples
        Self.join(part.entities, into: &dataset.entities, index: &entityIndex, name: \.name) { $0.values += $1.values }
        dataset.language = dataset.language ?? part.language
    }

    /// Appends each of `items` to `list`, or joins it (`join`) with the item of its name already there.
    private static func join<Item>(_ items: [Item], into list: inout [Item], index: inout [String: Int],
                                   name: (Item) -> String, _ join: (inout Item, Item) -> Void) {
        for item in items {
            if let position = index[name(item)] {
                join(&list[position], item)
            } else {
                index[name(item)] = list.count
                list.append(item)
            }
        }
    }
}
