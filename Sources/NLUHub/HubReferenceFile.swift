#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUInputOutput

/// A ref of a Hugging Face cache (`refs/main`: the commit hash a revision stands for), read as
/// huggingface_hub reads it offline, but bounded: only a regular file (a FIFO there would block the open
/// forever) and at most ``maximumBytes`` (a 40-digit hash is all a ref holds; a larger file is no ref).
enum HubReferenceFile {
    static let maximumBytes = 1024

    /// The ref's text without surrounding white space; nil when there is no such regular file, it is too
    /// large, or it is not UTF-8.
    ///
    ///     let commit = HubReferenceFile.commit(at: repository.appendingPathComponent("refs/main"))
    static func commit(at url: URL) -> String? {
        var info = stat()
        guard stat(url.path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
              let data = try? InputFile.read(url, maximumBytes: maximumBytes),
              let text = String(data: data, encoding: .utf8) else { return nil }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
