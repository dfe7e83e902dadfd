import Foundation

/// CLINC150's data files (github clinc/oos-eval: `data/data_full.json`, and the `small`, `imbalanced`
/// and `oos_plus` variants of the same shape): `{"train": [[text, intent], ...], "val": [...],
/// "test": [...], "oos_train": [[text, "oos"], ...], "oos_val": [...], "oos_test": [...]}`. The
/// `train` and `oos_train` rows form the dataset, `test` and `oos_test` the test split
/// (``ImportResult/testDataset``), `val` and `oos_val` the validation split
/// (``ImportResult/validationDataset``): the split the paper chooses its threshold on, what
/// `nlu intents train --calibration-file` and `--validation-file` read. The label `oos` is one of the
/// default out-of-scope labels: its utterances become counterexamples (the "none" class).
enum CLINCImporter {
    /// Every key a CLINC150 data file may have.
    static let splitKeys: Set<String> = ["train", "val", "test", "oos_train", "oos_val", "oos_test"]

    /// Whether `root` has CLINC150's shape: a `train` list whose first row is a [text, intent] pair of
    /// strings, and no key but the splits'.
    static func isDataFile(_ root: [String: Any]) -> Bool {
        guard let train = root["train"] as? [Any], let first = train.first as? [Any], first.count == 2,
              first.allSatisfy({ $0 is String }) else { return false }
        return root.keys.allSatisfy(splitKeys.contains)
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> ImportSplits {
        let data = try source.singleFileData(.clinc, warnings: &warnings)
        let splits = try JSONInput.decode([String: [[String]]].self, from: data, file: source.name)
        if let unknown = splits.keys.sorted().first(where: { !splitKeys.contains($0) }) {
            throw IntentDatasetError.malformedJSON(file: source.name, detail: "unknown split '\(unknown)' (CLINC150's are \(splitKeys.sorted().joined(separator: ", ")))")
        }
        // One split and its out-of-scope rows as a dataset; nil when the file has neither.
        func dataset(_ split: String, named part: String?) throws -> IntentDataset? {
            let keys = [split, "oos_" + split]
            guard keys.contains(where: { !(splits[$0] ?? []).isEmpty }) else { return nil }
            var assembler = DatasetAssembler(file: part.map { "\(source.name) (\($0))" } ?? source.name, options: options, mergesDuplicates: true)
            for key in keys {
                for (index, row) in (splits[key] ?? []).enumerated() {
                    guard row.count == 2 else {
                        throw IntentDatasetError.malformedJSON(file: source.name,
                                                               detail: "'\(key)'[\(index)]: expected a [text, intent] pair, found \(row.count) string\(row.count == 1 ? "" : "s")")
                    }
                    assembler.add(Utterance(row[0]), to: row[1])
                }
            }
            return try assembler.dataset(warnings: &warnings)
        }
        guard let training = try dataset("train", named: nil) else {
            throw IntentDatasetError.malformedJSON(file: source.name, detail: "no utterance in 'train' nor 'oos_train'")
        }
        return ImportSplits(dataset: training, test: try dataset("test", named: "test"), validation: try dataset("val", named: "val"))
    }
}
