import Foundation

/// A fresh folder under the system's temporary directory for one test, named `PREFIX-UUID` so that a
/// leftover says which suite made it; the test removes it.
func makeWorkDirectory(_ prefix: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
