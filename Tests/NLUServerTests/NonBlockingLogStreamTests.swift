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

        /// Whether the pipe takes more bytes now (POLLOUT); false once a writer has filled its buffer.
        func hasRoom() -> Bool {
            var ready = pollfd(fd: writer, events: Int16(POLLOUT), revents: 0)
            return poll(&ready, 1, 0) == 1 && ready.revents & Int16(POLLOUT) != 0
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
        // The bounds (here and below) only catch a hang: the lines arrive as fast as the machine lets them.
        let reading = Thread.detachedResult { pipe.read(within: 120) { $0.utf8.count >= sent.utf8.count } }
        for line in lines { stream.write(line) }
        #expect(stream.flush(within: 120))
        #expect(reading.value() == sent)
        #expect(stream.droppedLines == 0)
    }

    @Test func aReaderThatStopsReadingNeitherBlocksTheLoggerNorLosesCountOfTheGap() throws {
        let pipe = try Pipe()
        let capacity = 32 << 10
        let stream = NonBlockingLogStream(fileDescriptor: pipe.writer, capacity: capacity)
        var lines: [String] = []
        func send(_ count: Int) {
            for _ in 0..<count {
                lines.append(Self.line(lines.count))
                stream.write(lines[lines.count - 1])
            }
        }
        // Nobody reads: lines go in, a little apart, until the writer thread has filled the pipe (64 KiB) and waits
        // in write(2) for a reader. The bound only catches a writer thread that never writes.
        let filling = Date().addingTimeInterval(120)
        while pipe.hasRoom() && Date() < filling {
            send(50)
            Thread.sleep(forTimeInterval: 0.01)
        }
        try #require(!pipe.hasRoom(), "the pipe did not fill in 120 s: the writer thread did not write the queued lines")

        // With the writer thread stuck on the full pipe, 20,000 more lines (2.3 MB against a 32 KiB queue) must go
        // in without waiting for the reader: a blocking logger never returns here, so the bound only catches that.
        let more = (lines.count..<(lines.count + 20_000)).map(Self.line)
        let writing = Thread.detachedResult { for line in more { stream.write(line) }; return true }
        guard writing.value(within: 120) == true else {
            Issue.record("writing 20,000 lines to a full pipe nobody reads did not return in 120 s: a write waits for the reader")
            return
        }
        lines += more
        let written = lines.count
        // Flushing cannot finish while the pipe is full and lines wait (queued, or in the writer's hands): it gives
        // up at its deadline and says so.
        let flushing = Thread.detachedResult { stream.flush(within: 0.3) }
        let flushed = flushing.value(within: 120)
        #expect(flushed != nil, "flush(within: 0.3) did not return in 120 s while nobody read the pipe")
        #expect(flushed == false, "a flush finished though nobody read the full pipe")
        let dropped = stream.droppedLines
        #expect(dropped > 0)
        // The queue stays bounded: at most the pipe's buffer plus the capacity went anywhere.
        #expect(written - dropped < (1 << 20) / Self.line(0).utf8.count)

        // The reader comes back: what was kept arrives in order, then the line that counts the gap, then new lines.
        let reading = Thread.detachedResult { pipe.read(within: 120) { $0.hasSuffix("after the gap\n") } }
        #expect(stream.flush(within: 120))
        stream.write("after the gap\n")
        #expect(stream.flush(within: 120))
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
        // The flush returns as soon as the write fails (EPIPE); the bound only catches a writer thread that never runs.
        #expect(!stream.flush(within: 120))
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
        /// The result, or nil when `body` has not returned within `seconds`.
        func value(within seconds: Double) -> T? {
            done.wait(timeout: .now() + seconds) == .success ? result : nil
        }
    }

    static func detachedResult<T>(_ body: @escaping @Sendable () -> T) -> Result<T> {
        let result = Result<T>()
        Thread.detachNewThread { result.set(body()) }
        return result
    }
}
