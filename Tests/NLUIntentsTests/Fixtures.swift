import Foundation
import NLUTestSupport
import Testing

/// The repository's `Tests/Fixtures/intents` folder.
let intentFixtures = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent("intents")

func fixture(_ name: String) -> URL { intentFixtures.appendingPathComponent(name) }

/// A file `name` holding `text`, in a fresh scratch folder (the importers read a file's name and extension).
func writeTemporaryFile(_ text: String, name: String) throws -> URL {
    let url = try TestScratch.folder("nlukit-intents").appendingPathComponent(name)
    try Data(text.utf8).write(to: url)
    return url
}

/// Runs `run(count)` and `run(10 * count)` and expects the growth of linear work in CPU time (about 10;
/// quadratic work gives about 100): see ``linearWorkGrowth(count:runs:_:)``.
func expectLinearTime(_ name: String, count: Int, _ run: (Int) throws -> Void) rethrows {
    let growth = try linearWorkGrowth(count: count, run)
    #expect(growth.ratio < linearWorkBound, "\(name): \(growth)")
}
