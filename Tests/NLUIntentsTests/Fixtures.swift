import Foundation
import NLUTestSupport
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

/// Runs `run(count)` and `run(10 * count)` and expects the growth of linear work in CPU time (about 10;
/// quadratic work gives about 100): see ``linearWorkGrowth(count:runs:_:)``.
func expectLinearTime(_ name: String, count: Int, _ run: (Int) throws -> Void) rethrows {
    let growth = try linearWorkGrowth(count: count, run)
    #expect(growth.ratio < linearWorkBound, "\(name): \(growth)")
}
