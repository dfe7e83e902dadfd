#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Writes to an open file descriptor (standard output, a socket) and reports every failure,
/// unlike `print` (which loses them) and `FileHandle.write` (which traps). A reader that went
/// away (a closed pipe, `| head`) is told apart from a real failure (`> /dev/full`).
///
///     do { try StreamOutput.standardOutput.write("hello\n") }
///     catch StreamOutput.Failure.readerClosed { exit(0) }   // as Unix tools do
public struct StreamOutput: Sendable {
    public let descriptor: Int32
    /// How the stream is named in messages ("standard output").
    public let name: String

    public static let standardOutput = StreamOutput(descriptor: 1, name: "standard output")
    public static let standardError = StreamOutput(descriptor: 2, name: "standard error")

    public init(descriptor: Int32, name: String) {
        self.descriptor = descriptor
        self.name = name
    }

    public enum Failure: Error, Equatable, CustomStringConvertible, LocalizedError {
        /// The reading end is closed (EPIPE): the reader wants no more.
        case readerClosed
        /// Any other error: the stream's name and the system's reason.
        case failed(stream: String, reason: String)

        public var description: String {
            switch self {
            case .readerClosed: return "the reader closed the stream"
            case let .failed(stream, reason): return "cannot write \(stream): \(reason)"
            }
        }
        public var errorDescription: String? { description }
    }

    /// Ignores SIGPIPE so that writing to a closed pipe fails with EPIPE (a ``Failure/readerClosed``)
    /// instead of killing the process. Call once at the start of a tool.
    public static func reportClosedPipesAsErrors() {
        signal(SIGPIPE, SIG_IGN)
    }

    public func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        var remaining = bytes
        while let base = remaining.baseAddress, !remaining.isEmpty {
            let written = systemWrite(descriptor, base, remaining.count)
            if written < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { throw Failure.readerClosed }
                throw Failure.failed(stream: name, reason: String(cString: strerror(errno)))
            }
            remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
        }
    }
}

// `write` inside `StreamOutput` would resolve to the method; this names the system call.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
