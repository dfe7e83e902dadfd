import ArgumentParser
import Foundation
import NLUKit

/// A benchmark's input file, read whole as every `nlu` command reads its inputs: through ``InputFile``, so that a
/// file past the process's input limit, `/dev/zero` or a FIFO nobody writes to the end of is an error naming it, not
/// gigabytes of memory. `NLUKIT_MAX_INPUT_SIZE` moves the limit, as for `nlu` (read once, at `nlu-bench`'s start).
enum BenchmarkInput {
    static func data(_ path: String) throws -> Data {
        try InputFile.read(URL(fileURLWithPath: path))
    }

    /// - Throws: as ``data(_:)``, or a `ValidationError` naming `path` when it is not UTF-8 text.
    static func text(_ path: String) throws -> String {
        guard let text = String(data: try data(path), encoding: .utf8) else { throw ValidationError("\(path) is not UTF-8 text") }
        return text
    }
}
