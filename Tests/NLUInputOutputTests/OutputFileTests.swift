import Foundation
import Testing
@testable import NLUInputOutput
import NLUTestSupport

/// A file output replaces nothing but an empty file, a file of its own kind or, forced, any file;
/// two spellings of one destination are recognised as one.
@Suite struct OutputFileTests {
    /// Files starting with "ours" are this toy kind's outputs.
    let toy = OutputFile(kind: "a toy file") { url in
        (try? String(contentsOf: url, encoding: .utf8))?.hasPrefix("ours") == true
    }

    @Test func onlyAnEmptyFileItsOwnKindOrAForcedWriteReplaces() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("f.txt")
        try toy.checkReplaceable(file, force: false, remedy: "r")  // nothing there
        #expect(FileManager.default.createFile(atPath: file.path, contents: Data()))
        try toy.checkReplaceable(file, force: false, remedy: "r")
        try Data("ours 1".utf8).write(to: file)
        try toy.checkReplaceable(file, force: false, remedy: "r")
        try Data("precious".utf8).write(to: file)
        #expect(throws: OutputPath.Error(output: file.path + " (the default path)",
                                         reason: "holds a file that is not a toy file written by nlu; refusing to replace it (r)")) {
            try toy.checkReplaceable(file, force: false, role: "the default path", remedy: "r")
        }
        try toy.checkReplaceable(file, force: true, remedy: "r")
        #expect(throws: OutputPath.Error.self) { try toy.checkReplaceable(directory, force: true, remedy: "r") }
        try toy.checkReplaceable(URL(fileURLWithPath: "/dev/null"), force: false, remedy: "r")  // written in place
    }

    @Test func spellingsOfOneDestinationAreTheSame() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("out.json")
        let link = directory.appendingPathComponent("link.json")
        try FileManager.default.createSymbolicLink(atPath: link.path, withDestinationPath: "out.json")
        // Before the file exists (the link dangles) and after.
        for _ in 0..<2 {
            #expect(OutputPath.isSameDestination(file, URL(fileURLWithPath: directory.path + "/./sub/../out.json")))
            #expect(OutputPath.isSameDestination(link, file))
            #expect(!OutputPath.isSameDestination(file, directory.appendingPathComponent("out.test.json")))
            try Data("x".utf8).write(to: file)
        }
    }
}
