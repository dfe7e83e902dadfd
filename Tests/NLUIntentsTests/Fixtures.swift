import Foundation

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
