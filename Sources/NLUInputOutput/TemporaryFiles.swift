#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// The temporary files and folders that atomic writers are building, so that a process stopped by
/// SIGINT, SIGTERM or SIGHUP removes them before it ends (`*.tmp-*` would otherwise stay behind).
/// A process killed with SIGKILL cannot clean up: writers sweep the temporaries of dead processes
/// beside their destination instead (see ``AtomicFile/temporaryURL(beside:)``).
///
///     TemporaryFiles.removeOnTermination()   // once, at the start of a command-line tool
public enum TemporaryFiles {
    private final class Registry: @unchecked Sendable {
        let lock = NSLock()
        var paths: Set<String> = []
        var installed = false
    }
    private static let registry = Registry()

    /// The folder for temporaries that live nowhere else: `$TMPDIR` when it is set, else `/tmp`, as
    /// Foundation's `temporaryDirectory` chooses, but checked, so that a `TMPDIR` naming nothing or a
    /// file is an error that names the variable and the path (it was "the operation failed").
    ///
    ///     let folder = try TemporaryFiles.directory().appendingPathComponent("nlu-stdin-…")
    /// - Throws: ``DirectoryProblem`` when `$TMPDIR` is not an existing folder.
    public static func directory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        guard let path = environment["TMPDIR"], !path.isEmpty else { return URL(fileURLWithPath: "/tmp", isDirectory: true) }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { throw DirectoryProblem.missing(path: path) }
        guard isDirectory.boolValue else { throw DirectoryProblem.notAFolder(path: path) }
        return URL(fileURLWithPath: path, isDirectory: true)
    }

    /// Why ``directory(environment:)`` has no folder to offer.
    public enum DirectoryProblem: Error, Equatable, CustomStringConvertible, LocalizedError {
        /// `$TMPDIR` names a path where nothing is.
        case missing(path: String)
        /// `$TMPDIR` names a file or something else that is not a folder.
        case notAFolder(path: String)

        public var description: String {
            switch self {
            case let .missing(path):
                return "TMPDIR is \(path), which does not exist: set TMPDIR to an existing folder for temporary files, or unset it (/tmp)"
            case let .notAFolder(path):
                return "TMPDIR is \(path), which is not a folder: set TMPDIR to an existing folder for temporary files, or unset it (/tmp)"
            }
        }

        public var errorDescription: String? { description }
    }

    /// Records `url` as a temporary that is being built and creates it with `make`, both under the lock
    /// the cleaning thread takes: a signal's cleaning sees the temporary if `make` created it, and a
    /// writer that reaches this after the cleaning began waits for the end instead of creating a file
    /// nobody will remove. (Registering, then creating outside the lock, left `*.tmp-*` behind when the
    /// cleaning fell between the two.) A `make` that throws leaves nothing registered.
    ///
    ///     let descriptor = try TemporaryFiles.create(temporary) { open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
    ///     defer { TemporaryFiles.unregister(temporary) }
    public static func create<Result>(_ url: URL, by make: () throws -> Result) rethrows -> Result {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        registry.paths.insert(url.path)
        do {
            return try make()
        } catch {
            registry.paths.remove(url.path)
            throw error
        }
    }

    /// Records `url` as a temporary that someone else creates later (SQLite's journal beside a new
    /// database). What this process creates itself goes through ``create(_:by:)``.
    public static func register(_ url: URL) {
        registry.lock.lock()
        registry.paths.insert(url.path)
        registry.lock.unlock()
    }

    /// Forgets `url` (it was renamed into place or removed).
    public static func unregister(_ url: URL) {
        registry.lock.lock()
        registry.paths.remove(url.path)
        registry.lock.unlock()
    }

    /// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove the registered temporaries and
    /// then end the process by the same signal (so its exit status still says which). Idempotent.
    ///
    /// The handler itself only writes the signal's number to a pipe (all a handler may safely do);
    /// a thread reading the pipe does the cleaning. `sigaction` replaces the default action in one
    /// step, so no signal is lost or ignored while the handlers are being installed.
    public static func removeOnTermination() {
        registry.lock.lock()
        defer { registry.lock.unlock() }
        guard !registry.installed else { return }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        signalPipe = ends[1]
        let readEnd = ends[0]
        let cleaner = Thread {
            var number: Int32 = 0
            while true {
                while read(readEnd, &number, MemoryLayout<Int32>.size) != MemoryLayout<Int32>.size {
                    if errno != EINTR { return }
                }
                // A stoppable job takes the first interrupt as a request to stop (Interruption).
                if !Interruption.absorbs(number) { break }
            }
            terminate(by: number)
        }
        cleaner.start()
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = forwardSignal
            #else
            action.__sigaction_handler.sa_handler = forwardSignal
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            sigaction(signalNumber, &action, nil)
        }
        // A parent may have started us with these blocked (Foundation's Process inherits its
        // thread's mask): a tool that must stop on request unblocks them.
        var termination = sigset_t()
        sigemptyset(&termination)
        for signalNumber in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&termination, signalNumber) }
        pthread_sigmask(SIG_UNBLOCK, &termination, nil)
        registry.installed = true
    }

    /// Removes the temporaries and ends the process. The lock is never released: a writer that
    /// tries to register a new temporary meanwhile waits until the process is gone.
    private static func terminate(by signalNumber: Int32) -> Never {
        registry.lock.lock()
        for path in registry.paths {
            // A writer may still be adding files to a folder being removed: retry a few times.
            for _ in 0..<5 where ExistingPath(URL(fileURLWithPath: path)) != .nothing {
                try? FileManager.default.removeItem(atPath: path)
            }
        }
        signal(signalNumber, SIG_DFL)
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigaddset(&unblocked, signalNumber)
        pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
        kill(getpid(), signalNumber)
        _exit(128 + signalNumber)
    }
}

/// The write end of the pipe the signal handler writes to (set once, before the handlers are installed).
nonisolated(unsafe) private var signalPipe: Int32 = -1

/// The signal handler: async-signal-safe, it only writes the signal's number to the pipe.
private func forwardSignal(_ number: Int32) {
    var number = number
    _ = write(signalPipe, &number, MemoryLayout<Int32>.size)
}
