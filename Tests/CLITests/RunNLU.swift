#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

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

/// Runs the built `nlu` with `arguments`, feeding `input` on standard input.
func runNLU(_ arguments: [String], input: String? = nil, environment: [String: String]? = nil) throws -> NLURun {
    let process = Process()
    process.executableURL = productsDirectory.appendingPathComponent("nlu")
    process.arguments = arguments
    if let environment {
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let stdoutPipe = Pipe(), stderrPipe = Pipe(), stdinPipe = Pipe()
    process.standardOutput = stdoutPipe
    process.standardError = stderrPipe
    process.standardInput = stdinPipe
    try process.run()
    if let input { stdinPipe.fileHandleForWriting.write(Data(input.utf8)) }
    try stdinPipe.fileHandleForWriting.close()
    // Read both pipes before waiting, so a large output cannot block the child.
    let outData = stdoutPipe.fileHandleForReading.readDataToEndOfFile()
    let errData = stderrPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return NLURun(status: process.terminationStatus,
                  stdout: String(decoding: outData, as: UTF8.self),
                  stderr: String(decoding: errData, as: UTF8.self))
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
    // Standard input from a file: a pipe would break (SIGPIPE in this test process) when `nlu` stops reading early.
    let inputFile = FileManager.default.temporaryDirectory.appendingPathComponent("nlu-input-\(UUID().uuidString)")
    try input.write(to: inputFile)
    defer { try? FileManager.default.removeItem(at: inputFile) }
    let stderrPipe = Pipe()
    process.standardOutput = FileHandle.nullDevice
    process.standardError = stderrPipe
    process.standardInput = try FileHandle(forReadingFrom: inputFile)
    try process.run()
    let deadline = DispatchTime.now() + timeout
    let timedOut = LockedFlag()
    DispatchQueue.global().asyncAfter(deadline: deadline) {
        if process.isRunning { timedOut.set(); kill(process.processIdentifier, SIGKILL) }
    }
    let errData = stderrPipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return BoundedRun(status: process.terminationStatus, signaled: process.terminationReason == .uncaughtSignal,
                      timedOut: timedOut.value, stderr: String(decoding: errData, as: UTF8.self))
}

/// A flag set from another thread.
final class LockedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var isSet = false
    func set() { lock.lock(); isSet = true; lock.unlock() }
    var value: Bool { lock.lock(); defer { lock.unlock() }; return isSet }
}
