import Foundation

/// The formats `nlu intents export` writes, by the names its `--format` accepts.
public enum ExportFormat: String, CaseIterable, Sendable {
    /// Rasa NLU YAML (3.x `nlu:` file).
    case rasa
    /// Azure CLU project JSON (importable into Language Studio).
    case clu
    /// A Bot Framework `.lu` file.
    case lu
    /// A Dialogflow CX agent package, zipped.
    case dialogflowCX = "dialogflow-cx"

    /// The file extension the output usually has.
    public var fileExtension: String {
        switch self {
        case .rasa: return "yml"
        case .clu: return "json"
        case .lu: return "lu"
        case .dialogflowCX: return "zip"
        }
    }

    /// The import format that reads this export back.
    public var importFormat: DatasetFormat {
        switch self {
        case .rasa: return .rasaYAML
        case .clu: return .clu
        case .lu: return .lu
        case .dialogflowCX: return .dialogflowCX
        }
    }
}

/// An export's bytes and what the target format could not hold (each a warning naming the intent
/// and utterance, or the entity).
public struct ExportResult: Sendable {
    /// The file's content (for `dialogflow-cx`, a zip archive).
    public var data: Data
    /// What was left out or changed on the way.
    public var warnings: [String]
}

/// Writes an ``IntentDataset`` in another platform's format, so a team can move between tools;
/// importing the export gives back the dataset (what a format cannot hold is listed in the
/// warnings and in docs/formats.md).
///
///     let result = try IntentExporter.export(dataset, format: .rasa)
///     try AtomicFile.write(to: url) { try $0.write(result.data) }
public enum IntentExporter {
    /// The dataset in `format`.
    /// - Throws: when the zip archive (Dialogflow CX) cannot be built.
    public static func export(_ dataset: IntentDataset, format: ExportFormat) throws -> ExportResult {
        var warnings: [String] = []
        let data: Data
        switch format {
        case .rasa: data = RasaExporter.export(dataset, warnings: &warnings)
        case .clu: data = try CLUExporter.export(dataset, warnings: &warnings)
        case .lu: data = LUExporter.export(dataset, warnings: &warnings)
        case .dialogflowCX: data = try DialogflowCXExporter.export(dataset, warnings: &warnings)
        }
        return ExportResult(data: data, warnings: warnings)
    }

    /// JSON as every exporter writes it: pretty, keys sorted, slashes unescaped.
    static func json<T: Encodable>(_ value: T) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
    }

    /// Every utterance of the dataset with the label it is exported under (`outOfScope` for the
    /// counterexamples) and where it comes from, for warnings.
    static func labelled(_ dataset: IntentDataset, outOfScope: String) -> [(label: String, place: String, utterance: Utterance)] {
        var result: [(String, String, Utterance)] = []
        for intent in dataset.intents {
            for (index, utterance) in intent.utterances.enumerated() {
                result.append((intent.name, "intent '\(intent.name)' utterance \(index)", utterance))
            }
        }
        for (index, utterance) in dataset.counterexamples.enumerated() {
            result.append((outOfScope, "counterexample \(index)", utterance))
        }
        return result
    }
}

/// Annotations laid out for formats that mark mentions inline and cannot nest or overlap them.
enum AnnotationLayout {
    /// The annotations sorted by start, without the ones that overlap an earlier (or longer) one.
    static func flat(_ utterance: Utterance, place: String, warnings: inout [String]) -> [EntityAnnotation] {
        var kept: [EntityAnnotation] = []
        for annotation in utterance.entities.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
            if let last = kept.last, annotation.start < last.end {
                warnings.append("\(place): entity '\(annotation.entity)' overlaps '\(last.entity)'; the format cannot nest them, left out")
                continue
            }
            kept.append(annotation)
        }
        return kept
    }

    /// The text cut into pieces, each plain or one mention (`annotations` flat and sorted).
    static func pieces(_ text: String, _ annotations: [EntityAnnotation]) -> [(text: String, annotation: EntityAnnotation?)] {
        let scalars = Array(text.unicodeScalars)
        func slice(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(scalars[range])) }
        var result: [(String, EntityAnnotation?)] = []
        var position = 0
        for annotation in annotations {
            if annotation.start > position { result.append((slice(position..<annotation.start), nil)) }
            result.append((slice(annotation.start..<annotation.end), annotation))
            position = annotation.end
        }
        if position < scalars.count { result.append((slice(position..<scalars.count), nil)) }
        return result
    }

    /// The text `annotation` covers, cut from the utterance's `scalars` (in time proportional to
    /// the mention, not to its offset).
    static func text(of annotation: EntityAnnotation, in scalars: [Unicode.Scalar]) -> String {
        let start = min(max(annotation.start, 0), scalars.count)
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<min(max(annotation.end, start), scalars.count)])
        return String(view)
    }

    /// `text` on one line: line breaks become spaces (with a warning), as line-based formats need.
    static func singleLine(_ text: String, place: String, warnings: inout [String]) -> String {
        guard text.contains(where: \.isNewline) else { return text }
        warnings.append("\(place): line breaks in the text written as spaces")
        return String(text.map { $0.isNewline ? " " : $0 })
    }
}
