import Foundation

/// Output and input helpers shared by every `nlu` subcommand: results on stdout, logs and
/// progress on stderr, JSON one value per line, inputs from a file or standard input.
enum Console {
    /// Writes `text` to stdout at once, without a newline (generation streams token by token).
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    /// Writes a line to stderr (progress, warnings, logs).
    static func log(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    /// `value` as one line of JSON; sorted keys give stable output for scripts.
    static func json<T: Encodable>(_ value: T, sortedKeys: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.withoutEscapingSlashes, .sortedKeys] : [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// The bytes of the file at `path`, or of standard input when `path` is nil or "-".
    /// FileHandle also reads pipes and process substitutions (/dev/fd/N).
    /// - Throws: ``InputError`` naming the file when it cannot be read.
    static func readData(path: String?) throws -> Data {
        guard let path, path != "-" else { return FileHandle.standardInput.readDataToEndOfFile() }
        guard let handle = FileHandle(forReadingAtPath: path), let data = try? handle.readToEnd() ?? Data() else {
            throw InputError("\(path): cannot read the file")
        }
        return data
    }
}

/// An input a subcommand cannot read or use; printed as "Error: <message>" with exit code 1.
struct InputError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}
