#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Log lines for a file descriptor (the server's standard error), written by a thread of their own, so that a
/// request never waits for whoever reads the log.
///
/// swift-log's `StreamLogHandler.standardError` writes each line with `fwrite` under the stream's lock, on the
/// thread that logs. When standard error is a pipe nobody drains (a supervisor that stopped reading, a script that
/// piped it and never read it), the pipe's buffer (64 KiB on Linux) fills, that write blocks holding the lock, and
/// every thread that logs next blocks behind it: the event loops (a line per request at `info`, a line per 500 at
/// any level), then the whole server, SIGTERM included. It happened: `benchmarks/dialogue_rasa.py` piped the
/// server's standard error and never read it, 224 logged 500s filled the pipe, and every later request hung.
///
/// Here `write` only queues the line (at most `capacity` bytes wait) and a writer thread does the blocking. A line
/// that does not fit is dropped and counted; once the reader catches up, a line says how many were lost, so a log
/// with a gap says so. A reader that closed the pipe (EPIPE) ends the writing: later lines are counted as dropped.
///
///     let stream = NonBlockingLogStream(fileDescriptor: STDERR_FILENO)
///     LoggingSystem.bootstrap { label in StreamLogHandler(label: label, stream: stream) }
///     defer { stream.flush(within: 2) }   // before the process exits: queued lines are not lost
public final class NonBlockingLogStream: TextOutputStream, @unchecked Sendable {
    /// The most bytes of lines waiting for the writer thread (a line that would pass it is dropped).
    public let capacity: Int
    private let state: State

    /// - Parameters:
    ///   - fileDescriptor: where the lines go (standard error, or a pipe's writing end in tests); left open.
    ///   - capacity: bytes of lines that may wait (1 MiB: about 5,000 request lines, seconds of a busy server).
    ///   - label: the logger label of the line that reports dropped lines.
    public init(fileDescriptor: Int32, capacity: Int = 1 << 20, label: String = "nlu.serve") {
        self.capacity = max(1, capacity)
        state = State(descriptor: fileDescriptor, capacity: max(1, capacity), label: label)
        let state = self.state
        let thread = Thread { state.writeUntilFinished() }
        thread.name = "nlu-log-writer"
        thread.start()
    }

    deinit {
        state.finish()
    }

    /// Queues `string` (one whole line, as `StreamLogHandler` writes it), or drops it when the queue is full.
    public func write(_ string: String) {
        state.enqueue(string)
    }

    /// Lines dropped so far (the queue was full, or the reader had closed the output).
    public var droppedLines: Int {
        state.droppedLines
    }

    /// Waits until every queued line is written, at most `seconds`; true when they all were. A process calls it
    /// before it exits (its last lines are still queued); a reader that does not read bounds the wait.
    @discardableResult
    public func flush(within seconds: Double) -> Bool {
        state.flush(until: Date().addingTimeInterval(seconds))
    }
}

extension NonBlockingLogStream {
    /// The queue, shared with the writer thread (which must not keep the stream itself alive).
    private final class State: @unchecked Sendable {
        let descriptor: Int32
        let capacity: Int
        let label: String
        // Guarded by `condition`.
        private let condition = NSCondition()
        private var queued: [String] = []
        private var queuedBytes = 0
        private var writing = false
        private var finished = false
        private var closed = false
        private var dropped = 0
        private var unreported = 0

        init(descriptor: Int32, capacity: Int, label: String) {
            self.descriptor = descriptor
            self.capacity = capacity
            self.label = label
        }

        var droppedLines: Int {
            condition.lock()
            defer { condition.unlock() }
            return dropped
        }

        func enqueue(_ line: String) {
            let bytes = line.utf8.count
            condition.lock()
            defer { condition.unlock() }
            guard !closed, queuedBytes + bytes <= capacity else {
                dropped += 1
                unreported += closed ? 0 : 1
                return
            }
            // The gap is reported where it is: after the lines written before it, before the next one.
            queueDropReport()
            queued.append(line)
            queuedBytes += bytes
            condition.broadcast()
        }

        func flush(until deadline: Date) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            queueDropReport()
            condition.broadcast()
            while !queued.isEmpty || writing {
                if !condition.wait(until: deadline) { return queued.isEmpty && !writing && !closed }
            }
            return !closed
        }

        func finish() {
            condition.lock()
            finished = true
            condition.broadcast()
            condition.unlock()
        }

        /// The writer thread: takes all queued lines at once and writes them outside the lock, until the stream is
        /// gone and the queue empty, or the output fails.
        func writeUntilFinished() {
            // A reader that closed a pipe makes `write` raise SIGPIPE on this thread; blocked here, it fails with
            // EPIPE instead of ending the process (whatever the process does with the signal elsewhere).
            var pipeSignal = sigset_t()
            sigemptyset(&pipeSignal)
            sigaddset(&pipeSignal, SIGPIPE)
            pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
            while true {
                condition.lock()
                while queued.isEmpty && !finished {
                    if unreported > 0 { queueDropReport(); continue }
                    condition.wait()
                }
                if queued.isEmpty { condition.unlock(); return }
                let batch = queued
                queued.removeAll(keepingCapacity: true)
                queuedBytes = 0
                writing = true
                condition.unlock()

                let failed = !write(batch.joined())
                condition.lock()
                writing = false
                if failed {
                    // The output is gone (EPIPE, EBADF...): nobody reads the batch or what is queued.
                    closed = true
                    dropped += batch.count + queued.count
                    queued.removeAll()
                    queuedBytes = 0
                }
                condition.broadcast()
                condition.unlock()
                if failed { return }
            }
        }

        /// Writes all of `text`, waiting as long as the reader makes it wait; false when the output failed.
        private func write(_ text: String) -> Bool {
            var text = text
            return text.withUTF8 { bytes in
                var remaining = UnsafeRawBufferPointer(bytes)
                while let base = remaining.baseAddress, !remaining.isEmpty {
                    let written = systemWrite(descriptor, base, remaining.count)
                    if written >= 0 {
                        remaining = UnsafeRawBufferPointer(rebasing: remaining[written...])
                    } else if errno == EINTR {
                        continue
                    } else if errno == EAGAIN || errno == EWOULDBLOCK {
                        // A descriptor someone made non-blocking: wait until it takes bytes again.
                        var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                        _ = poll(&ready, 1, -1)
                    } else {
                        return false
                    }
                }
                return true
            }
        }

        /// Queues the line saying how many lines were dropped since the last such line. Called with the lock held.
        private func queueDropReport() {
            guard unreported > 0, !closed else { return }
            let line = "\(Self.timestamp()) warning \(label): [NLUServer] \(unreported) log line\(unreported == 1 ? " was" : "s were") dropped: "
                + "standard error was not read as fast as the server wrote it (a pipe nobody drains?); requests were answered meanwhile\n"
            unreported = 0
            queued.append(line)
            queuedBytes += line.utf8.count
        }

        /// Local time as `StreamLogHandler` prints it (`2026-12-03T07:26:34+0000`).
        private static func timestamp() -> String {
            var now = time(nil)
            var local = tm()
            guard localtime_r(&now, &local) != nil else { return "<unknown>" }
            var buffer = [CChar](repeating: 0, count: 64)
            let length = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local)
            return String(decoding: buffer.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}

// `write` inside the state would resolve to its method; this names the system call.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
