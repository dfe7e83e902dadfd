#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
@testable import NLUServer

/// The server's log output: a reader that does not read must never make a request wait (last session's server
/// stopped answering when its standard error, a pipe nobody read, filled), and what is dropped is counted and said.
@Suite("Log lines written off the request threads")
struct NonBlockingLogStreamTests {
    /// A pipe: lines go into `writer`, the test reads `reader` when it chooses to.
    final class Pipe: @unchecked Sendable {
        let reader: Int32
        let writer: Int32
        init() throws {
            var ends: [Int32] = [0, 0]
            guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
            reader = ends[0]
            writer = ends[1]
            // Reads never block the test: it polls with a deadline.
            _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL) | O_NONBLOCK)
        }
        deinit {
            close(reader)
            close(writer)
        }

        /// Reads what arrives until `done` holds for all of it or `seconds` pass.
        func read(within seconds: Double, until done: (String) -> Bool) -> String {
            var text = Data()
            let deadline = Date().addingTimeInterval(seconds)
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            while Date() < deadline {
                let count = readBytes(reader, &buffer)
                if count > 0 {
                    text.append(contentsOf: buffer[..<count])
                    if done(String(decoding: text, as: UTF8.self)) { break }
                } else {
                    Thread.sleep(forTimeInterval: 0.005)
                }
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    static func line(_ number: Int) -> String {
        "2026-12-03T07:26:34+0000 info nlu.serve: method=POST ms=0.21 path=/conversations/c\(number)/messages status=200 [NLUServer] request\n"
    }

    @Test func linesArriveWholeAndInOrderWhileTheReaderKeepsUp() throws {
        let pipe = try Pipe()
        let stream = NonBlockingLogStream(fileDescriptor: pipe.writer, capacity: 1 << 20)
        let lines = (0..<3000).map(Self.line)
        let sent = lines.joined()
        // 3000 lines are about 340 KB: more than a pipe holds, so the writer waits for the reader in between.
        let reading = Thread.detachedResult { pipe.read(within: 20) { $0.utf8.count >= sent.utf8.count } }
        for line in lines { stream.write(line) }
        #expect(stream.flush(within: 20))
        #expect(reading.value() == sent)
        #expect(stream.droppedLines == 0)
    }

    @Test func aReaderThatStopsReadingNeitherBlocksTheLoggerNorLosesCountOfTheGap() throws {
        let pipe = try Pipe()
        let capacity = 32 << 10
        let stream = NonBlockingLogStream(fileDescriptor: pipe.writer, capacity: capacity)
        let lines = (0..<40_000).map(Self.line)
        // Nobody reads: 2.3 MB against a 64 KiB pipe and a 32 KiB queue. Each write must return at once (a
        // blocking logger stops here for good); the bound is generous for a loaded machine.
        let clock = ContinuousClock()
        var written = 20_000
        let took = clock.measure { for line in lines[..<written] { stream.write(line) } }
        #expect(took < .seconds(5), "writing 20,000 lines nobody reads took \(took)")
        // Flushing cannot finish while the pipe is full and lines wait; it gives up at its deadline. On a loaded
        // machine the writer thread may not have run yet (the pipe then holds all it was given and a flush
        // finishes), so more lines go in, a little apart, until the pipe is full.
        var flushed = true, flushing = Duration.zero
        while flushed && written < lines.count {
            Thread.sleep(forTimeInterval: 0.05)
            for line in lines[written..<(written + 2_000)] { stream.write(line) }
            written += 2_000
            flushing = clock.measure { flushed = stream.flush(within: 0.3) }
        }
        #expect(!flushed, "a flush finished though nobody read the pipe")
        #expect(flushing < .seconds(3))
        let dropped = stream.droppedLines
        #expect(dropped > 0)
        // The queue stays bounded: at most the pipe's buffer plus the capacity went anywhere.
        #expect(written - dropped < (1 << 20) / Self.line(0).utf8.count)

        // The reader comes back: what was kept arrives in order, then the line that counts the gap, then new lines.
        let reading = Thread.detachedResult { pipe.read(within: 20) { $0.hasSuffix("after the gap\n") } }
        #expect(stream.flush(within: 20))
        stream.write("after the gap\n")
        #expect(stream.flush(within: 20))
        #expect(stream.droppedLines == dropped)
        let received = reading.value() ?? ""
        let receivedLines = received.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        #expect(receivedLines.last == "after the gap")
        // The lines kept arrive in order, each gap replaced by a line that counts it (whether the writer thread
        // freed room in between decides where the gaps fall: the first batches fill the pipe, later ones wait).
        let gapLine = #/warning nlu\.serve: \[NLUServer\] (\d+) log lines? (was|were) dropped: standard error was not read/#
        var next = 0, kept = 0, reported = 0, inOrder = true
        for line in receivedLines.dropLast() {
            if let gap = line.firstMatch(of: gapLine) {
                reported += Int(gap.1) ?? 0
                continue
            }
            guard let index = lines[next..<written].firstIndex(of: line + "\n") else { inOrder = false; break }
            next = index + 1
            kept += 1
        }
        #expect(inOrder, "a line arrived out of order or changed")
        #expect(reported == dropped)
        // Every line is either received or counted as dropped.
        #expect(kept + dropped == written)
    }

    @Test func aClosedReaderEndsTheWritingWithoutASignal() throws {
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        // SIGPIPE's default action would end the test process here: the writer thread blocks it for itself.
        let stream = NonBlockingLogStream(fileDescriptor: ends[1], capacity: 1 << 16)
        stream.write(Self.line(1))
        #expect(!stream.flush(within: 5))
        for number in 2...100 { stream.write(Self.line(number)) }
        #expect(stream.droppedLines == 100)
    }
}

/// `read(2)` (inside `Pipe` the name is its method).
private func readBytes(_ descriptor: Int32, _ buffer: inout [UInt8]) -> Int {
    buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
}

private extension Thread {
    /// Runs `body` on a new thread; `value()` waits for its result.
    final class Result<T>: @unchecked Sendable {
        private let done = DispatchSemaphore(value: 0)
        private var result: T?
        func set(_ value: T) { result = value; done.signal() }
        func value() -> T? { done.wait(); return result }
    }

    static func detachedResult<T>(_ body: @escaping @Sendable () -> T) -> Result<T> {
        let result = Result<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}
