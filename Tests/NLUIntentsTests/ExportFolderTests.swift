import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// Paths named inside an export (Rasa 1.x lookup files, `.lu` imports) are read only from inside the
/// export's folder: `/etc/passwd`, `../../secret.txt` and a link pointing outside used to be read,
/// their lines becoming entity values of an import that succeeded.
@Suite struct ExportFolderTests {
    /// A temporary folder holding `export/` (what is imported) and `outside/secret.txt` beside it.
    struct Layout {
        let root: URL
        var export: URL { root.appendingPathComponent("export") }
        var secret: URL { root.appendingPathComponent("outside/secret.txt") }

        init() throws {
            root = try TestScratch.folder("export-layout")
            try FileManager.default.createDirectory(at: root.appendingPathComponent("export/data/lookups"), withIntermediateDirectories: true)
            try FileManager.default.createDirectory(at: root.appendingPathComponent("outside"), withIntermediateDirectories: true)
            try Data("root:x:0:0\ndaemon:x:1:1\n".utf8).write(to: secret)
            try Data("Paris\nCairo\n".utf8).write(to: export.appendingPathComponent("data/lookups/city.txt"))
        }

        func write(_ text: String, to path: String) throws -> URL {
            let url = export.appendingPathComponent(path)
            try Data(text.utf8).write(to: url)
            return url
        }

        func remove() { try? FileManager.default.removeItem(at: root) }
    }

    /// The refusal `import` throws, as text (it must name the path written and the export's folder).
    func refusal(_ url: URL, format: DatasetFormat? = nil) throws -> String {
        let error = #expect(throws: IntentDatasetError.self) {
            _ = try IntentImporter.importDataset(from: url, options: ImportOptions(format: format))
        }
        let thrown = try #require(error)
        guard case .outsideExport = thrown else {
            Issue.record("expected outsideExport, got \(thrown)")
            return "\(thrown)"
        }
        return "\(thrown)"
    }

    static let markdown = "## intent:greet\n- hi\n- hello\n\n## intent:bye\n- bye\n\n## lookup:city\n"

    @Test func rasaJSONLookupWithAnAbsolutePathOutsideIsRefused() throws {
        let layout = try Layout()
        defer { layout.remove() }
        let json = try layout.write("""
            {"rasa_nlu_data": {"common_examples": [{"text": "hi", "intent": "greet"}, {"text": "bye", "intent": "bye"}],
             "lookup_tables": [{"name": "city", "elements": "\(layout.secret.path)"}]}}
            """, to: "data/nlu.json")
        let message = try refusal(json)
        #expect(message.hasPrefix("\(json.path): lookup_tables[0].elements: '\(layout.secret.path)' leads to "), "\(message)")
        #expect(message.contains("outside the export's folder"), "\(message)")
    }

    @Test func rasaMarkdownLookupWithDotDotOrAbsolutePathIsRefused() throws {
        let layout = try Layout()
        defer { layout.remove() }
        for reference in ["../../outside/secret.txt", layout.secret.path] {
            let markdown = try layout.write(Self.markdown + reference + "\n", to: "data/nlu.md")
            let message = try refusal(markdown)
            #expect(message.hasPrefix("\(markdown.path): line 9: '\(reference)' leads to "), "\(message)")
            #expect(message.contains("secret.txt, outside the export's folder"), "\(message)")
        }
    }

    @Test func symbolicLinkInsideThatPointsOutsideIsRefused() throws {
        let layout = try Layout()
        defer { layout.remove() }
        let link = layout.export.appendingPathComponent("data/lookups/names.txt")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: layout.secret)
        let markdown = try layout.write(Self.markdown + "lookups/names.txt\n", to: "data/nlu.md")
        let message = try refusal(markdown)
        #expect(message.contains("'lookups/names.txt' leads to \(ExportFolder.realPath(layout.secret.path) ?? "?"), outside"), "\(message)")
    }

    /// Rasa names lookup files from the project root (`data/lookups/city.txt`): they are still found
    /// in a folder above the file, as long as that is inside the export.
    @Test func lookupInsideTheExportIsStillRead() throws {
        let layout = try Layout()
        defer { layout.remove() }
        let markdown = try layout.write(Self.markdown + "data/lookups/city.txt\n", to: "data/nlu.md")
        // One file imported: its folder (data/) is the export; named from export/, data/lookups/city.txt lies inside it.
        let single = try IntentImporter.importDataset(from: markdown)
        #expect(single.dataset.entities.first { $0.name == "city" }?.values.map(\.value) == ["Paris", "Cairo"])
        // The project imported: the same.
        let project = try IntentImporter.importDataset(from: layout.export)
        #expect(project.dataset.entities.first { $0.name == "city" }?.values.map(\.value) == ["Paris", "Cairo"])
        // A name that exists only above the export is not read, and not found.
        try Data("x\n".utf8).write(to: layout.root.appendingPathComponent("outside/above.txt"))
        let above = try layout.write(Self.markdown + "outside/above.txt\n", to: "data/above.md")
        let result = try IntentImporter.importDataset(from: above)
        #expect(result.dataset.entities.first { $0.name == "city" } == nil)
        #expect(result.warnings.contains { $0.contains("line 9: lookup file 'outside/above.txt' not found in ") })
        // Relative to the file, inside its folder: read from a single file too.
        let beside = try layout.write(Self.markdown + "lookups/city.txt\n", to: "data/beside.md")
        #expect(try IntentImporter.importDataset(from: beside).dataset.entities.first { $0.name == "city" }?.values.count == 2)
    }

    /// A project folder skips a broken file with a warning, but a file naming a path outside stops the import.
    @Test func rasaProjectFileNamingAPathOutsideStopsTheImport() throws {
        let layout = try Layout()
        defer { layout.remove() }
        _ = try layout.write(Self.markdown + "../outside/secret.txt\n", to: "data/nlu.md")
        let message = try refusal(layout.export)
        #expect(message.contains("data/nlu.md: line 9: '../outside/secret.txt' leads to "), "\(message)")
    }

    @Test func luImportOutsideTheExportIsRefused() throws {
        let layout = try Layout()
        defer { layout.remove() }
        try Data("# Stolen\n- from outside\n".utf8).write(to: layout.root.appendingPathComponent("outside/other.lu"))
        for line in ["[import](../../outside/other.lu)", "[import](../../outside/*.lu)", "[import](\(layout.root.path)/outside/other.lu)"] {
            let lu = try layout.write("# Greet\n- hi\n\n\(line)\n", to: "data/app.lu")
            let message = try refusal(lu)
            #expect(message.hasPrefix("\(ExportFolder.realPath(lu.path) ?? lu.path): line 4: '"), "\(line): \(message)")
            #expect(message.contains("outside the export's folder"), "\(line): \(message)")
        }
        // A link in a globbed folder that points outside is refused too.
        try FileManager.default.createSymbolicLink(at: layout.export.appendingPathComponent("data/lookups/linked.lu"),
                                                   withDestinationURL: layout.root.appendingPathComponent("outside/other.lu"))
        let globbing = try layout.write("# Greet\n- hi\n\n[import](lookups/*.lu)\n", to: "data/app.lu")
        #expect(try refusal(globbing).contains("'linked.lu' leads to "))
    }

    @Test func luImportInsideTheExportIsStillRead() throws {
        let layout = try Layout()
        defer { layout.remove() }
        _ = try layout.write("# Bye\n- bye\n", to: "data/lookups/bye.lu")
        let lu = try layout.write("# Greet\n- hi\n\n[import](lookups/bye.lu)\n", to: "data/app.lu")
        #expect(try IntentImporter.importDataset(from: lu).dataset.intents.map(\.name) == ["Greet", "Bye"])
    }

    @Test func placementResolvesDotDotAndLinks() throws {
        let layout = try Layout()
        defer { layout.remove() }
        let folder = ExportFolder(folder: layout.export)
        let data = try #require(ExportFolder.realPath(layout.export.appendingPathComponent("data").path))
        let base = URL(fileURLWithPath: data)
        #expect(folder.place("lookups/city.txt", relativeTo: base) == .inside(URL(fileURLWithPath: data + "/lookups/city.txt")))
        #expect(folder.place("lookups/../lookups/city.txt", relativeTo: base) == .inside(URL(fileURLWithPath: data + "/lookups/city.txt")))
        #expect(folder.place("lookups/none.txt", relativeTo: base) == .missing)
        #expect(folder.place("../../outside/none.txt", relativeTo: base) == .outside(folder.path.dropLastComponent + "/outside/none.txt"))
        #expect(folder.place("/", relativeTo: base) == .outside("/"))
        #expect(!folder.contains(folder.path + "-sibling/file.txt"))
    }
}

private extension String {
    var dropLastComponent: String { (self as NSString).deletingLastPathComponent }
}
