import Foundation

/// Azure AI Language Conversational Language Understanding (CLU) project export (JSON):
/// `stringIndexType` (`Utf16CodeUnit`, `Utf8CodeUnit` or `UnicodeCodePoint`: the unit of entity
/// offsets), `metadata.language`, `assets.intents[].category`, `assets.entities[]` with `list`
/// (`sublists[].listKey` + per-language `synonyms`), `regex` (`expressions[].regexPattern`) and
/// `prebuilts` components, and `assets.utterances[]` (`text`, `intent`, `language`, `dataset`,
/// `entities[]` as `category`/`offset`/`length`). Utterances whose `dataset` is `Test` form the
/// separate test split (``ImportResult/testDataset``), kept out of training.
///
/// Exports of the earlier API versions (top-level `api-version` instead of `projectFileVersion`) are
/// read too: they name intents and entities `name` rather than `category`, hold the utterances in
/// `assets.examples`, label spans with `entity`, and give the project kind as `metadata.type`.
enum CLUImporter {
    struct Project: Decodable {
        var stringIndexType: String?
        var metadata: Metadata?
        var assets: Assets
    }
    struct Metadata: Decodable {
        var language: String?
        var projectKind: String?

        enum CodingKeys: String, CodingKey { case language, projectKind, type }
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            language = try container.decodeIfPresent(String.self, forKey: .language)
            let key: CodingKeys = container.contains(.type) && !container.contains(.projectKind) ? .type : .projectKind
            projectKind = try container.decodeIfPresent(String.self, forKey: key)
        }
    }
    struct Assets: Decodable {
        var intents: [Category]?
        var entities: [Entity]?
        var utterances: [CLUUtterance]?

        enum CodingKeys: String, CodingKey { case intents, entities, utterances, examples }
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            intents = try container.decodeIfPresent([Category].self, forKey: .intents)
            entities = try container.decodeIfPresent([Entity].self, forKey: .entities)
            let key: CodingKeys = container.contains(.examples) && !container.contains(.utterances) ? .examples : .utterances
            utterances = try container.decodeIfPresent([CLUUtterance].self, forKey: key)
        }
    }
    /// Names an intent, entity or prebuilt: `category`, or `name` in the earlier API versions.
    struct Category: Decodable {
        var category: String

        enum CodingKeys: String, CodingKey { case category, name }
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            category = try container.decode(String.self, forKey: container.contains(.name) && !container.contains(.category) ? .name : .category)
        }
    }
    struct Entity: Decodable {
        var category: String
        var list: List?
        var regex: Regex?
        var prebuilts: [Category]?
        var requiredComponents: [String]?

        enum CodingKeys: String, CodingKey { case list, regex, prebuilts, requiredComponents }
        init(from decoder: Decoder) throws {
            category = try Category(from: decoder).category
            let container = try decoder.container(keyedBy: CodingKeys.self)
            list = try container.decodeIfPresent(List.self, forKey: .list)
            regex = try container.decodeIfPresent(Regex.self, forKey: .regex)
            prebuilts = try container.decodeIfPresent([Category].self, forKey: .prebuilts)
            requiredComponents = try container.decodeIfPresent([String].self, forKey: .requiredComponents)
        }
    }
    struct List: Decodable { var sublists: [Sublist]? }
    struct Sublist: Decodable { var listKey: String; var synonyms: [Synonyms]? }
    struct Synonyms: Decodable { var language: String?; var values: [String]? }
    struct Regex: Decodable { var expressions: [Expression]? }
    struct Expression: Decodable { var regexKey: String?; var language: String?; var regexPattern: String }
    struct CLUUtterance: Decodable {
        var text: String
        var intent: String
        var language: String?
        var dataset: String?
        var entities: [Span]?
    }
    struct Span: Decodable {
        var category: String
        var offset: Int
        var length: Int

        /// `entity` in the earlier API versions.
        enum CodingKeys: String, CodingKey { case category, entity, offset, length }
        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let key: CodingKeys = container.contains(.entity) && !container.contains(.category) ? .entity : .category
            category = try container.decode(String.self, forKey: key)
            offset = try container.decode(Int.self, forKey: .offset)
            length = try container.decode(Int.self, forKey: .length)
        }
    }

    /// Whether `root` (a JSON object) is a CLU project: `projectFileVersion` and `assets`, or (the
    /// earlier API versions) `api-version` and `assets` holding intents or utterances (Azure's other
    /// projects of that time, custom text classification and NER, hold `classifiers` and `documents`).
    static func isProject(_ root: [String: Any]) -> Bool {
        guard let assets = root["assets"] as? [String: Any] else { return false }
        if root["projectFileVersion"] != nil { return true }
        return root["api-version"] != nil && (assets["intents"] != nil || assets["utterances"] != nil || assets["examples"] != nil)
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> ImportSplits {
        let data = try source.singleFileData(.clu, warnings: &warnings)
        let file = source.name
        let project = try JSONInput.decode(Project.self, from: data, file: file)
        if let kind = project.metadata?.projectKind, kind.lowercased() != "conversation" {
            throw IntentDatasetError.unknownFormat(file: file, detail: "metadata.projectKind is '\(kind)'; only Conversation projects hold intents")
        }
        let indexType = project.stringIndexType ?? ScalarOffsets.Unit.utf16.rawValue
        guard let unit = ScalarOffsets.Unit(rawValue: indexType) else {
            throw IntentDatasetError.malformedJSON(file: file, detail: "stringIndexType is '\(indexType)', expected Utf16CodeUnit, Utf8CodeUnit or UnicodeCodePoint")
        }
        let utterances = project.assets.utterances ?? []
        let languages = Set(utterances.compactMap { $0.language?.lowercased() } + [project.metadata?.language?.lowercased()].compactMap { $0 }).sorted()
        let chosen = try chooseLanguage(options.language, default: project.metadata?.language, among: languages, file: file)
        if languages.count > 1 {
            warnings.append(LanguageChoice.warning(file: file, holding: "utterances in", available: languages, reading: chosen ?? "all"))
        }
        func inLanguage(_ language: String?) -> Bool {
            guard let chosen, let language else { return true }
            return language.lowercased() == chosen
        }

        var train = DatasetAssembler(file: file, options: options, mergesDuplicates: false)
        var test = DatasetAssembler(file: file + " (Test)", options: options, mergesDuplicates: true)
        train.language = chosen.map(LanguageChoice.language) ?? project.metadata?.language.map(LanguageChoice.language)
        test.language = train.language
        var trainByIntent: [String: [Utterance]] = [:]
        var declared = (project.assets.intents ?? []).map(\.category)
        var declaredNames = Set(declared)   // membership in time independent of the intent count
        var hasTest = false
        for (index, item) in utterances.enumerated() where inLanguage(item.language ?? project.metadata?.language) {
            let utterance = convert(item, index: index, unit: unit, file: file, warnings: &warnings)
            if item.dataset?.lowercased() == "test" {
                test.add(utterance, to: item.intent)
                hasTest = true
            } else {
                if declaredNames.insert(item.intent).inserted { declared.append(item.intent) }
                trainByIntent[item.intent, default: []].append(utterance)
            }
        }
        var seen = Set<String>()
        for name in declared {
            guard seen.insert(name).inserted else {
                warnings.append("\(file): assets.intents lists '\(name)' more than once; read once")
                continue
            }
            try train.addIntent(name, utterances: trainByIntent[name] ?? [])
        }
        train.entities = (project.assets.entities ?? []).compactMap {
            definition($0, keep: inLanguage, file: file, warnings: &warnings)
        }
        let dataset = try train.dataset(warnings: &warnings)
        var testSet: IntentDataset?
        if hasTest {
            do { testSet = try test.dataset(warnings: &warnings) } catch {
                warnings.append("\(file): the Test utterances form no usable test set (\(error)); left out")
            }
        }
        return ImportSplits(dataset: dataset, test: testSet)
    }

    /// The language to read: the one asked for (matched on its primary subtag too), else the
    /// project's, else all (`nil`) when utterances carry no language.
    private static func chooseLanguage(_ wanted: String?, default fallback: String?, among languages: [String],
                                       file: String) throws -> String? {
        guard let wanted = wanted?.lowercased() else { return fallback?.lowercased() ?? languages.first }
        return try LanguageChoice.requested(wanted, among: languages, file: file, holding: "the project has")
    }

    /// The utterance with its spans converted to scalar offsets; a span that lies outside the text
    /// or cuts a character is dropped with a warning naming the utterance.
    private static func convert(_ item: CLUUtterance, index: Int, unit: ScalarOffsets.Unit, file: String,
                                warnings: inout [String]) -> Utterance {
        var annotations: [EntityAnnotation] = []
        guard let spans = item.entities, !spans.isEmpty else { return Utterance(item.text) }
        let scalars = Array(item.text.unicodeScalars)
        let offsets = ScalarOffsets(item.text, unit: unit)
        for (spanIndex, span) in spans.enumerated() {
            guard let range = offsets.scalarRange(offset: span.offset, length: span.length) else {
                warnings.append("\(file): assets.utterances[\(index)].entities[\(spanIndex)]: '\(span.category)' at offset \(span.offset), length \(span.length) "
                                + "is outside the text (\(offsets.length) \(unit.rawValue)s) or splits a character; annotation dropped")
                continue
            }
            var value = String.UnicodeScalarView()
            value.append(contentsOf: scalars[range])
            annotations.append(EntityAnnotation(start: range.lowerBound, end: range.upperBound, entity: span.category, value: String(value)))
        }
        return Utterance(item.text, entities: annotations)
    }

    /// The entity's list and regex components as a dictionary and its prebuilt as the built-in; `nil`
    /// for a learned-only entity (its annotations are all there is).
    private static func definition(_ entity: Entity, keep: (String?) -> Bool, file: String,
                                   warnings: inout [String]) -> EntityDefinition? {
        var values: [EntityValue] = []
        for sublist in entity.list?.sublists ?? [] {
            let synonyms = (sublist.synonyms ?? []).filter { keep($0.language) }.flatMap { $0.values ?? [] }
            values.append(EntityValue(sublist.listKey, synonyms: synonyms.filter { $0 != sublist.listKey }))
        }
        for (index, expression) in (entity.regex?.expressions ?? []).enumerated() where keep(expression.language) {
            values.append(EntityValue(expression.regexKey ?? "\(entity.category)_regex\(index + 1)", patterns: [expression.regexPattern]))
        }
        var builtin: String?
        for prebuilt in entity.prebuilts ?? [] {
            if let name = PlatformBuiltins.clu[prebuilt.category] {
                builtin = builtin ?? name
            } else {
                warnings.append("\(file): entity '\(entity.category)': prebuilt component '\(prebuilt.category)' has no NLUKit built-in; ignored")
            }
        }
        guard !values.isEmpty || builtin != nil else { return nil }
        // A required list component means only listed values count: a closed entity.
        let closed = entity.requiredComponents?.contains("list") == true
        return EntityDefinition(name: entity.category, values: values, extensible: !closed, builtin: builtin)
    }
}
