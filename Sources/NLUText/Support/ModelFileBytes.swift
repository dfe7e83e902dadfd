import Foundation

/// The bytes of a tokenizer's file (`vocab.txt`, `tokenizer.json`, `vocab.json`, `merges.txt`,
/// `tokenizer_config.json`), refused past ``maximumBytes`` before it fills the memory: a 3 GB file
/// named `vocab.txt` (or a link to a huge one) was read whole and the process aborted. NLUCore's
/// `InputFile.readModelFile` does the same, with the same limit, for the modules above; NLUText
/// depends on nothing.
///
///     let data = try ModelFileBytes.read(directory.appendingPathComponent("tokenizer.json"))
enum ModelFileBytes {
    /// 1 GiB: the largest tokenizer files are tens of MiB.
    static let maximumBytes = 1 << 30

    /// A file over ``maximumBytes``.
    struct TooLarge: Error, CustomStringConvertible {
        /// The size, when the file is a regular one (a stream is stopped when it passes the limit).
        var size: Int?

        var description: String {
            // As NLUCore's InputTooLargeError writes sizes: "3 GiB", "1.5 GiB".
            let gib = Double(size ?? 0) / Double(1 << 30)
            let shown = gib == gib.rounded() ? "\(Int(gib)) GiB" : String(format: "%.1f GiB", gib)
            let found = size.map { "\(shown) (\($0) bytes)" } ?? "more than 1 GiB"
            return "\(found); a model's JSON or text file is read up to 1 GiB, and no model's is that large: check that this is the model's file"
        }
    }

    /// The whole file; a regular file is measured first, a pipe or device read up to the limit.
    /// - Throws: ``TooLarge``, or the system's error when the file cannot be read.
    static func read(_ url: URL) throws -> Data {
        // Through links (a Hugging Face snapshot's files are links to blobs): a link is measured as its target.
        let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
        if attributes[.type] as? FileAttributeType == .typeRegular {
            let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
            guard size <= maximumBytes else { throw TooLarge(size: size) }
            return try Data(contentsOf: url)
        }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            data.append(chunk)
            guard data.count <= maximumBytes else { throw TooLarge(size: nil) }
        }
        return data
    }

    /// The whole file, or nil when it cannot be read (missing, a directory, no permission).
    /// - Throws: ``BertTokenizerError/invalidFile(file:detail:)`` naming a file over the limit.
    static func contents(of url: URL) throws -> Data? {
        do { return try read(url) } catch let error as TooLarge {
            throw BertTokenizerError.invalidFile(file: url.path, detail: error.description)
        } catch {
            return nil
        }
    }
}
