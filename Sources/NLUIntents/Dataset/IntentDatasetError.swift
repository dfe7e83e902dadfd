import Foundation

/// Why a dataset or an export could not be read, imported or used for training. Each case names the
/// file (and where possible the field, line or intent) and says what was expected.
///
///     do { _ = try IntentImporter.importDataset(from: url) }
///     catch let error as IntentDatasetError { print(error) }   // "intents.json: line 3, column 7: ..."
public enum IntentDatasetError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file or folder does not exist or cannot be read.
    case unreadable(file: String, reason: String)
    /// The JSON is not well formed, or a field has the wrong type or is missing (`detail` says where).
    case malformedJSON(file: String, detail: String)
    /// The YAML is not well formed or has an unexpected shape (`detail` says where).
    case malformedYAML(file: String, detail: String)
    /// A CSV row is malformed.
    case malformedCSV(file: String, detail: String)
    /// A Markdown (legacy Rasa) line is malformed.
    case malformedMarkdown(file: String, line: Int, detail: String)
    /// The input holds nothing (an empty file or standard input), or only white space.
    case emptyInput(file: String)
    /// The format could not be recognized, or an unknown format name was given.
    case unknownFormat(file: String, detail: String)
    /// A zip or folder export lacks the files its format needs.
    case missingFiles(file: String, expected: String)
    /// The dataset was written by a newer NLUKit.
    case newerVersion(file: String, found: Int, supported: Int)
    /// The dataset has no intent with utterances.
    case noIntents(file: String)
    /// Training needs at least two classes.
    case tooFewIntents(file: String, names: [String])
    /// An utterance is empty (or only whitespace).
    case emptyUtterance(file: String, intent: String, index: Int)
    /// Two intents share a name.
    case duplicateIntent(file: String, name: String)
    /// An entity annotation lies outside its utterance.
    case invalidAnnotation(file: String, intent: String, index: Int, detail: String)
    /// An intent or entity has an empty name.
    case emptyName(file: String, what: String)
    /// An entity definition cannot be used (an invalid regex pattern, a second definition, an empty
    /// value, an unknown built-in).
    case invalidEntity(file: String, entity: String, detail: String)
    /// A path named inside an export (a lookup file, an imported `.lu` file) leads outside the
    /// export's folder (`resolved` is where it leads, `folder` the export's folder); nothing there is read.
    case outsideExport(file: String, path: String, resolved: String, folder: String)
    /// Inputs imported together record different languages (`files`: each input with its language in
    /// parentheses); a dataset has one language, and merging them would train one stemmer on both.
    /// `wanted`: the `--language` none of them is in.
    case mixedLanguages(files: [String], wanted: String?)

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            return "\(file): cannot read: \(reason)"
        case let .malformedJSON(file, detail):
            return "\(file): malformed JSON: \(detail)"
        case let .malformedYAML(file, detail):
            return "\(file): malformed YAML: \(detail)"
        case let .malformedCSV(file, detail):
            return "\(file): malformed CSV: \(detail)"
        case let .malformedMarkdown(file, line, detail):
            return "\(file): line \(line): \(detail)"
        case let .emptyInput(file):
            return "\(file): empty input: expected a dataset or an export"
        case let .unknownFormat(file, detail):
            return "\(file): unknown dataset format: \(detail)"
        case let .missingFiles(file, expected):
            return "\(file): missing files: expected \(expected)"
        case let .newerVersion(file, found, supported):
            return "\(file): dataset version \(found) is newer than this NLUKit supports (\(supported)); upgrade NLUKit"
        case let .noIntents(file):
            return "\(file): the dataset has no intents with utterances"
        case let .tooFewIntents(file, names):
            return "\(file): training needs at least two intents (or one intent and counterexamples), found \(names.isEmpty ? "none" : names.joined(separator: ", "))"
        case let .emptyUtterance(file, intent, index):
            return "\(file): intent '\(intent)': utterance \(index) is empty"
        case let .duplicateIntent(file, name):
            return "\(file): intent '\(name)' is defined more than once"
        case let .invalidAnnotation(file, intent, index, detail):
            return "\(file): intent '\(intent)': utterance \(index): \(detail)"
        case let .emptyName(file, what):
            return "\(file): \(what) has an empty name"
        case let .invalidEntity(file, entity, detail):
            return "\(file): entity '\(entity)': \(detail)"
        case let .outsideExport(file, path, resolved, folder):
            return "\(file): '\(path)' leads to \(resolved), outside the export's folder \(folder); a file an export names "
                + "is read only from inside it (import the folder that holds both, or copy the file in)"
        case let .mixedLanguages(files, wanted):
            if let wanted {
                return "\(files.joined(separator: ", ")): none of the inputs is in --language \(wanted): "
                    + "give one of their languages, or import each language separately"
            }
            return "\(files.joined(separator: ", ")): the inputs are in different languages, and a dataset has one: "
                + "import each language separately, or give --language to import the inputs in one of them"
        }
    }

    public var errorDescription: String? { description }
}
