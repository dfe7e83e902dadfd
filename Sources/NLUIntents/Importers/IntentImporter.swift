import Foundation

/// Imports intent datasets from the exports of NLU platforms: Watson Assistant and NLC, Lex V1 and
/// V2, Dialogflow ES, Alexa, Rasa (YAML, JSON, Markdown), LUIS, Snips and CSV, and NLUKit's own
/// JSON. The format is detected from the content unless given.
///
///     let result = try IntentImporter.importDataset(from: URL(fileURLWithPath: "workspace.json"))
///     print(result.format, result.dataset.intents.count)
public enum IntentImporter {
    /// Reads `url` (a file, a folder, or a zip archive) as a dataset.
    /// - Throws: ``IntentDatasetError`` naming the file and what is wrong, ``IntentLanguageError`` when
    ///   `options.language` or the export's language is not a language code.
    public static func importDataset(from url: URL, options: ImportOptions = ImportOptions()) throws -> ImportResult {
        try importInput(url, options: options).result
    }

    /// ``importDataset(from:options:)-(URL,_)``, and the language the export records (before `--language`
    /// overrides it).
    private static func importInput(_ url: URL, options: ImportOptions) throws -> (result: ImportResult, recorded: String?) {
        if let wanted = options.language { _ = try IntentLanguage(code: wanted, place: "--language") }
        let source = try ImportSource(url: url)
        var warnings: [String] = []
        let format = try options.format ?? FormatDetector.detect(source, warnings: &warnings)
        var splits = try importSplits(from: source, format: format, options: options, warnings: &warnings)
        let recorded = splits.dataset.language
        if let wanted = options.language {
            recordLanguage(wanted, in: &splits.dataset, file: source.name, warnings: &warnings)
            for split in [\ImportSplits.test, \.validation] {
                if var held = splits[keyPath: split] {
                    recordLanguage(wanted, in: &held, file: source.name, warnings: &warnings)
                    splits[keyPath: split] = held
                }
            }
        }
        // An export's language that is no language code would train without a stemmer, silently.
        _ = try IntentLanguage(code: splits.dataset.language, place: "\(source.name): \(format.languageSource)")
        if let warning = splits.dataset.scriptMismatchWarning(file: source.name) ?? splits.dataset.languageMismatchWarning(file: source.name) {
            warnings.append(warning)
        }
        // Detection and import may both decode the same file: report each warning once.
        var seen = Set<String>()
        return (ImportResult(dataset: splits.dataset, format: format, warnings: warnings.filter { seen.insert($0).inserted },
                             testDataset: splits.test, validationDataset: splits.validation), recorded)
    }

    /// Imports several inputs and merges them (e.g. one Snips file per intent). Intents named alike
    /// in different files are an error; counterexamples and entities are concatenated. Inputs that
    /// record different languages are never merged (a dataset has one language): without
    /// `options.language` that is an error naming each input's language; with it, the inputs in that
    /// language (and those that record none) are merged and the others left out, with a warning each.
    ///
    ///     let merged = try IntentImporter.importDataset(from: trainFiles)
    public static func importDataset(from urls: [URL], options: ImportOptions = ImportOptions()) throws -> ImportResult {
        guard let first = urls.first else {
            throw IntentDatasetError.unreadable(file: "(no input)", reason: "no input file given")
        }
        if urls.count == 1 { return try importDataset(from: first, options: options) }
        var inputs = try urls.map { url in (url: url, imported: try importInput(url, options: options)) }
        var warnings: [String] = []
        let languages = inputs.compactMap { input in input.imported.recorded.map { (file: input.url.path, language: $0) } }
        if Set(languages.map { LanguageChoice.language(of: $0.language) }).count > 1 {
            guard let wanted = options.language.map(LanguageChoice.language) else {
                throw IntentDatasetError.mixedLanguages(files: languages.map { "\($0.file) (\($0.language))" }, wanted: nil)
            }
            inputs.removeAll { input in
                guard let recorded = input.imported.recorded, LanguageChoice.language(of: recorded) != wanted else { return false }
                warnings.append("\(input.url.path): in \(recorded), not in --language \(options.language ?? wanted): left out")
                return true
            }
            guard !inputs.isEmpty else {
                throw IntentDatasetError.mixedLanguages(files: languages.map { "\($0.file) (\($0.language))" }, wanted: options.language)
            }
        }
        var merged = IntentDataset()
        var formats: [DatasetFormat] = []
        var seen = Set<String>()
        var test: DatasetMerger?, validation: DatasetMerger?
        for (url, imported) in inputs {
            let result = imported.result
            warnings += result.warnings
            if let part = result.testDataset {
                if test == nil { test = DatasetMerger() }
                test?.add(part)
            }
            if let part = result.validationDataset {
                if validation == nil { validation = DatasetMerger() }
                validation?.add(part)
            }
            formats.append(result.format)
            merged.language = merged.language ?? result.dataset.language
            for intent in result.dataset.intents {
                guard seen.insert(intent.name).inserted else {
                    throw IntentDatasetError.duplicateIntent(file: url.path, name: intent.name)
                }
                merged.intents.append(intent)
            }
            merged.counterexamples += result.dataset.counterexamples
            merged.entities += result.dataset.entities
        }
        try merged.validate(file: inputs.map(\.url.path).joined(separator: ", "))
        return ImportResult(dataset: merged, format: formats[0], warnings: warnings, testDataset: test?.dataset,
                            validationDataset: validation?.dataset)
    }

    /// `--language` names the dataset's language (it chooses the stemmer the intents model uses): a
    /// format that records none (CSV, Rasa, Snips) takes it; an export recorded in another language is
    /// overridden with a warning, so that the override is never silent.
    static func recordLanguage(_ wanted: String, in dataset: inout IntentDataset, file: String, warnings: inout [String]) {
        let code = LanguageChoice.language(of: wanted)
        guard !code.isEmpty else { return }
        if let recorded = dataset.language, LanguageChoice.language(of: recorded) != code {
            warnings.append("\(file): the export's language is \(recorded); --language \(wanted) overrides it")
        }
        if dataset.language.map(LanguageChoice.language) != code { dataset.language = code }
    }

    /// The training dataset and, for formats that mark test utterances (CLU, CLINC150), the test split
    /// (CLINC150: and its validation split).
    static func importSplits(from source: ImportSource, format: DatasetFormat, options: ImportOptions,
                             warnings: inout [String]) throws -> ImportSplits {
        switch format {
        case .clu: return try CLUImporter.read(source, options: options, warnings: &warnings)
        case .clinc: return try CLINCImporter.read(source, options: options, warnings: &warnings)
        default:
            return ImportSplits(dataset: try importDataset(from: source, format: format, options: options, warnings: &warnings), test: nil)
        }
    }

    static func importDataset(from source: ImportSource, format: DatasetFormat, options: ImportOptions,
                              warnings: inout [String]) throws -> IntentDataset {
        switch format {
        case .clu: return try CLUImporter.read(source, options: options, warnings: &warnings).dataset
        case .clinc: return try CLINCImporter.read(source, options: options, warnings: &warnings).dataset
        case .nlukit:
            guard source.kind == .file else { throw notAFile(source, format) }
            return try IntentDataset.decode(source.utf8Data(at: source.paths[0], warnings: &warnings), file: source.name)
        case .watson: return try WatsonAssistantImporter.read(source, options: options, warnings: &warnings)
        case .watsonNLC, .csv: return try CSVImporter.read(source, options: options, warnings: &warnings)
        case .lexV1: return try LexV1Importer.read(source, options: options, warnings: &warnings)
        case .lexV2: return try LexV2Importer.read(source, options: options, warnings: &warnings)
        case .dialogflow: return try DialogflowImporter.read(source, options: options, warnings: &warnings)
        case .alexa: return try AlexaImporter.read(source, options: options, warnings: &warnings)
        case .rasaYAML, .rasaJSON, .rasaMarkdown:
            var dataset = switch format {
            case .rasaJSON: try RasaJSONImporter.read(source, options: options, warnings: &warnings)
            case .rasaMarkdown: try RasaMarkdownImporter.read(source, options: options, warnings: &warnings)
            default: try RasaYAMLImporter.read(source, options: options, warnings: &warnings)
            }
            // Built-ins once per import: a project folder's files (read without validation) are merged first.
            guard source.kind == .folder || options.validates else { return dataset }
            let config = source.kind == .folder ? RasaDucklingBuiltins.config(near: source.url, warnings: &warnings) : nil
            // The project's language (config.yml `language`), as the other platforms' exports record theirs.
            dataset.language = dataset.language ?? config?.language
            let dimensions = config.map { RasaDucklingBuiltins.configuredDimensions(in: $0, warnings: &warnings) }
            RasaDucklingBuiltins.add(to: &dataset, dimensions: dimensions, file: source.name, warnings: &warnings)
            return dataset
        case .luis: return try LUISImporter.read(source, options: options, warnings: &warnings)
        case .snips: return try SnipsImporter.read(source, options: options, warnings: &warnings)
        case .lu: return try LUImporter.read(source, options: options, warnings: &warnings)
        case .dialogflowCX: return try DialogflowCXImporter.read(source, options: options, warnings: &warnings)
        case .watsonxActions: return try WatsonxActionsImporter.read(source, options: options, warnings: &warnings)
        case .snipsNLU: return try SnipsNLUImporter.read(source, options: options, warnings: &warnings)
        }
    }

    static func notAFile(_ source: ImportSource, _ format: DatasetFormat) -> IntentDatasetError {
        .unknownFormat(file: source.name, detail: "the \(format.summary) format is a single file, got a folder or zip")
    }
}

extension ImportSource {
    /// The single file's UTF-8 bytes, or an error when the source is a folder or zip.
    func singleFileData(_ format: DatasetFormat, warnings: inout [String]) throws -> Data {
        guard kind == .file else { throw IntentImporter.notAFile(self, format) }
        return try utf8Data(at: paths[0], warnings: &warnings)
    }

    /// The single file's text, or an error when the source is a folder or zip.
    func singleFileText(_ format: DatasetFormat, warnings: inout [String]) throws -> String {
        guard kind == .file else { throw IntentImporter.notAFile(self, format) }
        return try text(at: paths[0], warnings: &warnings)
    }
}
