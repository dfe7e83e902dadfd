import Foundation
import Testing

/// Every file or folder a test writes goes in `TestScratch` (Tests/TestSupport), whose one folder per test
/// process is removed when the process ends. Tests that made their own under the system's temporary folder
/// left whatever they did not remove there: about 3,200 entries in /tmp after 40 runs of the suite. This rule
/// keeps the temporary folder's names out of `Tests`, so a new test cannot bring the leak back unnoticed.
@Suite struct TestScratchRuleTests {
    static let tests = ModuleMapTests.root.appendingPathComponent("Tests")

    /// What names the system's temporary folder (or a path in it) directly.
    static let temporaryFolderNames = [".temporaryDirectory", "NSTemporaryDirectory", "\"/tmp"]

    /// The files allowed to name it, each for its reason.
    static let allowed: [(file: String, reason: String)] = [
        ("TestSupport/TestScratch.swift", "makes the scratch folder in the system's temporary folder"),
        ("RepositoryTests/TestScratchRuleTests.swift", "this rule, which names what it looks for"),
    ]

    /// `file:line: code` for each use of the temporary folder in `Tests` outside ``allowed``, skipping comments.
    static func temporaryFolderUses() throws -> [String] {
        try CodeLine.containing(temporaryFolderNames, under: tests)
            .filter { line in !allowed.contains { $0.file == line.file } }
            .map(\.description)
    }

    @Test func testsWriteOnlyInTheirScratchFolder() throws {
        let found = try Self.temporaryFolderUses()
        #expect(found.isEmpty, """
            use TestScratch.folder(_:) or TestScratch.file(_:extension:) (or add the file to `allowed` with a reason; \
            a test whose subject is the temporary folder removes what it makes there with `defer`):
            \(found.joined(separator: "\n"))
            """)
    }

    /// The rule would pass on an empty tree: it must see the uses it skips.
    @Test func theRuleSeesTheTests() throws {
        for entry in Self.allowed {
            let text = try String(contentsOf: Self.tests.appendingPathComponent(entry.file), encoding: .utf8)
            #expect(Self.temporaryFolderNames.contains(where: { text.contains($0) }), "\(entry.file) no longer names the temporary folder: update `allowed`")
        }
    }
}
