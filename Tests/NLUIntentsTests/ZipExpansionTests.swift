import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// A zip export is unpacked within limits: one entry at most 256 MiB, one archive at most 1 GiB (or
/// half the memory), counted while decompressing, so a small archive that expands to gigabytes
/// fails at once instead of filling the memory.
@Suite struct ZipExpansionTests {
    let platforms = intentFixtures.appendingPathComponent("platforms")

    /// A 305 KB Dialogflow CX agent whose `order.pizza/trainingPhrases/en.json` holds 300 MiB of
    /// JSON whitespace (valid JSON: the old reader unpacked all of it, then imported the agent).
    @Test func entryPastTheLimitIsRefusedNamingTheZipAndTheEntry() throws {
        let zip = platforms.appendingPathComponent("dialogflow-cx-zip-bomb.zip")
        let error = #expect(throws: IntentDatasetError.self) {
            _ = try IntentImporter.importDataset(from: zip, options: ImportOptions(format: .dialogflowCX))
        }
        let message = "\(try #require(error))"
        #expect(message.hasPrefix(zip.path + "/pizza-agent/intents/order.pizza/trainingPhrases/en.json: "), "\(message)")
        #expect(message.contains("expands to more than 256 MiB, the limit for one file of a zip export"), "\(message)")
    }

    /// The sizes a zip declares may lie (here 10 bytes for 1 MiB): the bytes are counted as they are
    /// unpacked, and unpacking stops at the first chunk past the limit, not at the entry's end.
    @Test func unpackingStopsAtTheLimitWhenTheZipUnderstatesTheSize() throws {
        let zip = platforms.appendingPathComponent("zip-understated-size.zip")
        let budget = ZipExpansionBudget(entryLimit: 64 << 10, archiveLimit: 1 << 30)
        let source = try ImportSource(url: zip, expansion: budget)
        #expect(throws: IntentDatasetError.unreadable(
            file: zip.path + "/notes/spaces.json",
            reason: "the zip entry 'notes/spaces.json' expands to more than 65536 bytes, the limit for one file of a zip export; "
                + "if it is genuine, unzip \(zip.path) and import the folder")) {
            _ = try source.data(at: "notes/spaces.json")
        }
        // One decompressed chunk (16 KiB in ZIPFoundation) past the limit at most, far from the whole 1 MiB.
        #expect(budget.archiveBytes <= (64 << 10) + (64 << 10), "unpacked \(budget.archiveBytes) bytes")
    }

    /// Entries named to escape the archive (`../../outside/…`, `/etc/…`), a symbolic link to /etc/passwd and a
    /// folder 2,000 levels deep (scripts/fixtures/zip_hostile_names.py): entries are read by name from the
    /// archive, never unpacked to disk or followed, so the import is exactly that of the same bot without them,
    /// and nothing appears beside the zip.
    @Test func entriesNamedOutsideTheArchiveAddNothingAndWriteNothing() throws {
        let folder = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let zip = folder.appendingPathComponent("nested/bot.zip")
        try FileManager.default.createDirectory(at: zip.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: platforms.appendingPathComponent("lexv2-hostile-names.zip"), to: zip)
        let hostile = try IntentImporter.importDataset(from: zip, options: ImportOptions(format: .lexV2))
        let plain = try IntentImporter.importDataset(from: fixture("lexv2-bot.zip"), options: ImportOptions(format: .lexV2))
        #expect(hostile.dataset == plain.dataset)
        #expect(hostile.dataset.intents.map(\.name) == ["CancelOrder", "OrderFlowers"])
        let left = FileManager.default.enumerator(atPath: folder.path)?.compactMap { $0 as? String }.sorted()
        #expect(left == ["nested", "nested/bot.zip"])
        #expect(!FileManager.default.fileExists(atPath: "/etc/nlukit-absolute"))
    }

    /// Many entries each under the entry limit still meet the archive's limit.
    @Test func theWholeArchiveReadIsCapped() throws {
        let zip = platforms.appendingPathComponent("dialogflow-cx-agent.zip")
        let source = try ImportSource(url: zip, expansion: ZipExpansionBudget(entryLimit: 1 << 20, archiveLimit: 1_000))
        let error = #expect(throws: IntentDatasetError.self) {
            for path in source.paths { _ = try source.data(at: path) }
        }
        let message = "\(try #require(error))"
        #expect(message.hasPrefix(zip.path + "/pizza-agent/"), "\(message)")
        #expect(message.contains("past 1000 bytes, the limit for one zip export"), "\(message)")
    }
}
