#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Reads a line-oriented input (a file, a pipe, standard input) one line at a time, holding at most one
/// line and one read in memory: an endless input of short lines streams (as `cat` would), and a line longer
/// than the limit (`/dev/zero` has no newline) is an error naming the input and the line, not a process
/// that grows until the machine stops it. Lines are handed over as they arrive, so a pipe is answered
/// line by line.
///
///     try InputLines.forEach(in: URL(fileURLWithPath: "questions.txt")) { bytes, number in
///         print(number, String(decoding: bytes, as: UTF8.self))
///     }
public enum InputLines {
    /// Calls `body` with the bytes of each line of the file at `url` (without its "\n") and its number
    /// from 1; a final line without a newline is a line too.
    /// - Throws: ``InputTooLargeError`` for a line past `maximumLineBytes` (``InputFile/maximumBytes`` by
    ///   default), ``InputReadError``, or what `body` throws.
    public static func forEach(in url: URL, name: String? = nil, maximumLineBytes: Int? = nil,
                               _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        let name = name ?? url.path
        let descriptor = open(url.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw InputReadError(file: name, reason: ExistingPath.unreadableReason(url.path)) }
        defer { close(descriptor) }
        try forEach(descriptor: descriptor, name: name, maximumLineBytes: maximumLineBytes ?? InputFile.maximumBytes, body)
    }

    /// The same over standard input, named "standard input" in errors.
    public static func forEachInStandardInput(maximumLineBytes: Int? = nil,
                                              _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        try forEach(descriptor: 0, name: "standard input", maximumLineBytes: maximumLineBytes ?? InputFile.maximumBytes, body)
    }

    static func forEach(descriptor: Int32, name: String, maximumLineBytes: Int,
                        _ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws {
        _ = try InputFile.readableStatus(of: descriptor, name: name)
        let readSize = 1 << 16
        // The bytes read but not yet handed over: [start, end) of `buffer` is the unfinished line.
        var buffer = UnsafeMutableRawPointer.allocate(byteCount: 2 * readSize, alignment: 16)
        var capacity = 2 * readSize, start = 0, end = 0, lineNumber = 1
        defer { buffer.deallocate() }
        while true {
            if capacity - end < readSize {
                if start > 0 {
                    // Move the unfinished line to the front before growing.
                    memmove(buffer, buffer + start, end - start)
                    end -= start
                    start = 0
                }
                if capacity - end < readSize {
                    // Capped at the longest line and one read: a line past that is refused below.
                    let grownCapacity = min(2 * capacity, maximumLineBytes + 2 * readSize)
                    let grown = UnsafeMutableRawPointer.allocate(byteCount: grownCapacity, alignment: 16)
                    grown.copyMemory(from: buffer, byteCount: end)
                    buffer.deallocate()
                    buffer = grown
                    capacity = grownCapacity
                }
            }
            let count = systemRead(descriptor, buffer + end, readSize)
            if count < 0 {
                if errno == EINTR { continue }
                throw InputReadError(file: name, reason: String(cString: strerror(errno)).lowercased())
            }
            if count == 0 {
                if end > start {
                    try body(UnsafeBufferPointer(start: (buffer + start).assumingMemoryBound(to: UInt8.self), count: end - start), lineNumber)
                }
                return
            }
            // Only the new bytes can hold the next newline.
            var scan = end
            end += count
            while let newline = memchr(buffer + scan, 0x0A, end - scan) {
                let lineEnd = buffer.distance(to: UnsafeMutableRawPointer(newline))
                guard lineEnd - start <= maximumLineBytes else {
                    throw InputTooLargeError(file: name, limit: maximumLineBytes, line: lineNumber)
                }
                try body(UnsafeBufferPointer(start: (buffer + start).assumingMemoryBound(to: UInt8.self), count: lineEnd - start), lineNumber)
                lineNumber += 1
                start = lineEnd + 1
                scan = start
            }
            guard end - start <= maximumLineBytes else {
                throw InputTooLargeError(file: name, limit: maximumLineBytes, line: lineNumber)
            }
            if start == end { start = 0; end = 0 }
        }
    }
}
