import Foundation
import Testing

/// The repository's `Tests/Fixtures/intents` folder.
let intentFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent("intents")

func fixture(_ name: String) -> URL { intentFixtures.appendingPathComponent(name) }

/// A fresh temporary directory for one test.
func temporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-intents-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// A file `name` holding `text`, in a fresh temporary directory.
func writeTemporaryFile(_ text: String, name: String) throws -> URL {
    let url = try temporaryDirectory().appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

/// The seconds `body` takes on the wall clock.
func secondsTaken(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// Times `run(count)` (after a warm-up) and `run(10 * count)`, and expects the ratio of linear work
/// (about 10; quadratic work gives about 100).
func expectLinearTime(_ name: String, count: Int, _ run: (Int) throws -> Void) rethrows {
    try run(count)  // warm up
    let small = try secondsTaken { try run(count) }, large = try secondsTaken { try run(10 * count) }
    #expect(large / max(small, 1e-6) < 30, "\(name): \(count): \(small) s, \(10 * count): \(large) s")
}
