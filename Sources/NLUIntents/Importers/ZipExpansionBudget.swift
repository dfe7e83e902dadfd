import NLUCore
import NLUInputOutput

/// How many bytes the entries of one zip export may expand to when read, and how many entries it may
/// have. A zip's sizes are only claims until it is unpacked (a 1.5 MB archive can hold a 1.5 GB file
/// of spaces), so entries are counted while they are decompressed and reading stops at the first
/// chunk past a limit. The entry count is checked before any entry is listed (``ZipEntryCount``).
///
///     let budget = ZipExpansionBudget()
///     try budget.take(chunk.count, entryBytes: &read, path: "trainingPhrases/en.json", zip: "agent.zip")
final class ZipExpansionBudget {
    /// The most one entry may expand to: far above any real export file (intents, training
    /// phrases, entity lists are kilobytes to a few megabytes), far below what exhausts memory.
    static let defaultEntryLimit = 256 << 20
    /// The most all entries read from one archive may expand to together; at most half of this
    /// machine's memory (the budget `InputLimits.checkMemory` uses for sizes from files).
    static var defaultArchiveLimit: Int { min(1 << 30, InputLimits.physicalMemory / 2) }

    /// The most entries one archive may have: many times the files of a large real export (an agent of
    /// thousands of intents has a few files per intent and language), few enough to list in a second or so.
    static let defaultEntryCountLimit = 50_000

    let entryLimit: Int
    let archiveLimit: Int
    let entryCountLimit: Int
    /// What the archive's entries have expanded to so far.
    private(set) var archiveBytes = 0

    init(entryLimit: Int = ZipExpansionBudget.defaultEntryLimit, archiveLimit: Int = ZipExpansionBudget.defaultArchiveLimit,
         entryCountLimit: Int = ZipExpansionBudget.defaultEntryCountLimit) {
        self.entryLimit = entryLimit
        self.archiveLimit = archiveLimit
        self.entryCountLimit = entryCountLimit
    }

    /// Checks that `zip`, which declares `count` entries (or, `listing`, has listed that many so far), is
    /// within ``entryCountLimit``.
    /// - Throws: ``IntentDatasetError/unreadable(file:reason:)`` naming the zip, the count and the limit.
    func checkEntryCount(_ count: UInt64, zip: String, listing: Bool = false) throws {
        guard count > UInt64(entryCountLimit) else { return }
        throw IntentDatasetError.unreadable(
            file: zip,
            reason: "the zip has \(count)\(listing ? " or more" : "") entries, more than \(entryCountLimit), the limit for one zip export; "
                + "if the archive is genuine, unzip it and import the folder")
    }

    /// Counts `count` more decompressed bytes of the entry `path` of `zip` (`entryBytes` holds the
    /// entry's count so far).
    /// - Throws: ``IntentDatasetError/unreadable(file:reason:)`` naming the zip, the entry and the
    ///   limit, as soon as the entry or the archive's total passes its limit.
    func take(_ count: Int, entryBytes: inout Int, path: String, zip: String) throws {
        entryBytes += count
        archiveBytes += count
        if entryBytes > entryLimit { throw entryTooLarge(path: path, zip: zip) }
        if archiveBytes > archiveLimit {
            throw IntentDatasetError.unreadable(
                file: "\(zip)/\(path)",
                reason: "the zip entry '\(path)' takes what is unpacked from \(zip) past \(Self.mebibytes(archiveLimit)), "
                    + "the limit for one zip export; if the archive is genuine, unzip it and import the folder")
        }
    }

    /// The error for an entry of `zip` that expands (or claims to) past ``entryLimit``.
    func entryTooLarge(path: String, zip: String) -> IntentDatasetError {
        .unreadable(file: "\(zip)/\(path)",
                    reason: "the zip entry '\(path)' expands to more than \(Self.mebibytes(entryLimit)), the limit for one file "
                        + "of a zip export; if it is genuine, unzip \(zip) and import the folder")
    }

    private static func mebibytes(_ bytes: Int) -> String {
        bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes"
    }
}
