import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// A zip export's entries are counted before any is read: a Lex V2 "bot" of very many tiny entries
/// took 44 s to refuse, listing them all first. The zips here are written byte by byte (stored,
/// empty entries), so that one can declare more entries than it holds.
@Suite struct ZipEntryCountTests {
    /// A zip of `count` empty entries whose end record declares `declared` (default: `count`), with
    /// `trailing` zero bytes after it (which hide the record from a reader that looks where the format puts it).
    static func zip(entries count: Int, declaring declared: Int? = nil, zip64: Bool = false, trailing: Int = 0) throws -> URL {
        var bytes: [UInt8] = []
        var central: [UInt8] = []
        func put(_ value: Int, _ size: Int, into buffer: inout [UInt8]) {
            for byte in 0..<size { buffer.append(UInt8((value >> (8 * byte)) & 0xFF)) }
        }
        for index in 0..<count {
            let name = Array("BotLocales/en_US/Intents/I\(index)/notes.txt".utf8)
            let offset = bytes.count
            // Local header: signature, version, flags, method (stored), time, date, CRC, sizes, name and extra lengths.
            bytes += [0x50, 0x4B, 0x03, 0x04]
            for (value, size) in [(20, 2), (0, 2), (0, 2), (0, 2), (0x21, 2), (0, 4), (0, 4), (0, 4), (name.count, 2), (0, 2)] {
                put(value, size, into: &bytes)
            }
            bytes += name
            // Central directory header: the same, plus comment length, disk, attributes and the local header's offset.
            central += [0x50, 0x4B, 0x01, 0x02]
            for (value, size) in [(20, 2), (20, 2), (0, 2), (0, 2), (0, 2), (0x21, 2), (0, 4), (0, 4), (0, 4), (name.count, 2),
                                  (0, 2), (0, 2), (0, 2), (0, 2), (0, 4), (offset, 4)] {
                put(value, size, into: &central)
            }
            central += name
        }
        let directoryOffset = bytes.count
        bytes += central
        var shortCount = declared ?? count
        if zip64 {
            // ZIP64 end record (the count in 64 bits), its locator, then the end record with 0xFFFF for the count.
            let recordOffset = bytes.count
            bytes += [0x50, 0x4B, 0x06, 0x06]
            for (value, size) in [(44, 8), (45, 2), (45, 2), (0, 4), (0, 4), (shortCount, 8), (shortCount, 8), (central.count, 8), (directoryOffset, 8)] {
                put(value, size, into: &bytes)
            }
            bytes += [0x50, 0x4B, 0x06, 0x07]
            for (value, size) in [(0, 4), (recordOffset, 8), (1, 4)] { put(value, size, into: &bytes) }
            shortCount = 0xFFFF
        }
        bytes += [0x50, 0x4B, 0x05, 0x06]
        for (value, size) in [(0, 2), (0, 2), (shortCount, 2), (shortCount, 2), (central.count, 4), (directoryOffset, 4), (0, 2)] {
            put(value, size, into: &bytes)
        }
        bytes += [UInt8](repeating: 0, count: trailing)
        let url = try TestScratch.folder().appendingPathComponent("bot.zip")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func zipWithMoreEntriesThanTheLimitIsRefusedFromItsDeclaredCount() throws {
        let url = try Self.zip(entries: 500)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(ZipEntryCount.declared(in: url) == 500)
        #expect(throws: IntentDatasetError.unreadable(
            file: url.path,
            reason: "the zip has 500 entries, more than 100, the limit for one zip export; if the archive is genuine, unzip it and import the folder")) {
            _ = try ImportSource(url: url, expansion: ZipExpansionBudget(entryCountLimit: 100))
        }
        // Within the limit, every entry is listed.
        #expect(try ImportSource(url: url, expansion: ZipExpansionBudget(entryCountLimit: 500)).paths.count == 500)
    }

    /// Three entries declared as 65,535: refused on the count alone, whatever the format asked for,
    /// before the first entry is read (listing them would stop after three, then fail on the layout).
    @Test(arguments: [nil, DatasetFormat.lexV2, .dialogflow, .dialogflowCX, .alexa, .lexV1, .rasaYAML])
    func everyZipImporterRefusesByTheDeclaredCount(_ format: DatasetFormat?) throws {
        let url = try Self.zip(entries: 3, declaring: 65_535)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let budget = ZipExpansionBudget(entryCountLimit: 1_000)
        #expect(throws: IntentDatasetError.unreadable(
            file: url.path,
            reason: "the zip has 65535 entries, more than 1000, the limit for one zip export; if the archive is genuine, unzip it and import the folder")) {
            let source = try ImportSource(url: url, expansion: budget)
            var warnings: [String] = []
            _ = try IntentImporter.importSplits(from: source, format: format ?? FormatDetector.detect(source, warnings: &warnings),
                                                options: ImportOptions(), warnings: &warnings)
        }
    }

    /// The public entry point applies the default limit.
    @Test func importDatasetAppliesTheDefaultLimit() throws {
        let declared = ZipExpansionBudget.defaultEntryCountLimit + 1
        let url = try Self.zip(entries: 3, declaring: declared, zip64: true)
        #expect(ZipEntryCount.declared(in: url) == UInt64(declared))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let error = #expect(throws: IntentDatasetError.self) { _ = try IntentImporter.importDataset(from: url) }
        #expect("\(try #require(error))".contains("the zip has \(declared) entries, more than \(declared - 1)"))
    }

    /// A count record the quick look does not find (here behind 70 KB of padding, which the zip reader
    /// still accepts) leaves the entries to be counted as they are listed, up to one past the limit.
    @Test func entriesAreCountedWhileListedWhenTheCountRecordIsNotAtTheEnd() throws {
        let url = try Self.zip(entries: 300, trailing: 70_000)
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        #expect(ZipEntryCount.declared(in: url) == nil)
        #expect(throws: IntentDatasetError.unreadable(
            file: url.path,
            reason: "the zip has 101 or more entries, more than 100, the limit for one zip export; if the archive is genuine, unzip it and import the folder")) {
            _ = try ImportSource(url: url, expansion: ZipExpansionBudget(entryCountLimit: 100))
        }
    }
}
