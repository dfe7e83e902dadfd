import ArgumentParser
import Foundation
import NLUKit

/// Output and input helpers shared by every `nlu` subcommand: results on stdout, logs and
/// progress on stderr, JSON one value per line, inputs from a file or standard input.
/// Subcommands never call Swift's `print` or `FileHandle.write`: both lose or trap on write errors.
enum Console {
    /// Writes `text` to stdout at once, without a newline (generation streams token by token).
    /// Every result goes through here: a failed write ends the command with exit 1 and a message
    /// (`> /dev/full`), a closed pipe (`| head`) ends it quietly with exit 0, as Unix tools do.
    static func write(_ text: String) {
        reportingWriteFailures { try StreamOutput.standardOutput.write(text) }
    }

    /// Writes `bytes` to stdout at once (binary formats such as `.npy`, JSON from a `JSONWriter`), with the same
    /// failure handling as the text form.
    static func write(_ bytes: some ContiguousBytes) {
        reportingWriteFailures { try bytes.withUnsafeBytes { try StreamOutput.standardOutput.write($0) } }
    }

    private static func reportingWriteFailures(_ writing: () throws -> Void) {
        do {
            try writing()
        } catch StreamOutput.Failure.readerClosed {
            Foundation.exit(0)
        } catch {
            log("Error: \(error)")
            Foundation.exit(1)
        }
    }

    /// Writes `line` and a newline to stdout (see ``write(_:)``).
    static func print(_ line: String) {
        write(line + "\n")
    }

    /// "1 document", "2 documents": a count and its noun, in the plural (`plural`, default noun + "s")
    /// unless the count is 1.
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// Writes a line to stderr (progress, warnings, logs); a failure to do so is not worth stopping for.
    static func log(_ text: String) {
        try? StreamOutput.standardError.write(text + "\n")
    }

    /// `value` as one line of JSON; sorted keys give stable output for scripts.
    static func json<T: Encodable>(_ value: T, sortedKeys: Bool = true) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = sortedKeys ? [.withoutEscapingSlashes, .sortedKeys] : [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Refuses, before any work, an output path that is empty, would overwrite one of the `inputs`, or
    /// lies in a folder that does not exist or cannot be written.
    static func checkOutput(_ output: String, flag: String = "--output", inputs: [String]) throws {
        guard !output.isEmpty else { throw ValidationError("\(flag) is empty; give a path") }
        try OutputPath.checkNotAnInput(URL(fileURLWithPath: output),
                                       inputs: inputs.filter { $0 != "-" }.map { URL(fileURLWithPath: $0) })
        try OutputPath.checkFolderWritable(URL(fileURLWithPath: output))
    }

    /// The bytes of the file at `path`, or of standard input when `path` is nil or "-", up to the input
    /// size limit (``InputFile/maximumBytes``, `--max-input-size`). Pipes and process substitutions
    /// (/dev/fd/N) are read too.
    /// - Throws: ``InputTooLargeError`` or ``InputReadError`` naming the file.
    static func readData(path: String?) throws -> Data {
        guard let path, path != "-" else { return try InputFile.readStandardInput() }
        return try InputFile.read(URL(fileURLWithPath: path), name: path)
    }
}

extension Console {
    /// A path a library reader can open for the input `path`: the path itself, or for "-" (and a
    /// pipe such as /dev/stdin or /dev/fd/N, which cannot be read twice) a private copy of the
    /// stream in a temporary folder; ``namingInputs(in:)`` turns the copy's path in an error message
    /// back into "standard input" (or the pipe's path). The copy is removed when the process ends
    /// (also on SIGINT/SIGTERM).
    /// - Throws: ``InputError`` when standard input cannot be read or copied.
    static func inputFile(_ path: String) throws -> URL {
        let url = URL(fileURLWithPath: path)
        if path != "-" {
            // stat follows links (/dev/stdin → /proc/self/fd/0 → a pipe): only a stream needs a copy.
            var status = stat()
            guard stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG, status.st_mode & S_IFMT != S_IFDIR else { return url }
        }
        let data = try readData(path: path)
        let temporaries: URL
        do {
            temporaries = try TemporaryFiles.directory()
        } catch {
            throw InputError("\(path == "-" ? "standard input" : path): cannot copy it to a temporary file: \(error)")
        }
        let folder = temporaries.appendingPathComponent("nlu-stdin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        copiesLock.lock()
        if standardInputCopies.isEmpty { atexit { Console.removeStandardInputCopies() } }
        let copy = folder.appendingPathComponent(path == "-" ? "standard input" : url.lastPathComponent)
        standardInputCopies.append((folder: folder, copy: copy.path, name: path == "-" ? "standard input" : path))
        copiesLock.unlock()
        do {
            try TemporaryFiles.create(folder) { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false) }
            try AtomicFile.write(to: copy) { try $0.write(data) }
        } catch {
            throw InputError("\(path == "-" ? "standard input" : path): cannot copy it to a temporary file: \((error as? LocalizedError)?.errorDescription ?? "\(error)")")
        }
        return copy
    }

    private static let copiesLock = NSLock()
    nonisolated(unsafe) private static var standardInputCopies: [(folder: URL, copy: String, name: String)] = []

    private static func removeStandardInputCopies() {
        copiesLock.lock()
        defer { copiesLock.unlock() }
        for entry in standardInputCopies { try? FileManager.default.removeItem(at: entry.folder) }
    }

    /// `message` with the path of every temporary copy made by ``inputFile(_:)`` replaced by what the
    /// user gave: a library error about the copy names "standard input", not /tmp/nlu-stdin-….
    static func namingInputs(in message: String) -> String {
        copiesLock.lock()
        defer { copiesLock.unlock() }
        return standardInputCopies.reduce(message) { $0.replacingOccurrences(of: $1.copy, with: $1.name) }
    }

    /// The UTF-8 text of the file at `path` ("-": standard input).
    /// - Throws: ``InputError`` naming the file when it cannot be read or is not UTF-8.
    static func readText(path: String) throws -> String {
        guard let text = String(data: try readData(path: path), encoding: .utf8) else {
            throw InputError("\(path == "-" ? "standard input" : path): not UTF-8 text")
        }
        return text
    }

    /// The lines of the file at `path` (standard input when nil or "-"), one input each; a final
    /// newline ends the last line and a "\r" before a newline is dropped.
    /// - Throws: ``InputError`` naming the file (or "standard input") and the line that is not UTF-8.
    static func readLines(path: String?, keepingByteOrderMark: Bool = false) throws -> [String] {
        var lines: [String] = []
        var total = 0
        let limit = InputFile.maximumBytes
        try forEachLine(path: path, keepingByteOrderMark: keepingByteOrderMark) { line in
            // The lines are kept: the whole input is held to the limit of a whole input.
            total += line.utf8.count + 1
            guard total <= limit + 1 else {
                throw InputTooLargeError(file: path.flatMap { $0 == "-" ? nil : $0 } ?? "standard input", limit: limit)
            }
            lines.append(line)
        }
        return lines
    }

    /// Calls `body` with each line of the file at `path` (standard input when nil or "-") as soon as it
    /// is read, decoded as ``readLines(path:keepingByteOrderMark:)`` decodes them: invalid UTF-8 is an
    /// error naming the line, where Swift's `readLine()` would replace it silently. One line is held at a
    /// time, so an endless input streams; a line past the input size limit is an error naming it.
    static func forEachLine(path: String?, keepingByteOrderMark: Bool = false, _ body: (String) throws -> Void) throws {
        func decode(_ bytes: UnsafeBufferPointer<UInt8>, _ number: Int, _ source: String) throws {
            try body(try decodeLine(bytes, source: source, line: number, keepingByteOrderMark: keepingByteOrderMark))
        }
        guard let path, path != "-" else {
            return try InputLines.forEachInStandardInput { try decode($0, $1, "standard input") }
        }
        try InputLines.forEach(in: URL(fileURLWithPath: path), name: path) { try decode($0, $1, path) }
    }

    /// One line's text: a trailing "\r" dropped, invalid UTF-8 an error naming the line. A leading
    /// U+FEFF is dropped as Foundation's `String(data:encoding:)` drops it, unless
    /// `keepingByteOrderMark` (Hugging Face's tokenizers keep it as a character of the text).
    private static func decodeLine(_ bytes: UnsafeBufferPointer<UInt8>, source: String, line: Int,
                                   keepingByteOrderMark: Bool) throws -> String {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = UnsafeBufferPointer(rebasing: bytes.dropLast()) }
        // Every command tokenizes its lines or may: refuse what the tokenizers cannot index, naming the line.
        guard bytes.count <= TextLengthLimit.maximumUTF8Bytes else {
            throw InputError("\(source) line \(line): \(bytes.count) bytes; a line may hold at most \(TextLengthLimit.maximumUTF8Bytes) (2 GiB - 1: the tokenizers count offsets in 32 bits)")
        }
        if !keepingByteOrderMark, bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            bytes = UnsafeBufferPointer(rebasing: bytes.dropFirst(3))
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw InputError("\(source) line \(line): not valid UTF-8")
        }
        return text
    }
}

/// An input a subcommand cannot read or use; printed as "Error: <message>" with exit code 1.
struct InputError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}
