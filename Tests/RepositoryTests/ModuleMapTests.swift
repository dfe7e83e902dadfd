import Foundation
import Testing

/// docs/architecture.md's module map is the layer rule's one statement: these tests keep it true. Each
/// target's "depends on" cell must list exactly the project modules `Package.swift` declares for it, and its
/// sources may import no other project module, so a new import across layers fails here, not in review.
@Suite struct ModuleMapTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Target name → the project modules its row's "depends on" cell names (for a row of several targets, the
    /// modules any of them depends on).
    static func documentedDependencies() throws -> [String: Set<String>] {
        try documentedRows().reduce(into: [:]) { result, row in
            for target in row.targets { result[target] = row.dependencies }
        }
    }

    /// The map's rows: the targets each names and the project modules its "depends on" cell lists.
    static func documentedRows() throws -> [(targets: [String], dependencies: Set<String>)] {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let map = text.components(separatedBy: "## Module map").dropFirst().first?.components(separatedBy: "\n## ").first ?? ""
        var result: [(targets: [String], dependencies: Set<String>)] = []
        for line in map.split(separator: "\n") where line.hasPrefix("| ") && !line.hasPrefix("| layer") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 5 else { continue }
            let targets = backticked(cells[2]).filter { !$0.contains("-") }
            result.append((targets, Set(backticked(cells[cells.count - 2])).subtracting(targets)))
        }
        return result
    }

    static func backticked(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }

    /// Target name → the project modules its declaration in Package.swift lists as dependencies.
    static func declaredDependencies(among modules: Set<String>) throws -> [String: Set<String>] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        // The target list, after the products (whose `.library(name:targets:)` lines name the same modules).
        let targets = manifest.components(separatedBy: "\n    targets: [").dropFirst().first ?? ""
        var result: [String: Set<String>] = [:]
        // Each entry of the target list starts a line indented by 8 (a dependency's own `.target(name:condition:)`
        // or `.product(...)` is indented further); its name is the entry's first `name:`, its dependencies the
        // quoted project modules after it.
        for entry in targets.components(separatedBy: "\n        .").dropFirst() {
            let parts = entry.components(separatedBy: "name: \"")
            guard parts.count > 1, let nameEnd = parts[1].firstIndex(of: "\"") else { continue }
            let name = String(parts[1][..<nameEnd])
            guard modules.contains(name) else { continue }
            let rest = parts[1][parts[1].index(after: nameEnd)...] + parts.dropFirst(2).map { "name: \"" + $0 }.joined()
            let quoted = rest.split(separator: "\"", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }
            result[name] = Set(quoted.map { String($0.element) }.filter { modules.contains($0) && $0 != name })
        }
        return result
    }

    /// The project modules the target's sources import.
    static func importedModules(of target: String, among modules: Set<String>) throws -> Set<String> {
        let folder = root.appendingPathComponent("Sources/\(target == "NLUBench" ? "NLUBench" : target)")
        var result: Set<String> = []
        guard let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else { return result }
        for case let file as URL in files where file.pathExtension == "swift" {
            for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let index = words.firstIndex(of: "import"), words[..<index].allSatisfy({ $0.hasPrefix("@") }),
                      index + 1 < words.count else { continue }
                let module = String(words[index + 1])
                if modules.contains(module) && module != target { result.insert(module) }
            }
        }
        return result
    }

    @Test func everySourceFolderHasARow() throws {
        let documented = try Self.documentedDependencies()
        let folders = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("Sources").path)
        for folder in folders where !folder.hasPrefix(".") {
            #expect(documented[folder] != nil, "Sources/\(folder) has no row in docs/architecture.md's module map")
        }
    }

    @Test func rowsMatchPackageSwift() throws {
        let rows = try Self.documentedRows()
        let modules = Set(rows.flatMap(\.targets))
        let declared = try Self.declaredDependencies(among: modules)
        for row in rows where row.targets != ["CBLAS", "CKernels"] {
            let listed = row.dependencies.intersection(modules)
            for target in row.targets {
                #expect(declared[target] != nil, "\(target) is in docs/architecture.md but not declared in Package.swift")
                guard let inManifest = declared[target] else { continue }
                // A row of one target lists exactly its dependencies; a row of several, what any of them needs.
                let matches = row.targets.count == 1 ? listed == inManifest : inManifest.isSubset(of: listed)
                #expect(matches, """
                    \(target): docs/architecture.md lists \(listed.sorted()), Package.swift declares \(inManifest.sorted())
                    """)
            }
        }
    }

    @Test func sourcesImportOnlyTheirListedModules() throws {
        let documented = try Self.documentedDependencies()
        let modules = Set(documented.keys)
        for (target, cell) in documented.sorted(by: { $0.key < $1.key }) where target != "CBLAS" && target != "CKernels" {
            let extra = try Self.importedModules(of: target, among: modules).subtracting(cell)
            #expect(extra.isEmpty, "\(target) imports \(extra.sorted()), which its row in docs/architecture.md does not list")
        }
    }

    @Test func theDocumentIsRead() throws {
        // Guards the parsing above: an empty map would make every other test here pass.
        let documented = try Self.documentedDependencies()
        #expect(documented.count >= 20)
        #expect(documented["NLUCore"]?.contains("NLUInputOutput") == true)
        #expect(documented["nlu"]?.contains("NLUServer") == true)
    }
}
