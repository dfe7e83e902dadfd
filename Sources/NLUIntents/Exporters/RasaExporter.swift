import Foundation

/// Writes Rasa NLU YAML (`version: "3.1"`, `nlu:` items): intents with `[mention](entity)` or
/// `[mention]{"entity": …, "value": …, "role": …, "group": …}` markup, counterexamples as
/// `out_of_scope`, then per entity definition a `lookup:` table of its values, a `regex:` item of its
/// patterns and `synonym:` items for values with synonyms (Rasa keeps synonyms per value, not per
/// entity). Built-ins, closed entities and phrase lists have no Rasa form and are left out with a warning.
enum RasaExporter {
    static func export(_ dataset: IntentDataset, warnings: inout [String]) -> Data {
        var out = OwnOutputs.rasaMark + "version: \"3.1\"\nnlu:\n"
        var order: [String] = []
        var byLabel: [String: [String]] = [:]
        for item in IntentExporter.labelled(dataset, outOfScope: "out_of_scope") {
            if byLabel[item.label] == nil { order.append(item.label) }
            byLabel[item.label, default: []].append(marked(item.utterance, place: item.place, warnings: &warnings))
        }
        for label in order { block(&out, key: "intent", name: label, lines: byLabel[label] ?? []) }
        var synonyms: [EntityValue] = []
        for definition in dataset.entities {
            if definition.builtin != nil || definition.featureOnly || !definition.extensible {
                warnings.append("entity '\(definition.name)': Rasa has no built-in, closed or phrase-list entities; \(definition.builtin != nil || definition.featureOnly ? "left out" : "written as an open lookup table")")
                if definition.builtin != nil || definition.featureOnly { continue }
            }
            let patterns = definition.values.flatMap(\.patterns)
            let listed = definition.values.filter { $0.patterns.isEmpty }
            synonyms += listed.filter { !$0.synonyms.isEmpty }
            // The importer files every synonym under one "synonyms" definition: keep that one as synonyms only.
            if definition.name != "synonyms" || listed.contains(where: { $0.synonyms.isEmpty }) {
                if !listed.isEmpty { block(&out, key: "lookup", name: definition.name, lines: listed.map(\.value)) }
            }
            if !patterns.isEmpty { block(&out, key: "regex", name: definition.name, lines: patterns) }
        }
        for value in synonyms { block(&out, key: "synonym", name: value.value, lines: value.synonyms) }
        return Data(out.utf8)
    }

    private static func block(_ out: inout String, key: String, name: String, lines: [String]) {
        out += "- \(key): \(quoted(name))\n  examples: |\n"
        for line in lines { out += "    - \(line)\n" }
    }

    /// A YAML double-quoted scalar (JSON's string syntax is valid YAML).
    static func quoted(_ text: String) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: [text], options: [.withoutEscapingSlashes])) ?? Data("[\"\"]".utf8)
        return String(decoding: data.dropFirst().dropLast(), as: UTF8.self)
    }

    private static func marked(_ utterance: Utterance, place: String, warnings: inout [String]) -> String {
        let text = AnnotationLayout.singleLine(utterance.text, place: place, warnings: &warnings)
        let annotations = AnnotationLayout.flat(Utterance(text, entities: utterance.entities), place: place, warnings: &warnings)
        return AnnotationLayout.pieces(text, annotations).map { piece in
            guard let annotation = piece.annotation else { return piece.text }
            if annotation.role == nil, annotation.group == nil, annotation.value == nil || annotation.value == piece.text,
               !annotation.entity.contains(where: { ":()".contains($0) }) {
                return "[\(piece.text)](\(annotation.entity))"
            }
            var fields = ["\"entity\": \(quoted(annotation.entity))"]
            if let value = annotation.value, value != piece.text { fields.append("\"value\": \(quoted(value))") }
            if let role = annotation.role { fields.append("\"role\": \(quoted(role))") }
            if let group = annotation.group { fields.append("\"group\": \(quoted(group))") }
            return "[\(piece.text)]{\(fields.joined(separator: ", "))}"
        }.joined()
    }
}
