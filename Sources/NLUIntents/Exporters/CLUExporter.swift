import Foundation

/// Writes an Azure CLU project (`projectFileVersion` 2023-04-01, `stringIndexType` Utf16CodeUnit):
/// intents, utterances with `category`/`offset`/`length` spans (counterexamples under `None`), and
/// per entity its list (values and synonyms), regex (patterns) and prebuilt components; an entity
/// only annotated gets a learned component. CLU has no roles, phrase lists or normalized values:
/// those are left out with a warning.
enum CLUExporter {
    struct Project: Encodable {
        var projectFileVersion = "2023-04-01"
        var stringIndexType = ScalarOffsets.Unit.utf16.rawValue
        var metadata: Metadata
        var assets: Assets
    }
    struct Metadata: Encodable {
        var projectKind = "Conversation"
        var projectName: String
        var multilingual = false
        var description = OwnOutputs.cluMark
        var language: String?
        var settings = ["confidenceThreshold": 0.0]
    }
    struct Assets: Encodable {
        var projectKind = "Conversation"
        var intents: [Category]
        var entities: [Entity]
        var utterances: [CLUUtterance]
    }
    struct Category: Encodable { var category: String }
    struct Entity: Encodable {
        var category: String
        var compositionSetting = "combineComponents"
        var list: List?
        var regex: Regex?
        var prebuilts: [Category]?
        var requiredComponents: [String]?
    }
    struct List: Encodable { var sublists: [Sublist] }
    struct Sublist: Encodable { var listKey: String; var synonyms: [Synonyms] }
    struct Synonyms: Encodable { var language: String?; var values: [String] }
    struct Regex: Encodable { var expressions: [Expression] }
    struct Expression: Encodable { var regexKey: String; var language: String?; var regexPattern: String }
    struct CLUUtterance: Encodable {
        var text: String
        var language: String?
        var intent: String
        var dataset = "Train"
        var entities: [Span]
    }
    struct Span: Encodable { var category: String; var offset: Int; var length: Int }

    /// NLUKit built-in → CLU prebuilt component.
    static let prebuilts: [String: String] = Dictionary(PlatformBuiltins.clu.map { ($0.value, $0.key) }, uniquingKeysWith: { a, b in min(a, b) })

    static func export(_ dataset: IntentDataset, warnings: inout [String]) throws -> Data {
        let language = dataset.language
        var utterances: [CLUUtterance] = []
        var roles = 0, values = 0
        for item in IntentExporter.labelled(dataset, outOfScope: "None") {
            let text = item.utterance.text
            let scalars = Array(text.unicodeScalars)
            let offsets = ScalarOffsets(text, unit: .utf16)  // one walk for all of the utterance's spans
            let spans = item.utterance.entities.map { annotation -> Span in
                if annotation.role != nil || annotation.group != nil { roles += 1 }
                if let value = annotation.value, value != AnnotationLayout.text(of: annotation, in: scalars) { values += 1 }
                let offset = offsets.unitOffset(ofScalar: annotation.start)
                let end = offsets.unitOffset(ofScalar: annotation.end)
                return Span(category: annotation.entity, offset: offset, length: end - offset)
            }
            utterances.append(CLUUtterance(text: text, language: language, intent: item.label, entities: spans))
        }
        if roles > 0 { warnings.append("\(roles) annotation(s) have roles or groups, which CLU does not hold; left out") }
        if values > 0 { warnings.append("\(values) annotation(s) have a normalized value; CLU keeps only the span") }
        var intents = dataset.intents.map { Category(category: $0.name) }
        if !dataset.counterexamples.isEmpty { intents.append(Category(category: "None")) }
        var entities: [Entity] = []
        for definition in dataset.entities {
            if definition.featureOnly {
                warnings.append("entity '\(definition.name)': a phrase list has no CLU form; left out")
                continue
            }
            var entity = Entity(category: definition.name)
            let listed = definition.values.filter { $0.patterns.isEmpty }
            if !listed.isEmpty {
                entity.list = List(sublists: listed.map {
                    Sublist(listKey: $0.value, synonyms: [Synonyms(language: language, values: [$0.value] + $0.synonyms)])
                })
                if !definition.extensible { entity.requiredComponents = ["list"] }
            }
            let expressions = definition.values.flatMap { value in
                value.patterns.map { Expression(regexKey: value.value, language: language, regexPattern: $0) }
            }
            if !expressions.isEmpty { entity.regex = Regex(expressions: expressions) }
            if let builtin = definition.builtin {
                if let prebuilt = prebuilts[builtin] { entity.prebuilts = [Category(category: prebuilt)] } else {
                    warnings.append("entity '\(definition.name)': built-in '\(builtin)' has no CLU prebuilt; left out")
                }
            }
            entities.append(entity)
        }
        // Entities only annotated: a category of their own (a learned component).
        var named = Set(entities.map(\.category))
        for utterance in utterances { for span in utterance.entities where named.insert(span.category).inserted {
            entities.append(Entity(category: span.category))
        } }
        let project = Project(metadata: Metadata(projectName: "NLUKitExport", language: language),
                              assets: Assets(intents: intents, entities: entities, utterances: utterances))
        return try IntentExporter.json(project)
    }
}
