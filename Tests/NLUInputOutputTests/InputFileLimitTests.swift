import Foundation
import NLUTestSupport
import Testing
@testable import NLUInputOutput

/// A whole input past the limit is an error naming the file, its size and the limit, and saying how to raise
/// the limit in the terms of the program reading it: ``InputFile/limitAdvice``, which the command-line fronts
/// set (`nlu`'s option and variable) and which a program using the library leaves at ``InputFile/maximumBytes``.
@Suite struct InputFileLimitTests {
    @Test func aFilePastTheLimitIsRefusedWithTheLibrarysAdvice() throws {
        let url = TestScratch.file("nlukit-limit", extension: "txt")
        try Data(repeating: 0x61, count: 2048).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try InputFile.read(url, maximumBytes: 4096).count == 2048)
        do {
            _ = try InputFile.read(url, maximumBytes: 1024)
            Issue.record("a 2 KiB file was read under a 1 KiB limit")
        } catch let error as InputTooLargeError {
            #expect(error.file == url.path && error.size == 2048 && error.limit == 1024 && !error.isModelFile)
            #expect(error.description.hasPrefix(url.path) && error.reason.contains("2 KiB") && error.reason.contains("1 KiB"),
                    "\(error.description)")
            // No front in a test process sets the advice: a library caller raises the limit itself.
            #expect(error.reason.contains("raise the limit with InputFile.maximumBytes"), "\(error.reason)")
        }
    }

    /// A path that does not exist is told apart from one that exists and cannot be read, so that a reader of an
    /// optional file skips only the first, and one that expects a file can say what belongs there.
    @Test func aMissingFileIsToldApartFromAnUnreadableOne() throws {
        let folder = try TestScratch.folder("nlukit-missing")
        defer { try? FileManager.default.removeItem(at: folder) }
        do {
            _ = try InputFile.read(folder.appendingPathComponent("absent.json"))
            Issue.record("a missing file was read")
        } catch let error as InputReadError {
            #expect(error.isMissing && error.reason == "no such file or directory", "\(error)")
        }
        do {
            _ = try InputFile.read(folder)
            Issue.record("a directory was read as a file")
        } catch let error as InputReadError {
            #expect(!error.isMissing && error.reason == "a directory, not a file", "\(error)")
        }
    }
}
