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

    /// Writes `bytes` to stdout at once (binary formats such as `.npy`), with the same failure handling as the text form.
    static func write(_ bytes: Data) {
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

    /// Refuses, before any work, an output path that is empty or would overwrite one of the `inputs`.
    static func checkOutput(_ output: String, flag: String = "--output", inputs: [String]) throws {
        guard !output.isEmpty else { throw ValidationError("\(flag) is empty; give a path") }
        try OutputPath.checkNotAnInput(URL(fileURLWithPath: output),
                                       inputs: inputs.filter { $0 != "-" }.map { URL(fileURLWithPath: $0) })
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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("nlu-stdin-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        TemporaryFiles.register(folder)
        copiesLock.lock()
        if standardInputCopies.isEmpty { atexit { Console.removeStandardInputCopies() } }
        let copy = folder.appendingPathComponent(path == "-" ? "standard input" : url.lastPathComponent)
        standardInputCopies.append((folder: folder, copy: copy.path, name: path == "-" ? "standard input" : path))
        copiesLock.unlock()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
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
        let source = path ?? "standard input"
        let data = try readData(path: path)
        var lines: [String] = []
        var lineStart = data.startIndex
        var lineNumber = 1
        for index in data.indices where data[index] == 0x0A {
            lines.append(try decodeLine(data[lineStart..<index], source: source, line: lineNumber,
                                        keepingByteOrderMark: keepingByteOrderMark))
            lineStart = index + 1
            lineNumber += 1
        }
        if lineStart < data.endIndex {
            lines.append(try decodeLine(data[lineStart...], source: source, line: lineNumber,
                                        keepingByteOrderMark: keepingByteOrderMark))
        }
        return lines
    }

    /// Foundation's `String(data:encoding:)` drops a leading U+FEFF; `keepingByteOrderMark` keeps it.
    private static func decodeLine(_ bytes: Data, source: String, line: Int, keepingByteOrderMark: Bool) throws -> String {
        var bytes = bytes
        if bytes.last == 0x0D { bytes = bytes.dropLast() }
        if keepingByteOrderMark {
            let text = String(decoding: bytes, as: UTF8.self)
            // Decoding replaces invalid sequences with U+FFFD: valid UTF-8 round-trips unchanged.
            if text.utf8.elementsEqual(bytes) { return text }
        } else if let text = String(data: bytes, encoding: .utf8) {
            return text
        }
        throw InputError("\(source) line \(line): not valid UTF-8")
    }
}

/// An input a subcommand cannot read or use; printed as "Error: <message>" with exit code 1.
struct InputError: Error, CustomStringConvertible, LocalizedError {
    let description: String
    init(_ description: String) { self.description = description }
    var errorDescription: String? { description }
}
