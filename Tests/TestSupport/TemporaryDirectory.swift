import Foundation

/// A fresh empty directory under the system's temporary directory, for files a test writes.
public func makeTemporaryDirectory(_ name: String = #function) throws -> URL {
    let safeName = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("nlukit-tests-\(safeName)-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
