import Foundation

/// The number of entries a zip archive declares, read from its end-of-central-directory record (and
/// the ZIP64 record after it when there is one): the count the archive's reader walks, known before
/// any entry is read, so that an archive of millions of tiny entries is refused at once instead of
/// after minutes of listing (a Lex V2 "bot" of many entries took 44 s to refuse).
///
///     if let count = ZipEntryCount.declared(in: zipURL), count > 100_000 { ... }
enum ZipEntryCount {
    /// The end-of-central-directory record: a 4-byte signature and 18 bytes of fields, then a comment
    /// of at most 65,535 bytes, which is why it lies within the file's last 65,557 bytes.
    private static let recordSize = 22
    private static let longestComment = 65_535
    /// The ZIP64 locator (20 bytes) right before the record, and the ZIP64 record (56 bytes) before that.
    private static let zip64LocatorSize = 20
    private static let zip64RecordSize = 56

    /// The declared entry count of the zip at `url`, `nil` when no end-of-central-directory record is
    /// found where the format puts it (the archive's reader then decides what the file is).
    static func declared(in url: URL) -> UInt64? {
        guard let handle = try? FileHandle(forReadingFrom: url) else { return nil }
        defer { try? handle.close() }
        guard let length = try? handle.seekToEnd(), length >= UInt64(recordSize) else { return nil }
        let tailLength = min(length, UInt64(recordSize + longestComment))
        guard (try? handle.seek(toOffset: length - tailLength)) != nil,
              let tail = try? handle.read(upToCount: Int(tailLength)), tail.count == Int(tailLength) else { return nil }
        let bytes = [UInt8](tail)
        // The last signature wins, as the archive's reader scans from the end.
        guard let record = stride(from: bytes.count - recordSize, through: 0, by: -1).first(where: {
            bytes[$0] == 0x50 && bytes[$0 + 1] == 0x4B && bytes[$0 + 2] == 0x05 && bytes[$0 + 3] == 0x06
        }) else { return nil }
        let count = UInt64(littleEndian(bytes, at: record + 10, size: 2))
        let recordOffset = length - tailLength + UInt64(record)
        return zip64Count(handle, recordOffset: recordOffset) ?? count
    }

    /// The entry count of the ZIP64 record that precedes the record at `recordOffset`, if there is one.
    private static func zip64Count(_ handle: FileHandle, recordOffset: UInt64) -> UInt64? {
        let size = UInt64(zip64LocatorSize + zip64RecordSize)
        guard recordOffset >= size, (try? handle.seek(toOffset: recordOffset - size)) != nil,
              let data = try? handle.read(upToCount: Int(size)), data.count == Int(size) else { return nil }
        let bytes = [UInt8](data)
        let locator = zip64RecordSize
        guard bytes[0] == 0x50, bytes[1] == 0x4B, bytes[2] == 0x06, bytes[3] == 0x06,
              bytes[locator] == 0x50, bytes[locator + 1] == 0x4B, bytes[locator + 2] == 0x06, bytes[locator + 3] == 0x07,
              // Version 4.5 needed to extract, or the reader ignores the ZIP64 record (and so do we).
              littleEndian(bytes, at: 14, size: 2) >= 45 else { return nil }
        return littleEndian(bytes, at: 32, size: 8)
    }

    private static func littleEndian(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        (0..<size).reduce(UInt64(0)) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) }
    }
}
