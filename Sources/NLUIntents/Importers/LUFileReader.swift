import Foundation
import NLUCore
import NLUInputOutput

/// Reads Bot Framework `.lu` files (LUIS's Markdown-like source) and the files they import into
/// one parsed app: `# Intent` or `## Intent` sections (LUDown and `bf luis:convert` write `##`) with
/// `- utterance` lines, `@` entity definitions (`ml`, `list`, `regex`, `prebuilt`, `phraselist`,
/// `composite`), the older `$` definitions, `> comments` and `[import](other.lu)` /
/// `[import](other.lu#Intent)` references (relative to the importing file and inside the export's
/// folder, see ``ExportFolder``; a cycle, a missing file or one outside is an error naming the file
/// and line). In a file with `> !# @enableSections = true`, a `##` heading is a sub-section of the
/// `#` intent above it. QnA sections (`# ? question`) are skipped with a warning. ``LUImporter``
/// turns the result into a dataset.
struct LUFileReader {
    /// An `@`/`$` entity definition, as declared.
    struct Definition {
        var name: String
        var kind: String
        var roles: [String] = []
        var values: [EntityValue] = []
        var builtin: String?
        var interchangeable = true
        var file: String
        var line: Int
    }

    /// The most files imports may bring in (the files given, such as a folder's, are not counted:
    /// a folder of 2,000 `.lu` files was refused), and the deepest chain of imports.
    static let maxFiles = 1_000
    static let maxDepth = 64

    private(set) var sections: [(intent: String, lines: [(text: String, file: String, line: Int)])] = []
    private(set) var definitions: [Definition] = []
    /// Where each definition is in ``definitions``, by kind and name: a search of the array for every
    /// `@` line made a file of many definitions quadratic (20,000 took 71 s in a debug build).
    private var definitionIndex: [DefinitionKey: Int] = [:]
    private struct DefinitionKey: Hashable { var kind: String; var name: String }
    /// The roles of each definition that lines may add to, by index, as a set.
    private var knownRoles: [Int: Set<String>] = [:]
    /// The app's culture (`> !# @app.culture = en-us`), when a file states it.
    private(set) var culture: String?
    private var visited = Set<String>()
    /// How many files imports have read.
    private var importedFiles = 0
    private var stack: [String] = []
    /// The folder imports must stay in.
    private let folder: ExportFolder

    /// A reader of the `.lu` files of the export in `folder`.
    init(folder: ExportFolder) {
        self.folder = folder
    }

    /// Reads `url` and everything it imports; `only` limits the file to one intent section
    /// (`[import](file.lu#Intent)`).
    mutating func read(_ url: URL, only: String? = nil, from importer: (file: String, line: Int)? = nil,
                       warnings: inout [String]) throws {
        let path = url.standardizedFileURL.resolvingSymlinksInPath().path
        if stack.contains(path) {
            let chain = (stack.drop { $0 != path } + [path]).map { ($0 as NSString).lastPathComponent }.joined(separator: " → ")
            throw IntentDatasetError.malformedMarkdown(file: importer?.file ?? path, line: importer?.line ?? 0,
                                                       detail: "import cycle: \(chain)")
        }
        // A file imported twice (not in a cycle) is read once; so is each intent imported from it alone.
        guard !visited.contains(path), visited.insert(only.map { "\(path)#\($0)" } ?? path).inserted else { return }
        if importer != nil { importedFiles += 1 }
        guard importedFiles <= Self.maxFiles, stack.count < Self.maxDepth else {
            throw IntentDatasetError.malformedMarkdown(file: importer?.file ?? path, line: importer?.line ?? 0,
                                                       detail: "imports nest deeper than \(Self.maxDepth) files or reach more than \(Self.maxFiles)")
        }
        let data: Data
        do { data = try InputFile.read(URL(fileURLWithPath: path)) } catch let error as InputReadError {
            if let importer {
                throw IntentDatasetError.malformedMarkdown(file: importer.file, line: importer.line,
                                                           detail: "imported file \(path) cannot be read (\(error.reason))")
            }
            throw IntentDatasetError.unreadable(file: path, reason: error.reason)
        }
        stack.append(path)
        defer { stack.removeLast() }
        let text = TextDecoding.string(from: data, file: path, warnings: &warnings)
        try parse(text, file: path, only: only, warnings: &warnings)
    }

    private enum State { case none, intent, qna, definition(Int), skipping }

    private mutating func parse(_ text: String, file: String, only: String?, warnings: inout [String]) throws {
        var state = State.none
        var currentValue: Int?   // the list value whose synonyms follow
        // `> !# @enableSections = true` makes `##` headings sub-sections; otherwise `##` names an intent, as `#` does.
        var sectionsEnabled = false
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            let indented = raw.first == " " || raw.first == "\t"
            if culture == nil { culture = LUCulture.header(line) }
            if line.hasPrefix(">"), let range = line.range(of: "@enableSections") {
                sectionsEnabled = Self.headerValue(line[range.upperBound...]).lowercased() == "true"
            }
            if line.isEmpty || line.hasPrefix(">") { continue }
            if line.hasPrefix("[import]") || (line.hasPrefix("[") && line.contains("](")) {
                try readImport(line, file: file, line: number, warnings: &warnings)
                continue
            }
            if line.hasPrefix("#") {
                let heading = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
                if heading.hasPrefix("?") {
                    warnings.append("\(file): line \(number): QnA section '\(heading)' skipped (questions are not intents)")
                    state = .qna
                } else if heading.isEmpty {
                    throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "expected an intent name after '#'")
                } else if sectionsEnabled, line.hasPrefix("##") {
                    // A `##` sub-section belongs to the `#` intent above it.
                    if case .skipping = state { continue }
                    state = sections.isEmpty ? .skipping : .intent
                } else if let only, heading != only {
                    state = .skipping
                } else {
                    sections.append((heading, []))
                    state = .intent
                }
                continue
            }
            if line.hasPrefix("@") || line.hasPrefix("$") {
                if only != nil { state = .skipping; continue }
                currentValue = nil
                if let index = try definition(line, file: file, line: number, warnings: &warnings) {
                    state = .definition(index)
                } else {
                    state = .none
                }
                continue
            }
            guard line.hasPrefix("-") || line.hasPrefix("*") || line.hasPrefix("+") else {
                if case .qna = state { continue }
                throw IntentDatasetError.malformedMarkdown(file: file, line: number,
                                                           detail: "expected '# Intent', '- utterance', '@ entity', '$ entity', '> comment' or '[import](file.lu)', found '\(line.prefix(60))'")
            }
            let item = line.dropFirst().trimmingCharacters(in: .whitespaces)
            switch state {
            case .intent:
                sections[sections.count - 1].lines.append((item, file, number))
            case .definition(let index):
                addDefinitionLine(item, to: index, indented: indented, currentValue: &currentValue)
            case .qna, .skipping:
                continue
            case .none:
                throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "'- \(item.prefix(40))' outside any '# Intent' section or entity definition")
            }
        }
    }

    /// `[import](other.lu)`, `[import](other.lu#Intent)`, `[name](*.lu)`: paths relative to `file`.
    private mutating func readImport(_ line: String, file: String, line number: Int, warnings: inout [String]) throws {
        guard let open = line.range(of: "]("), let close = line[open.upperBound...].firstIndex(of: ")") else {
            throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "expected '[import](file.lu)'")
        }
        let target = String(line[open.upperBound..<close]).removingPercentEncoding ?? String(line[open.upperBound..<close])
        guard !target.contains("://") else {
            warnings.append("\(file): line \(number): import of a URL (\(target)) skipped; only local files are read")
            return
        }
        let parts = target.split(separator: "#", maxSplits: 1).map(String.init)
        // `file` is a resolved path, so the names below resolve as the system would open them.
        let base = URL(fileURLWithPath: file).deletingLastPathComponent()
        let pathPart = parts.first ?? ""
        var only = parts.count > 1 ? parts[1] : nil
        if let filter = only, filter.hasPrefix("*") {
            warnings.append("\(file): line \(number): import filter '#\(filter)' not supported; the whole file is read")
            only = nil
        }
        if pathPart.contains("*") {
            // `*.lu` / `folder/*.lu` / `folder/**`: the .lu files of that folder.
            let relativeFolder = (pathPart as NSString).deletingLastPathComponent
            guard let globbed = try confined(relativeFolder.isEmpty ? "." : relativeFolder, base: base, file: file, line: number) else { return }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: globbed.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".lu") {
                guard let imported = try confined(name, base: globbed, file: file, line: number) else { continue }
                try read(imported, only: only, from: (file, number), warnings: &warnings)
            }
            return
        }
        guard pathPart.hasSuffix(".lu") else {
            warnings.append("\(file): line \(number): import of '\(pathPart)' skipped (not a .lu file)")
            return
        }
        // A missing file is read by its name, so that the error says it is missing.
        let imported = try confined(pathPart, base: base, file: file, line: number) ?? base.appendingPathComponent(pathPart)
        try read(imported, only: only, from: (file, number), warnings: &warnings)
    }

    /// The file or folder `reference` names from `base` (resolved), `nil` when nothing is there.
    /// - Throws: ``IntentDatasetError/outsideExport(file:path:resolved:folder:)`` when it leads outside ``folder``.
    private func confined(_ reference: String, base: URL, file: String, line: Int) throws -> URL? {
        switch folder.place(reference, relativeTo: base) {
        case .inside(let url): return url
        case .missing: return nil
        case .outside(let resolved), .linkedOutside(let resolved):
            throw folder.refusal(reference, at: "\(file): line \(line)", resolved: resolved)
        }
    }

    /// The value of a `> !# @name = value` header line after its name.
    private static func headerValue(_ rest: Substring) -> String {
        rest.drop { $0 == " " || $0 == "=" }.trimmingCharacters(in: .whitespaces)
    }

    /// Parses an `@ kind name ...` or `$name:...` line; returns the definition's index when lines
    /// (list values, phrases) may follow it.
    private mutating func definition(_ line: String, file: String, line number: Int, warnings: inout [String]) throws -> Int? {
        if line.hasPrefix("$") { return try oldDefinition(line, file: file, line: number, warnings: &warnings) }
        var rest = line.dropFirst().trimmingCharacters(in: .whitespaces)
        var rhs: String?
        if let equals = rest.firstIndex(of: "=") {
            rhs = rest[rest.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            rest = rest[..<equals].trimmingCharacters(in: .whitespaces)
        }
        var words = rest.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        guard !words.isEmpty else {
            throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "expected '@ <kind> <name>'")
        }
        let kinds: Set<String> = ["ml", "simple", "list", "regex", "prebuilt", "phraselist", "composite", "patternany", "intent", "hierarchical"]
        var kind = words[0].lowercased()
        if !kinds.contains(kind) {
            // `@ name = ...` (kind left out) is an ml entity.
            kind = "ml"
            words.insert("ml", at: 0)
        }
        guard words.count >= 2 else {
            throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "'@ \(kind)' needs a name")
        }
        var name = words[1]
        var interchangeable = true
        if kind == "phraselist", let paren = name.firstIndex(of: "(") {
            interchangeable = name[paren...].lowercased().contains("interchangeable")
            name = String(name[..<paren])
        }
        let roles = Self.roles(in: words.dropFirst(2).joined(separator: " "))
        var definition = Definition(name: name, kind: kind, roles: roles, file: file, line: number)
        definition.interchangeable = interchangeable
        switch kind {
        case "intent", "hierarchical":
            return nil
        case "prebuilt":
            guard let builtin = PlatformBuiltins.luis[name] else {
                warnings.append("\(file): line \(number): prebuilt '\(name)' has no NLUKit built-in; its labels are kept, its definition is not")
                definitions.append(definition)
                return nil
            }
            definition.builtin = builtin
        case "regex":
            if let rhs, rhs.count >= 2, rhs.hasPrefix("/"), rhs.hasSuffix("/") {
                definition.values = [EntityValue(name, patterns: [String(rhs.dropFirst().dropLast())])]
            } else if let rhs, !rhs.isEmpty {
                throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "regex entity '\(name)': expected '= /pattern/', found '\(rhs)'")
            }
        case "composite", "patternany", "ml", "simple":
            break
        default:
            break
        }
        let key = DefinitionKey(kind: kind, name: name)
        if let existing = definitionIndex[key] {
            addRoles(roles, to: existing)
            return existing
        }
        definitionIndex[key] = definitions.count
        definitions.append(definition)
        return definitions.count - 1
    }

    /// Adds the roles the definition does not have yet (each line of `$city:Seattle= roles=from` names
    /// them again: kept once, not once per line), checked against a set of them.
    private mutating func addRoles(_ roles: [String], to index: Int) {
        var known = knownRoles.removeValue(forKey: index) ?? Set(definitions[index].roles)   // taken out: no copy on insert
        definitions[index].roles += roles.filter { known.insert($0).inserted }
        knownRoles[index] = known
    }

    /// The older syntax: `$name:simple`, `$name:Canonical=` (list value, synonyms follow),
    /// `$PREBUILT:number`, `$name:/regex/`, `$name:phraseList [interchangeable]`, `$name:[a, b]` (composite).
    private mutating func oldDefinition(_ line: String, file: String, line number: Int, warnings: inout [String]) throws -> Int? {
        let body = line.dropFirst().trimmingCharacters(in: .whitespaces)
        guard let colon = body.firstIndex(of: ":") else {
            throw IntentDatasetError.malformedMarkdown(file: file, line: number, detail: "expected '$name:definition'")
        }
        let name = body[..<colon].trimmingCharacters(in: .whitespaces)
        var spec = body[body.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        var roles: [String] = []
        if let range = spec.range(of: "roles=") {
            roles = spec[range.upperBound...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            spec = spec[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
        }
        if name == "PREBUILT" {
            return try definition("@ prebuilt \(spec)" + (roles.isEmpty ? "" : " hasRoles \(roles.joined(separator: ","))"),
                                  file: file, line: number, warnings: &warnings)
        }
        if spec.hasPrefix("/"), spec.hasSuffix("/"), spec.count >= 2 {
            return try definition("@ regex \(name) = \(spec)", file: file, line: number, warnings: &warnings)
        }
        let lower = spec.lowercased()
        if lower.hasPrefix("phraselist") {
            let interchangeable = lower.contains("interchangeable")
            return try definition("@ phraselist \(name)\(interchangeable ? "(interchangeable)" : "")", file: file, line: number, warnings: &warnings)
        }
        if lower == "simple" || lower.hasPrefix("[") || lower.isEmpty {
            return try definition("@ \(lower.hasPrefix("[") ? "composite" : "ml") \(name)", file: file, line: number, warnings: &warnings)
        }
        if spec.hasSuffix("=") {
            // `$city:Seattle=`: a list value whose synonyms follow.
            let index = try definition("@ list \(name)", file: file, line: number, warnings: &warnings) ?? 0
            definitions[index].values.append(EntityValue(String(spec.dropLast()).trimmingCharacters(in: .whitespaces)))
            addRoles(roles, to: index)
            return index
        }
        warnings.append("\(file): line \(number): '$\(name):\(spec)' not understood; skipped")
        return nil
    }

    /// A `- ...` line under a definition: a list value (`- canonical :`), one of its synonyms
    /// (indented `- synonym`), or phrases (`- a, b, c`).
    private mutating func addDefinitionLine(_ item: String, to index: Int, indented: Bool, currentValue: inout Int?) {
        switch definitions[index].kind {
        case "list":
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            if trimmed.hasSuffix(":") {
                definitions[index].values.append(EntityValue(String(trimmed.dropLast()).trimmingCharacters(in: .whitespaces)))
                currentValue = definitions[index].values.count - 1
            } else if let colon = trimmed.firstIndex(of: ":"), !indented {
                // `- canonical: syn1, syn2` on one line.
                let synonyms = trimmed[trimmed.index(after: colon)...].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                definitions[index].values.append(EntityValue(trimmed[..<colon].trimmingCharacters(in: .whitespaces), synonyms: synonyms))
                currentValue = definitions[index].values.count - 1
            } else if let value = currentValue ?? (definitions[index].values.isEmpty ? nil : definitions[index].values.count - 1) {
                if trimmed != definitions[index].values[value].value { definitions[index].values[value].synonyms.append(trimmed) }
            } else {
                definitions[index].values.append(EntityValue(trimmed))
            }
        case "phraselist":
            let phrases = item.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            definitions[index].values += phrases.map { EntityValue($0) }
        default:
            break   // ml children (`- @ ml child`) and the like: their labels are in the utterances.
        }
    }

    /// The role names of `hasRoles a, b` (or `roles=a,b`) in the rest of a definition line.
    static func roles(in text: String) -> [String] {
        guard let range = text.range(of: "hasRoles", options: .caseInsensitive) else { return [] }
        let list = text[range.upperBound...].prefix { $0 != "=" }
        let cut = list.range(of: "usesFeature", options: .caseInsensitive).map { list[..<$0.lowerBound] } ?? list[...]
        return cut.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
