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
