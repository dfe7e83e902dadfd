import Foundation
import NLUInputOutput
import NLUTestSupport
import Testing
@testable import NLUTransformers

/// A checkpoint's own files (config.json, modules.json) are read with the model-file limit wherever they are read,
/// training included: a missing file says what belongs there, an unreadable one gives the system's reason, and a
/// `config.json` linked to an endless device is refused instead of growing memory until the process dies.
@Suite struct CheckpointFileTests {
    @Test func aMissingConfigurationSaysWhatBelongsThere() throws {
        let url = try TestScratch.folder("nlukit-checkpoint")
        defer { try? FileManager.default.removeItem(at: url) }
        let config = url.appendingPathComponent("config.json")
        #expect(throws: CheckpointError.missingFile(path: config.path, expected: "the model configuration (config.json)")) {
            _ = try CheckpointDirectory(url).configurationData()
        }
    }

    @Test func anUnreadableConfigurationGivesTheReason() throws {
        let url = try TestScratch.folder("nlukit-checkpoint")
        defer { try? FileManager.default.removeItem(at: url) }
        let config = url.appendingPathComponent("config.json")
        try FileManager.default.createDirectory(at: config, withIntermediateDirectories: false)
        #expect(throws: CheckpointError.unreadableFile(path: config.path, reason: "a directory, not a file")) {
            _ = try TrainableEncoder.embeddingFields(in: CheckpointDirectory(url))
        }
    }

    @Test func anEndlessConfigurationIsRefusedAtTheModelFileLimit() throws {
        let url = try TestScratch.folder("nlukit-checkpoint")
        defer { try? FileManager.default.removeItem(at: url) }
        let modules = url.appendingPathComponent("modules.json")
        try FileManager.default.createSymbolicLink(atPath: modules.path, withDestinationPath: "/dev/zero")
        do {
            _ = try CheckpointDirectory.readFile(modules, expected: "sentence-transformers' module list (modules.json)")
            Issue.record("an endless modules.json was read")
        } catch let error as InputTooLargeError {
            #expect(error.isModelFile && error.limit == InputFile.modelFileMaximumBytes && error.file == modules.path, "\(error)")
        }
    }
}
