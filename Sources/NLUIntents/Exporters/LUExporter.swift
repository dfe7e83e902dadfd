import Foundation

/// Writes one Bot Framework `.lu` file: `> !# @app.culture`, a `# Intent` section per intent (and
/// `# None` for the counterexamples) with `{@entity=mention}` / `{@entity:role=mention}` labels
/// (nested where mentions nest), then the entity definitions: `@ list` (values with indented
/// synonyms), `@ regex` (one pattern), `@ prebuilt`, `@ phraselist`, and `@ ml` for entities only
/// annotated, each with `hasRoles` when utterances give it roles. `.lu` keeps no normalized values
/// and no closed lists: those are left out with a warning.
enum LUExporter {
    /// NLUKit built-in → LUIS prebuilt name.
    static let prebuilts: [String: String] = [
        "number": "number", "ordinal": "ordinalV2", "percentage": "percentage", "currency": "money",
        "temperature": "temperature", "age": "age", "dimension": "dimension", "email": "email", "url": "url", "phonenumber": "phonenumber",
        "datetime": "datetimeV2", "date": "datetimeV2", "time": "datetimeV2", "daterange": "datetimeV2",
        "timerange": "datetimeV2", "datetimerange": "datetimeV2", "duration": "datetimeV2", "set": "datetimeV2",
    ]

    static func export(_ dataset: IntentDataset, warnings: inout [String]) -> Data {
        var out = OwnOutputs.luMark
        if let language = dataset.language { out += "> !# @app.culture = \(language)\n" }
        var roles: [String: [String]] = [:]
        var annotated: [String] = []
        // Sets beside the ordered lists: a long utterance's many mentions are looked up in constant time.
        var annotatedNames = Set<String>(), roleNames = Set<[String]>()
        var current: String?
        var values = 0
        for item in IntentExporter.labelled(dataset, outOfScope: "None") {
            if item.label != current {
                out += "\n# \(item.label)\n"
                current = item.label
            }
            let utterance = item.utterance
            let scalars = Array(utterance.text.unicodeScalars)
            for annotation in utterance.entities {
                if annotatedNames.insert(annotation.entity).inserted { annotated.append(annotation.entity) }
                if let role = annotation.role, roleNames.insert([annotation.entity, role]).inserted { roles[annotation.entity, default: []].append(role) }
                if let value = annotation.value, value != AnnotationLayout.text(of: annotation, in: scalars) {
                    values += 1
                }
            }
            out += "- \(labelled(utterance, place: item.place, warnings: &warnings))\n"
        }
        if values > 0 { warnings.append("\(values) annotation(s) have a normalized value; .lu labels keep only the mention") }
        out += "\n"
        var defined = Set<String>()
        for definition in dataset.entities {
            defined.insert(definition.name)
            let hasRoles = roles[definition.name].map { " hasRoles \($0.joined(separator: ", "))" } ?? ""
            if !definition.extensible { warnings.append("entity '\(definition.name)': .lu lists are not closed; written as an open list") }
            if let builtin = definition.builtin {
                let name = PlatformBuiltins.luis[definition.name] == builtin ? definition.name : prebuilts[builtin]
                guard let name else {
                    warnings.append("entity '\(definition.name)': built-in '\(builtin)' has no LUIS prebuilt; left out")
                    continue
                }
                if name != definition.name { warnings.append("entity '\(definition.name)': written as '@ prebuilt \(name)'") }
                out += "@ prebuilt \(name)\(hasRoles)\n"
                continue
            }
            if definition.featureOnly {
                out += "@ phraselist \(definition.name)(interchangeable) =\n"
                out += "    - \(definition.values.map(\.value).joined(separator: ","))\n"
                continue
            }
            let listed = definition.values.filter { $0.patterns.isEmpty }
            let patterns = definition.values.flatMap(\.patterns)
            if !listed.isEmpty {
                out += "@ list \(definition.name)\(hasRoles) =\n"
                for value in listed {
                    out += "    - \(value.value) :\n"
                    for synonym in value.synonyms { out += "        - \(synonym)\n" }
                }
            }
            if let pattern = patterns.first {
                if patterns.count > 1 { warnings.append("entity '\(definition.name)': .lu regex entities hold one pattern; the others are left out") }
                out += "@ regex \(definition.name)\(listed.isEmpty ? hasRoles : "") = /\(pattern)/\n"
            }
            if listed.isEmpty && patterns.isEmpty { out += "@ ml \(definition.name)\(hasRoles)\n" }
        }
        for name in annotated where !defined.contains(name) {
            out += "@ ml \(name)\(roles[name].map { " hasRoles \($0.joined(separator: ", "))" } ?? "")\n"
        }
        return Data(out.utf8)
    }

    /// The utterance with its mentions as labels, nested where they nest; a mention that crosses
    /// another's edge is left out with a warning.
    static func labelled(_ utterance: Utterance, place: String, warnings: inout [String]) -> String {
        let text = AnnotationLayout.singleLine(utterance.text, place: place, warnings: &warnings)
        let scalars = Array(text.unicodeScalars)
        // Outer mentions first: by start, then longest. The kept mentions that enclose the current
        // start form a chain (each inside the previous): a mention crosses a kept one exactly when it
        // ends after the innermost of them, so each is checked once, not against every kept one.
        var kept: [EntityAnnotation] = []
        var enclosing: [EntityAnnotation] = []
        for annotation in utterance.entities.sorted(by: { ($0.start, -$0.end) < ($1.start, -$1.end) }) {
            while let last = enclosing.last, last.end <= annotation.start { enclosing.removeLast() }
            if let last = enclosing.last {
                let same = last.start == annotation.start && last.end == annotation.end
                if same || annotation.end > last.end {
                    warnings.append("\(place): entity '\(annotation.entity)' \(same ? "spans the same text as" : "crosses") another mention; left out")
                    continue
                }
            }
            kept.append(annotation)
            enclosing.append(annotation)
        }
        var out = ""
        var opened: [EntityAnnotation] = []
        var next = 0  // the first kept mention not opened yet (kept is in order of start)
        for (index, scalar) in scalars.enumerated() {
            while let last = opened.last, last.end == index { out += "}"; opened.removeLast() }
            while next < kept.count, kept[next].start <= index {
                let annotation = kept[next]
                out += "{@\(annotation.entity)\(annotation.role.map { ":\($0)" } ?? "")="
                opened.append(annotation)
                next += 1
            }
            if "{}\\".unicodeScalars.contains(scalar) { out += "\\" }
            out.unicodeScalars.append(scalar)
        }
        while opened.popLast() != nil { out += "}" }
        return out
    }
}
