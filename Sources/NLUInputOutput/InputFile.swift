#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads a whole input (a file, a pipe, a device, standard input) with a size limit that is checked
/// before anything is read where the size is known (a regular file), and while reading where it is not
/// (a pipe, `/dev/zero`): an endless or huge input is an error naming it and the limit, not gigabytes of
/// memory. Every reader of user inputs goes through here or through ``InputLines``.
///
///     let data = try InputFile.read(URL(fileURLWithPath: "train.json"))
///     // train.json: 3.1 GiB; inputs are read whole up to 256 MiB (raise the limit with InputFile.maximumBytes …)
public enum InputFile {
    /// The limit when nothing raises it: 256 MiB, above any dataset, corpus or SQuAD file we know of, and
    /// low enough that refusing an endless stream costs a second and well under 1 GB of memory.
    public static let defaultMaximumBytes = 256 << 20

    /// The largest limit a user may set: 64 GiB (an input is held in memory, then usually copied once).
    public static let largestMaximumBytes = 64 << 30

    /// The environment variable that sets ``maximumBytes`` for a process (`512M`, `2G`, a byte count).
    public static let environmentVariable = "NLUKIT_MAX_INPUT_SIZE"

    private static let lock = NSLock()
    nonisolated(unsafe) private static var configuredMaximum: Int?
    nonisolated(unsafe) private static var configuredAdvice: String?

    /// How the user of this process raises ``maximumBytes``, which the errors that name the limit repeat: what
    /// the front offers (`nlu`: `--max-input-size or NLUKIT_MAX_INPUT_SIZE (for example 2G)`; `nlu-bench`: the
    /// variable), else, for a program that reads through the library, ``maximumBytes`` itself.
    public static var limitAdvice: String {
        get { lock.withLock { configuredAdvice ?? "InputFile.maximumBytes" } }
        set { lock.withLock { configuredAdvice = newValue } }
    }

    /// The size limit for every whole input and every line of a line-oriented input in this process:
    /// ``defaultMaximumBytes`` unless a front sets it (`nlu --max-input-size`, ``environmentVariable``).
    public static var maximumBytes: Int {
        get { lock.withLock { configuredMaximum ?? defaultMaximumBytes } }
        set { lock.withLock { configuredMaximum = newValue } }
    }

    /// Sets ``maximumBytes`` from a size such as `512M`, `2G` or `1048576` (binary units K, M, G, with an
    /// optional `iB`/`B`), between 1 KiB and ``largestMaximumBytes``.
    /// - Throws: ``OutOfRangeError`` naming `name` (the option or variable) when the size does not parse or is out of range.
    public static func setMaximum(_ text: String, name: String) throws {
        maximumBytes = try parseSize(text, name: name)
    }

    /// Sets ``maximumBytes`` from ``environmentVariable`` when it is set and not empty: what a command-line
    /// front does before it reads anything.
    /// - Throws: ``OutOfRangeError`` naming the variable.
    public static func setMaximumFromEnvironment() throws {
        guard let size = ProcessInfo.processInfo.environment[environmentVariable], !size.isEmpty else { return }
        try setMaximum(size, name: environmentVariable)
    }

    /// The byte count of `text` (`512M`, `2GiB`, `4096`).
    /// - Throws: ``OutOfRangeError`` naming `name`.
    public static func parseSize(_ text: String, name: String) throws -> Int {
        let expected = "a size between 1K and 64G such as 512M or 2G"
        var digits = Substring(text.trimmingCharacters(in: .whitespaces).uppercased())
        for suffix in ["IB", "B"] where digits.hasSuffix(suffix) { digits = digits.dropLast(suffix.count); break }
        var shift = 0
        if let unit = digits.last, let index = ["K", "M", "G"].firstIndex(of: String(unit)) {
            shift = 10 * (index + 1)
            digits = digits.dropLast()
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let count = Int(digits), count > 0,
              count <= largestMaximumBytes >> shift, (count << shift) >= 1024 else {
            throw OutOfRangeError(name: name, value: text, expected: expected)
        }
        return count << shift
    }

    /// The bytes of the file at `url` (a pipe or device path such as `/dev/stdin` too).
    /// - Parameters:
    ///   - name: how errors name the input (the path by default).
    ///   - maximumBytes: the limit (``maximumBytes`` by default).
    /// - Throws: ``InputTooLargeError``, or ``InputReadError`` with the system's reason.
    public static func read(_ url: URL, name: String? = nil, maximumBytes: Int? = nil) throws -> Data {
        let name = name ?? url.path
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let missing = errno == ENOENT
            throw InputReadError(file: name, reason: ExistingPath.unreadableReason(url.path), isMissing: missing)
        }
        defer { close(descriptor) }
        return try read(descriptor: descriptor, name: name, maximumBytes: maximumBytes ?? self.maximumBytes)
    }

    /// The most a model's own JSON or text file (`manifest.json`, `config.json`, `modules.json`, a saved
    /// language-model state) may hold: 1 GiB, far above any real one (the largest tokenizer files are tens
    /// of MiB), and not moved by `--max-input-size`, which is about the data a command reads: a user who
    /// lowers that for a text file still loads the model.
    public static let modelFileMaximumBytes = 1 << 30

    /// The bytes of a model's file at `url`, up to ``modelFileMaximumBytes``: a 3 GB (or endless) `config.json`
    /// is an error naming it rather than gigabytes of memory and a crash.
    /// - Throws: ``InputTooLargeError`` (with ``InputTooLargeError/isModelFile``), or ``InputReadError``.
    public static func readModelFile(_ url: URL, name: String? = nil) throws -> Data {
        do {
            return try read(url, name: name, maximumBytes: modelFileMaximumBytes)
        } catch var error as InputTooLargeError {
            error.isModelFile = true
            throw error
        }
    }

    /// The bytes of standard input, up to the limit.
    /// - Throws: ``InputTooLargeError`` or ``InputReadError`` naming "standard input".
    public static func readStandardInput(maximumBytes: Int? = nil) throws -> Data {
        try read(descriptor: 0, name: "standard input", maximumBytes: maximumBytes ?? self.maximumBytes)
    }

    /// Reads `descriptor` to its end. A regular file's size is checked before reading; a stream is refused
    /// as soon as it passes the limit, so at most `maximumBytes` + one chunk is ever held.
    static func read(descriptor: Int32, name: String, maximumBytes: Int) throws -> Data {
        let status = try readableStatus(of: descriptor, name: name)
        let isRegular = status.st_mode & S_IFMT == S_IFREG
        if isRegular, Int(status.st_size) > maximumBytes {
            throw InputTooLargeError(file: name, limit: maximumBytes, size: Int(status.st_size))
        }
        // One buffer grown by realloc (glibc moves large blocks with mremap, without a copy) and capped at the
        // limit plus one chunk: Data's own doubling would ask for twice the limit at the end.
        let chunkSize = 1 << 20
        var capacity = isRegular ? Int(status.st_size) + chunkSize : 4 * chunkSize, count = 0
        guard var buffer = malloc(capacity) else { throw InputReadError(file: name, reason: "out of memory") }
        do {
            while true {
                if capacity - count < chunkSize {
                    let grown = min(2 * capacity, maximumBytes + chunkSize)
                    guard let larger = realloc(buffer, grown) else { throw InputReadError(file: name, reason: "out of memory") }
                    buffer = larger
                    capacity = grown
                }
                let received = systemRead(descriptor, buffer + count, min(chunkSize, capacity - count))
                if received == 0 { break }
                if received < 0 {
                    if errno == EINTR { continue }
                    throw InputReadError(file: name, reason: String(cString: strerror(errno)).lowercased())
                }
                count += received
                guard count <= maximumBytes else {
                    throw InputTooLargeError(file: name, limit: maximumBytes, size: isRegular ? count : nil)
                }
            }
        } catch {
            free(buffer)
            throw error
        }
        return Data(bytesNoCopy: buffer, count: count, deallocator: .free)
    }
}

extension InputFile {
    /// What `fstat` says of an open input, refusing a directory (which opens, but reads as an error).
    /// - Throws: ``InputReadError`` naming `name`.
    static func readableStatus(of descriptor: Int32, name: String) throws -> stat {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw InputReadError(file: name, reason: String(cString: strerror(errno)).lowercased()) }
        if status.st_mode & S_IFMT == S_IFDIR { throw InputReadError(file: name, reason: "a directory, not a file") }
        return status
    }
}

/// `read(2)`, named apart from ``InputFile``'s own `read` functions.
@inline(__always)
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    return Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
    return Musl.read(descriptor, buffer, count)
    #else
    return Glibc.read(descriptor, buffer, count)
    #endif
}

/// An input larger than the limit of ``InputFile`` (a whole input, or one line of a line-oriented one).
public struct InputTooLargeError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// How the input is named: its path, or "standard input".
    public var file: String
    /// The limit in bytes.
    public var limit: Int
    /// The input's size when it is known before reading (a regular file).
    public var size: Int?
    /// The line, for a line-oriented input whose line passed the limit.
    public var line: Int?
    /// Whether the input is a model's own file (``InputFile/modelFileMaximumBytes``), which no option raises.
    public var isModelFile: Bool

    public init(file: String, limit: Int, size: Int? = nil, line: Int? = nil, isModelFile: Bool = false) {
        self.file = file
        self.limit = limit
        self.size = size
        self.line = line
        self.isModelFile = isModelFile
    }

    public var description: String { "\(line.map { "\(file) line \($0)" } ?? file): \(reason)" }

    /// What is wrong and what to do, without the file's name: for an error type of its own that names the file.
    public var reason: String {
        let found = size.map { "\(InputTooLargeError.format($0)) (\($0) bytes)" } ?? "more than \(InputTooLargeError.format(limit))"
        if isModelFile {
            return "\(found); a model's JSON or text file is read up to \(InputTooLargeError.format(limit)), "
                + "and no model's is that large: check that this is the model's file"
        }
        let kind = line == nil ? "an input is read whole up to" : "a line may hold at most"
        return "\(found); \(kind) \(InputTooLargeError.format(limit)): raise the limit with \(InputFile.limitAdvice) "
            + "if this really is the input"
    }
    public var errorDescription: String? { description }

    /// `bytes` in the largest binary unit that keeps one decimal ("256 MiB", "3.1 GiB").
    static func format(_ bytes: Int) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes), unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        if unit == 0 { return "\(bytes) bytes" }
        return value == value.rounded() ? "\(Int(value)) \(units[unit])" : "\(String(format: "%.1f", value)) \(units[unit])"
    }
}

/// An input that could not be read; the reason is the system's, in plain words.
public struct InputReadError: Error, Equatable, CustomStringConvertible, LocalizedError {
    public var file: String
    public var reason: String
    /// The path does not exist: a reader whose file is optional, or whose errors say what was expected there,
    /// tells this apart from a file that exists but cannot be read.
    public var isMissing: Bool

    public init(file: String, reason: String, isMissing: Bool = false) {
        self.file = file
        self.reason = reason
        self.isMissing = isMissing
    }

    public var description: String { "\(file): cannot read the file (\(reason))" }
    public var errorDescription: String? { description }
}
