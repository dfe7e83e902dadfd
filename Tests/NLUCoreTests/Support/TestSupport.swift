import Foundation
@testable import NLUCore

/// The repository's `Tests/Fixtures` folder.
let fixturesDirectory = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures")

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
