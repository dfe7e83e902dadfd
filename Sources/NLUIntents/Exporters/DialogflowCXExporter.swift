import Foundation
import ZIPFoundation

/// Writes a Dialogflow CX agent package as a zip: `agent.json`, `intents/<Name>/<Name>.json` with
/// the parameters its annotations use (id = the role, else the entity; entity type `@entity`) and
/// `trainingPhrases/<lang>.json` (parts), `entityTypes/<Name>/<Name>.json` (`KIND_MAP`, or
/// `KIND_REGEXP` for pattern values) with `entities/<lang>.json`; counterexamples form the
/// `Default Negative Intent`. Built-in entities are the `@sys.*` types the annotations name, not
/// written as types. Overlapping mentions cannot be parts: the inner one is left out with a warning.
enum DialogflowCXExporter {
    struct Agent: Encodable {
        var displayName = OwnOutputs.dialogflowCXMark
        var defaultLanguageCode: String
        var timeZone = "Etc/UTC"
    }
    struct IntentFile: Encodable {
        var name: String
        var displayName: String
        var priority = 500000
        var description: String?
        var parameters: [Parameter]?
    }
    struct Parameter: Encodable { var id: String; var entityType: String }
    struct PhrasesFile: Encodable { var trainingPhrases: [Phrase] }
    struct Phrase: Encodable { var id: String; var parts: [Part]; var repeatCount = 1; var languageCode: String }
    struct Part: Encodable { var text: String; var parameterId: String? }
    struct EntityTypeFile: Encodable {
        var name: String
        var displayName: String
        var kind: String
        var autoExpansionMode: String?
    }
    struct EntitiesFile: Encodable { var entities: [Entry] }
    struct Entry: Encodable { var value: String; var synonyms: [String]; var languageCode: String }

    static func export(_ dataset: IntentDataset, warnings: inout [String]) throws -> Data {
        let language = dataset.language ?? "en"
        var files: [(String, Data)] = [("agent.json", try IntentExporter.json(Agent(defaultLanguageCode: language)))]
        var folders = Set<String>()
        func folder(_ name: String, kind: String) -> String {
            var base = name.replacingOccurrences(of: "/", with: "_")
            if base.isEmpty || base.hasPrefix(".") { base = "_" + base }
            var candidate = base
            var counter = 2
            while !folders.insert("\(kind)/\(candidate)").inserted { candidate = "\(base)_\(counter)"; counter += 1 }
            if candidate != base { warnings.append("\(kind) '\(name)': written to folder '\(candidate)' (the name clashes after '/' is replaced)") }
            return "\(kind)/\(candidate)"
        }
        var intents = dataset.intents.map { ($0.name, $0.description, $0.utterances) }
        if !dataset.counterexamples.isEmpty { intents.append((DialogflowCXImporter.negativeIntent, nil, dataset.counterexamples)) }
        for (number, (name, description, utterances)) in intents.enumerated() {
            var parameters: [Parameter] = []
            var parameterTypes: [String: String] = [:]  // id → entity type, looked up once per mention
            var phrases: [Phrase] = []
            for (index, utterance) in utterances.enumerated() {
                let place = "intent '\(name)' utterance \(index)"
                let annotations = AnnotationLayout.flat(utterance, place: place, warnings: &warnings)
                let parts = AnnotationLayout.pieces(utterance.text, annotations).map { piece -> Part in
                    guard let annotation = piece.annotation else { return Part(text: piece.text, parameterId: nil) }
                    let type = "@\(annotation.entity)"
                    var id = annotation.role ?? annotation.entity
                    if let existing = parameterTypes[id], existing != type {
                        id = "\(annotation.entity)_\(id)"
                    }
                    if parameterTypes[id] == nil {
                        parameterTypes[id] = type
                        parameters.append(Parameter(id: id, entityType: type))
                    }
                    return Part(text: piece.text, parameterId: id)
                }
                phrases.append(Phrase(id: "tp-\(number)-\(index)", parts: parts, languageCode: language))
            }
            let path = folder(name, kind: "intents")
            let leaf = (path as NSString).lastPathComponent
            files.append(("\(path)/\(leaf).json", try IntentExporter.json(IntentFile(
                name: uuid(number, kind: 1), displayName: name, description: description, parameters: parameters.isEmpty ? nil : parameters))))
            files.append(("\(path)/trainingPhrases/\(language).json", try IntentExporter.json(PhrasesFile(trainingPhrases: phrases))))
        }
        for (number, definition) in dataset.entities.enumerated() {
            if definition.builtin != nil {
                if !definition.name.hasPrefix("sys.") {
                    warnings.append("entity '\(definition.name)': a built-in is a @sys.* type in Dialogflow; not written as an entity type")
                }
                continue
            }
            if definition.featureOnly {
                warnings.append("entity '\(definition.name)': a phrase list has no Dialogflow CX form; left out")
                continue
            }
            let patterns = definition.values.flatMap(\.patterns)
            let listed = definition.values.filter { $0.patterns.isEmpty }
            if !patterns.isEmpty && !listed.isEmpty {
                warnings.append("entity '\(definition.name)': values and patterns in one entity; Dialogflow CX types are one kind, the patterns are left out")
            }
            let regexp = listed.isEmpty && !patterns.isEmpty
            let entries = regexp
                ? patterns.map { Entry(value: $0, synonyms: [$0], languageCode: language) }
                : listed.map { Entry(value: $0.value, synonyms: [$0.value] + $0.synonyms, languageCode: language) }
            let path = folder(definition.name, kind: "entityTypes")
            let leaf = (path as NSString).lastPathComponent
            files.append(("\(path)/\(leaf).json", try IntentExporter.json(EntityTypeFile(
                name: uuid(number, kind: 2), displayName: definition.name, kind: regexp ? "KIND_REGEXP" : "KIND_MAP",
                autoExpansionMode: definition.extensible && !regexp ? "AUTO_EXPANSION_MODE_DEFAULT" : "AUTO_EXPANSION_MODE_UNSPECIFIED"))))
            files.append(("\(path)/entities/\(language).json", try IntentExporter.json(EntitiesFile(entities: entries))))
        }
        let archive = try Archive(accessMode: .create)
        let date = Date(timeIntervalSince1970: 1_767_225_600)   // fixed, so the same dataset gives the same bytes
        for (path, data) in files {
            try archive.addEntry(with: path, type: .file, uncompressedSize: Int64(data.count), modificationDate: date,
                                 compressionMethod: .deflate) { position, size in
                data.subdata(in: Int(position)..<Int(position) + size)
            }
        }
        return archive.data ?? Data()
    }

    /// A stable, well-formed UUID for the `name` fields Dialogflow expects.
    private static func uuid(_ number: Int, kind: Int) -> String {
        String(format: "00000000-0000-4000-8%03d-%012d", kind, number)
    }
}
