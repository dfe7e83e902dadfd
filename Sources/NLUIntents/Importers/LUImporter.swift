import Foundation

/// Bot Framework `.lu` files (one, a folder of them, or several given together), read by
/// ``LUFileReader``: utterances with `{@entity=value}` / `{entity=value}` labels (nested labels and
/// `{@entity:role=value}` too; a label naming a role resolves to the entity that declares it),
/// pattern utterances (`{entity}` placeholders) expanded with the entity's list values, `@ list`
/// values with synonyms, `@ regex` patterns, `@ prebuilt` built-ins, `@ phraselist` as
/// feature-only dictionaries. The `None` intent is the out-of-scope class. A folder of files in several
/// cultures (``LUCulture``: `main.en-us.lu` and `main.fr-fr.lu`) is read in one of them: `--language`'s, else
/// English's, else the first, with a warning naming them; files of no culture are read with it.
enum LUImporter {
    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        var reader = LUFileReader(folder: source.exportFolder)
        var culture: String?
        switch source.kind {
        case .file:
            try reader.read(source.url, warnings: &warnings)
            culture = reader.culture ?? LUCulture.inName(source.url.path)
        case .folder:
            let files = source.paths.filter { $0.hasSuffix(".lu") }
            guard !files.isEmpty else { throw IntentDatasetError.missingFiles(file: source.name, expected: ".lu files") }
            var cultures: [String: String] = [:]
            for path in files {
                cultures[path] = try LUCulture.declared(in: source.text(at: path, warnings: &warnings)) ?? LUCulture.inName(path)
            }
            culture = try chooseCulture(Array(cultures.values), source: source, options: options, warnings: &warnings)
            for path in files {
                if let own = cultures[path], let culture, LanguageChoice.normalized(own) != LanguageChoice.normalized(culture) { continue }
                try reader.read(source.url.appendingPathComponent(path), warnings: &warnings)
            }
        case .zip:
            throw IntentDatasetError.unknownFormat(file: source.name, detail: ".lu files are read from a file or a folder, not a zip")
        }
        return try dataset(from: reader, file: source.name, culture: culture, options: options, warnings: &warnings)
    }

    /// The culture a folder's files are read in: the only one, or of several `--language`'s (an error naming
    /// them when it is not among them), else the first English one, else the first; `nil` when no file has one.
    static func chooseCulture(_ found: [String], source: ImportSource, options: ImportOptions,
                              warnings: inout [String]) throws -> String? {
        var cultures: [String] = []
        for culture in found.sorted() where !cultures.contains(where: { LanguageChoice.normalized($0) == LanguageChoice.normalized(culture) }) {
            cultures.append(culture)
        }
        guard cultures.count > 1 else { return cultures.first }
        let holding = ".lu files in the cultures"
        let chosen = try options.language.map { try LanguageChoice.requested($0, among: cultures, file: source.name, holding: holding) }
            ?? cultures.first { LanguageChoice.language(of: $0) == "en" } ?? cultures[0]
        warnings.append(LanguageChoice.warning(file: source.name, holding: holding, available: cultures, reading: chosen))
        return chosen
    }

    static func dataset(from reader: LUFileReader, file: String, culture: String? = nil, options: ImportOptions,
                        warnings: inout [String]) throws -> IntentDataset {
        // Roles name their entity: `{@fromCity=Seattle}` with `@ ml city hasRoles fromCity`.
        var roleOwner: [String: String] = [:]
        for definition in reader.definitions { for role in definition.roles { roleOwner[role] = roleOwner[role] ?? definition.name } }
        let declared = Set(reader.definitions.map(\.name))
        var sampleValues: [String: [String]] = [:]
        for definition in reader.definitions where definition.kind == "list" {
            sampleValues[definition.name] = definition.values.map(\.value)
            for role in definition.roles { sampleValues[role] = sampleValues[role] ?? definition.values.map(\.value) }
        }
        var expander = PlaceholderExpander(sampleValues: sampleValues)
        var assembler = DatasetAssembler(file: file, options: options, mergesDuplicates: true)
        assembler.language = (culture ?? reader.culture).map(LanguageChoice.language)
        var order: [String] = []
        var byIntent: [String: [Utterance]] = [:]
        var seenTexts = Set<String>()
        for section in reader.sections {
            if byIntent[section.intent] == nil { order.append(section.intent); byIntent[section.intent] = [] }
            for line in section.lines {
                var utterance: Utterance
                switch labels(in: line.text) {
                case .success(let labelled):
                    utterance = labelled
                case .failure(.unbalanced):
                    warnings.append("\(line.file): line \(line.line): unbalanced '{' in '\(line.text.prefix(60))'; read as plain text")
                    utterance = Utterance(line.text)
                case .failure(.nestedTooDeeply):
                    warnings.append("\(line.file): line \(line.line): labels nested more than \(maximumLabelDepth) deep in '\(line.text.prefix(60))'; read as plain text")
                    utterance = Utterance(line.text)
                }
                if isPattern(line.text) {
                    utterance = expander.expand(patternTemplate(line.text))
                }
                utterance.entities = utterance.entities.map { annotation in
                    var annotation = annotation
                    if !declared.contains(annotation.entity), let owner = roleOwner[annotation.entity] {
                        annotation.role = annotation.role ?? annotation.entity
                        annotation.entity = owner
                    }
                    return annotation
                }
                guard !utterance.text.allSatisfy(\.isWhitespace) else {
                    warnings.append("\(line.file): line \(line.line): empty utterance skipped")
                    continue
                }
                guard seenTexts.insert("\(section.intent)\u{0}\(utterance.text)").inserted else {
                    warnings.append("\(line.file): line \(line.line): duplicate utterance in '\(section.intent)' skipped")
                    continue
                }
                byIntent[section.intent, default: []].append(utterance)
            }
        }
        for name in order { try assembler.addIntent(name, utterances: byIntent[name] ?? []) }
        assembler.entities = reader.definitions.compactMap { definition in
            switch definition.kind {
            case "list": return EntityDefinition(name: definition.name, values: definition.values)
            case "regex": return definition.values.isEmpty ? nil : EntityDefinition(name: definition.name, values: definition.values)
            case "prebuilt": return definition.builtin.map { EntityDefinition(name: definition.name, builtin: $0) }
            case "phraselist":
                return EntityDefinition(name: definition.name, values: definition.values, featureOnly: true)
            default: return nil
            }
        }
        return try assembler.dataset(warnings: &warnings)
    }

    /// Whether the utterance is a LUIS pattern: a `{entity}` placeholder without `=`.
    static func isPattern(_ text: String) -> Bool {
        var depth = 0, sawEquals = false
        var previous: Character = " "
        for character in text {
            if previous == "\\" { previous = " "; continue }
            switch character {
            case "{": depth += 1; sawEquals = false
            case "=" where depth > 0: sawEquals = true
            case "}" where depth > 0:
                depth -= 1
                if !sawEquals { return true }
            default: break
            }
            previous = character
        }
        return false
    }

    /// A pattern with optional text `[...]` kept and alternatives `(a|b)` reduced to the first,
    /// `{@entity}` written `{entity}` for the placeholder expander.
    static func patternTemplate(_ text: String) -> String {
        var result = ""
        var alternative: Int? = nil   // inside (a|b): 0 keeps, 1 drops
        for character in text {
            switch character {
            case "[", "]": continue
            case "(": alternative = 0
            case ")": alternative = nil
            case "|" where alternative != nil: alternative = 1
            default:
                if alternative == 1 { continue }
                result.append(character)
            }
        }
        return result.replacingOccurrences(of: "{@", with: "{")
    }

    /// The utterance with `{@entity=value}`, `{entity=value}` and `{@entity:role=value}` labels
    /// turned into annotations (nested labels included); `nil` when braces do not balance or labels
    /// nest deeper than ``maximumLabelDepth``.
    static func labelledUtterance(_ text: String) -> Utterance? {
        try? labels(in: text).get()
    }

    /// Why a line's labels cannot be read (the line is then read as plain text, with a warning).
    enum LabelProblem: Error {
        case unbalanced
        case nestedTooDeeply
    }

    /// Labels inside labels deeper than this are refused: the parser recurses once per level.
    static let maximumLabelDepth = 16

    /// ``labelledUtterance(_:)``, saying why when it fails.
    static func labels(in text: String) -> Result<Utterance, LabelProblem> {
        var builder = UtteranceBuilder()
        let characters = Array(text)
        var position = 0
        var problem = LabelProblem.unbalanced
        guard parse(characters, &position, into: &builder, depth: 0, problem: &problem), position == characters.count else {
            return .failure(problem)
        }
        return .success(builder.utterance)
    }

    /// Appends characters up to an unmatched `}` (or the end); returns false on an unclosed `{`, or
    /// labels nested too deeply (`problem` says which).
    private static func parse(_ characters: [Character], _ position: inout Int, into builder: inout UtteranceBuilder, depth: Int,
                              problem: inout LabelProblem) -> Bool {
        var plain = ""
        while position < characters.count {
            let character = characters[position]
            if character == "\\", position + 1 < characters.count {
                plain.append(characters[position + 1])
                position += 2
                continue
            }
            if character == "}" {
                if depth > 0 { break }
                plain.append(character); position += 1; continue
            }
            guard character == "{" else { plain.append(character); position += 1; continue }
            // A label `{name=value}` or a pattern placeholder `{name}` (kept as written).
            guard let equals = labelEquals(characters, from: position + 1) else {
                guard let close = characters[(position + 1)...].firstIndex(of: "}") else { return false }
                plain += String(characters[position...close])
                position = close + 1
                continue
            }
            builder.append(plain)
            plain = ""
            var name = String(characters[(position + 1)..<equals]).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("@") { name.removeFirst() }
            var role: String?
            if let colon = name.firstIndex(of: ":") {
                role = String(name[name.index(after: colon)...])
                name = String(name[..<colon])
            }
            let start = builder.offset
            position = equals + 1
            guard depth < maximumLabelDepth else {
                problem = .nestedTooDeeply
                return false
            }
            guard parse(characters, &position, into: &builder, depth: depth + 1, problem: &problem),
                  position < characters.count, characters[position] == "}" else { return false }
            position += 1
            builder.annotate(from: start, entity: name, value: builder.text(since: start), role: role.flatMap { $0.isEmpty ? nil : $0 })
        }
        builder.append(plain)
        return true
    }

    /// The index of the `=` ending a label's name after `{` at `start` (`nil` when none before `}`/`{`).
    private static func labelEquals(_ characters: [Character], from start: Int) -> Int? {
        var index = start
        while index < characters.count {
            switch characters[index] {
            case "=": return index > start ? index : nil
            case "}", "{", " ": return nil
            default: index += 1
            }
        }
        return nil
    }
}
