#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport

/// What one run of the `nlu` executable printed and returned.
struct NLURun {
    var status: Int32
    var stdout: String
    var stderr: String
}

/// The folder holding the built products (where `nlu` is), found from the test bundle.
var productsDirectory: URL {
    #if os(macOS)
    for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
        return bundle.bundleURL.deletingLastPathComponent()
    }
    return Bundle.main.bundleURL
    #else
    return Bundle.main.bundleURL
    #endif
}

/// The repository's `Tests/Fixtures` folder.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")

/// Runs the built `nlu` with `arguments`, feeding `input` on standard input; through `launcher` when
/// given (a program and its arguments, before `nlu`'s path: `setpriv --reuid 65534 ...` runs it as another user).
///
/// Standard input, output and error are temporary files, not pipes: with many child processes
/// ending (SIGCHLD), a blocking pipe write in Foundation's `FileHandle.write` can fail with EINTR,
/// which it turns into a `try!` crash of the whole test process; a pipe also breaks (SIGPIPE) when
/// `nlu` stops reading early.
func runNLU(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil, launcher: [String] = []) throws -> NLURun {
    let process = Process()
    let nlu = productsDirectory.appendingPathComponent("nlu")
    process.executableURL = launcher.first.map { URL(fileURLWithPath: $0) } ?? nlu
    process.arguments = launcher.isEmpty ? arguments : Array(launcher.dropFirst()) + [nlu.path] + arguments
    if let environment {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let files = try StandardFiles(input: Data((input ?? "").utf8))
    defer { files.remove() }
    process.standardInput = try FileHandle(forReadingFrom: files.input)
    process.standardOutput = try FileHandle(forWritingTo: files.output)
    process.standardError = try FileHandle(forWritingTo: files.error)
    try process.run()
    process.waitUntilExit()
    return NLURun(status: process.terminationStatus,
                  stdout: String(decoding: try Data(contentsOf: files.output), as: UTF8.self),
                  stderr: String(decoding: try Data(contentsOf: files.error), as: UTF8.self))
}

/// Temporary files for a child's standard input, output and error.
struct StandardFiles {
    let input: URL, output: URL, error: URL

    init(input data: Data) throws {
        let base = TestScratch.file("nlu-run")
        input = URL(fileURLWithPath: base.path + ".in")
        output = URL(fileURLWithPath: base.path + ".out")
        error = URL(fileURLWithPath: base.path + ".err")
        try data.write(to: input)
        try Data().write(to: output)
        try Data().write(to: error)
    }

    func remove() {
        for url in [input, output, error] { try? FileManager.default.removeItem(at: url) }
    }
}

/// How a bounded run of `nlu` ended: its exit status, or the signal that ended it, or the timeout.
struct BoundedRun {
    var status: Int32
    var signaled: Bool
    var timedOut: Bool
    var stderr: String
}

/// Runs the built `nlu` with `arguments` and `input` on standard input, killing it after `timeout`
/// seconds (a hang is a failure, not a stuck test run). Standard output is discarded.
func runNLU(_ arguments: [String], input: Data = Data(), timeout: TimeInterval) throws -> BoundedRun {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("nlu")
    process.arguments = arguments
    let files = try StandardFiles(input: input)
    defer { files.remove() }
    process.standardInput = try FileHandle(forReadingFrom: files.input)
    process.standardOutput = FileHandle.nullDevice
    process.standardError = try FileHandle(forWritingTo: files.error)
    try process.run()
    let deadline = DispatchTime.now() + timeout
    let timedOut = LockedFlag()
    DispatchQueue.global().asyncAfter(deadline: deadline) {
        if process.isRunning { timedOut.set(); kill(process.processIdentifier, SIGKILL) }
    }
    process.waitUntilExit()
    return BoundedRun(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                      timedOut: timedOut.value, stderr: String(decoding: try Data(contentsOf: files.error), as: UTF8.self))
}

/// A flag set from another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    func set() { lock.lock(); isSet = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return isSet }
}

/// Starts the built `nlu` with `arguments`, reads its standard error until it contains `marker` (or
/// ends), then kills it with SIGKILL: a crash at a chosen point, for the tests that what a killed
/// process leaves behind is the old state. Returns how it ended and the standard error read.
func runNLUKilled(_ arguments: [String], once marker: String) throws -> (reason: Process.TerminationReason, stderr: String) {
    let run = try runNLUSignalled(arguments, once: marker, with: SIGKILL)
    return (run.reason, run.stderr)
}

/// Starts the built `nlu` with `arguments`, reads its standard error until it contains `marker` (or ends), sends
/// it `signal`, and waits for its end (SIGKILL after 60 s): how it ended and all it wrote on standard error.
func runNLUSignalled(_ arguments: [String], once marker: String, with signal: Int32)
    throws -> (reason: Process.TerminationReason, status: Int32, stderr: String) {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("nlu")
    process.arguments = arguments
    let stderrPipe = Pipe()
    process.standardError = stderrPipe
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    var seen = ""
    while !seen.contains(marker) {
        let data = stderrPipe.fileHandleForReading.availableData
        guard !data.isEmpty else { break }
        seen += String(decoding: data, as: UTF8.self)
    }
    kill(process.processIdentifier, signal)
    let killer = DispatchWorkItem { kill(process.processIdentifier, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + 60, execute: killer)
    seen += String(decoding: stderrPipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    killer.cancel()
    return (process.terminationReason, process.terminationStatus, seen)
}

/// The commit `makeHubCache` files its one snapshot under (`refs/main` points to it).
let hubCacheCommit = "0123456789abcdef0123456789abcdef01234567"

/// A temporary Hugging Face cache (`HF_HUB_CACHE` layout) holding `id` ("org/name") at
/// ``hubCacheCommit``, its snapshot a link to `model`; remove the returned folder when done.
func makeHubCache(holding id: String, at model: String) throws -> URL {
    let cache = TestScratch.file("nlukit-hub")
    let repository = cache.appendingPathComponent("models--" + id.replacingOccurrences(of: "/", with: "--"))
    let commit = hubCacheCommit
    try FileManager.default.createDirectory(at: repository.appendingPathComponent("snapshots"), withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: repository.appendingPathComponent("refs"), withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(at: repository.appendingPathComponent("snapshots/\(commit)"),
                                               withDestinationURL: URL(fileURLWithPath: model))
    try Data((commit + "\n").utf8).write(to: repository.appendingPathComponent("refs/main"))
    return cache
}
