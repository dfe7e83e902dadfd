/// Choices for importing an export into an ``IntentDataset``.
///
///     let options = ImportOptions(format: .rasaYAML, outOfScopeLabels: ["out_of_scope"])
public struct ImportOptions: Sendable {
    /// The format, or `nil` to detect it from the file.
    public var format: DatasetFormat?
    /// Intent labels (compared case-insensitively) whose utterances become counterexamples, i.e. the
    /// "none" class: LUIS's `None`, Rasa's `out_of_scope`, Watson's `irrelevant`, ...
    public var outOfScopeLabels: Set<String>
    /// The language to read from multi-language exports (Dialogflow, Lex V2), e.g. `en`; `nil` picks
    /// the agent's default, else English, else the first.
    public var language: String?

    /// Whether importers validate what they read; off while a folder's files are read one by one
    /// (a file of synonyms alone is no dataset), the merged result being validated once.
    var validates = true

    /// The labels treated as out of scope unless told otherwise.
    public static let defaultOutOfScopeLabels: Set<String> = ["none", "out_of_scope", "oos", "irrelevant", "nlu_fallback"]

    /// Creates import options.
    public init(format: DatasetFormat? = nil, outOfScopeLabels: Set<String> = ImportOptions.defaultOutOfScopeLabels,
                language: String? = nil) {
        self.format = format
        self.outOfScopeLabels = Set(outOfScopeLabels.map { $0.lowercased() })
        self.language = language
    }
}

/// What an import produced: the dataset, the format it was read as, and warnings worth showing
/// (Latin-1 fallback, skipped intents, ...).
///
///     let result = try IntentImporter.importDataset(from: url)
///     result.warnings.forEach { print("warning:", $0) }
public struct ImportResult: Sendable {
    /// The imported, validated dataset.
    public var dataset: IntentDataset
    /// The format the input was read as.
    public var format: DatasetFormat
    /// Non-fatal problems met on the way.
    public var warnings: [String]
    /// The utterances the export sets apart for testing (CLU's `dataset: "Test"`), as a dataset of
    /// their own for `nlu intents evaluate`; `nil` when the export marks none.
    public var testDataset: IntentDataset?
    /// The utterances the export sets apart for choosing settings (CLINC150's `val`), for
    /// `nlu intents train --validation-file` or `--calibration-file`; `nil` when it marks none.
    public var validationDataset: IntentDataset?

    /// Creates an import result.
    public init(dataset: IntentDataset, format: DatasetFormat, warnings: [String], testDataset: IntentDataset? = nil,
                validationDataset: IntentDataset? = nil) {
        self.dataset = dataset
        self.format = format
        self.warnings = warnings
        self.testDataset = testDataset
        self.validationDataset = validationDataset
    }
}

/// An importer's output: the training dataset and the export's test and validation splits, where it has them.
struct ImportSplits {
    var dataset: IntentDataset
    var test: IntentDataset?
    var validation: IntentDataset? = nil
}
