import Foundation
import NLUInputOutput

/// A tokenizer's file that may be absent (`vocab.json`, `merges.txt`, `tokenizer_config.json`), read through
/// `InputFile.readModelFile` and so refused past its limit before it fills the memory: a 3 GB file named
/// `vocab.txt` (or a link to a huge one) was once read whole and the process aborted.
///
///     let data = try ModelFileBytes.contents(of: directory.appendingPathComponent("tokenizer_config.json"))
enum ModelFileBytes {
    /// The whole file, or nil when it cannot be read (missing, a directory, no permission): the caller's own
    /// message then says what the file should be.
    /// - Throws: ``BertTokenizerError/invalidFile(file:detail:)`` naming a file over the limit.
    static func contents(of url: URL) throws -> Data? {
        do {
            return try InputFile.readModelFile(url)
        } catch is InputReadError {
            return nil
        } catch let error as InputTooLargeError {
            throw BertTokenizerError.invalidFile(file: url.path, detail: error.reason)
        }
    }
}
