import Foundation
@testable import NLUCore

/// The repository's `Tests/Fixtures` folder.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

/// A fresh empty directory under the system's temporary directory, for files a test writes.
func makeTemporaryDirectory(_ name: String = #function) throws -> URL {
    let safeName = name.filter { $0.isLetter || $0.isNumber }
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("nlukit-tests-\(safeName)-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// `count` seeded uniform random floats in `range`.
func randomScalars(_ count: Int, in range: ClosedRange<Float> = -1...1, using generator: inout SplitMix64) -> [Float] {
    (0..<count).map { _ in Float.random(in: range, using: &generator) }
}

/// A random tensor of `shape` with seeded uniform values in `range`.
func randomTensor(_ shape: [Int], in range: ClosedRange<Float> = -1...1, using generator: inout SplitMix64) -> Tensor<Float> {
    Tensor(shape: shape, scalars: randomScalars(shape.reduce(1, *), in: range, using: &generator))
}

/// The largest absolute element-wise difference between two equally long sequences.
func maxAbsoluteDifference(_ a: [Float], _ b: [Float]) -> Float {
    precondition(a.count == b.count, "compared sequences differ in length: \(a.count) vs \(b.count)")
    return zip(a, b).reduce(0) { max($0, abs($1.0 - $1.1)) }
}
