import Foundation
import NLUCore
import Testing
@testable import NLUTransformers

/// ``TrainableEncoder/skipsTrailingPadding`` against the full pass, which `EncoderGradientTests`
/// checks against PyTorch autograd: on the same committed tiny checkpoints and batches (three
/// sequences of different lengths, right-padded), a loss that ignores the padding must get the same
/// real-position outputs and the same gradient for every parameter with the padding skipped.
@Suite struct TrainableEncoderPaddingTests {
    /// The fixture's output gradient with the rows after each sequence's last attended token zeroed:
    /// a loss that reads real positions only.
    static func realPositionGradient(_ fixture: EncoderGradientFixture, batch: EncoderBatch, hiddenSize h: Int) -> Tensor<Float> {
        var gradient = fixture.outputGradient(hiddenSize: h)
        let lengths = batch.attendedLengths
        gradient.withUnsafeMutableBufferPointer { values in
            for sequence in 0..<batch.batchSize {
                for position in lengths[sequence]..<batch.sequenceLength {
                    let row = sequence * batch.sequenceLength + position
                    for column in 0..<h { values[row * h + column] = 0 }
                }
            }
        }
        return gradient
    }

    /// The outputs and every parameter's gradient of one forward and backward pass.
    static func pass(_ fixture: EncoderGradientFixture, skipping: Bool) throws
        -> (states: Tensor<Float>, gradients: [Tensor<Float>], computedRows: Int) {
        let encoder = try fixture.encoder()
        encoder.skipsTrailingPadding = skipping
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let states = try encoder.forward(batch, workspace: workspace)
        encoder.zeroGradients()
        try encoder.backward(realPositionGradient(fixture, batch: batch, hiddenSize: encoder.configuration.hiddenSize),
                             workspace: workspace)
        return (states, encoder.parameters.gradients, workspace.rows)
    }

    @Test(arguments: EncoderGradientTests.families)
    func skippingThePaddingChangesNoRealOutputAndNoGradient(family: String) throws {
        let fixture = try EncoderGradientFixture.load(family)
        let batch = try fixture.batch()
        let full = try Self.pass(fixture, skipping: false)
        let skipped = try Self.pass(fixture, skipping: true)
        let lengths = batch.attendedLengths
        // The fixture's batch has padding, and the skipping pass computed only the attended rows.
        #expect(lengths.contains { $0 < batch.sequenceLength }, "\(family): the fixture batch has no padding to skip")
        #expect(full.computedRows == batch.batchSize * batch.sequenceLength)
        #expect(skipped.computedRows == lengths.reduce(0, +), "\(family): \(skipped.computedRows) rows computed")

        // Real positions: the same values up to F32 rounding (the products run over fewer rows, with
        // other blockings: 1e-5 relative, absolute below 1, as against autograd); skipped positions: zero.
        let h = full.states.shape[2]
        for sequence in 0..<batch.batchSize {
            for position in 0..<batch.sequenceLength {
                let start = (sequence * batch.sequenceLength + position) * h
                let a = full.states.scalars[start..<(start + h)], b = skipped.states.scalars[start..<(start + h)]
                if position < lengths[sequence] {
                    let worst = zip(a, b).map { abs($0 - $1) / max(1, abs($0)) }.max() ?? 0
                    #expect(worst <= 1e-5, "\(family): sequence \(sequence) position \(position) off by \(worst)")
                } else {
                    #expect(b.allSatisfy { $0 == 0 }, "\(family): skipped position \(position) of sequence \(sequence) is not zero")
                }
            }
        }
        // Every parameter's gradient within 1e-5 of its norm (F32 sums over fewer rows, in another order),
        // plus 2e-6 absolute for the key biases, whose gradient is zero in exact arithmetic (softmax
        // ignores a shift shared by a query's scores): what is left is each pass's F32 rounding, ~5e-7
        // with OpenBLAS's Haswell kernels and up to ~1.1e-6 apart with its SkylakeX ones (AVX-512 CPUs).
        let encoder = try fixture.encoder()
        for (index, name) in encoder.parameters.names.enumerated() {
            let a = full.gradients[index].scalars, b = skipped.gradients[index].scalars
            var difference: Double = 0, norm: Double = 0
            for (x, y) in zip(a, b) {
                difference += Double(x - y) * Double(x - y)
                norm += Double(x) * Double(x)
            }
            #expect(difference.squareRoot() <= 1e-5 * norm.squareRoot() + 2e-6,
                    "\(family): \(name) gradient off by \(difference.squareRoot()), its norm \(norm.squareRoot())")
        }
    }

    @Test func aWorkspaceServesBothLayoutsInTurn() throws {
        let fixture = try EncoderGradientFixture.load("bert")
        let encoder = try fixture.encoder()
        let batch = try fixture.batch()
        let workspace = try encoder.makeWorkspace(batchSize: batch.batchSize, sequenceLength: batch.sequenceLength)
        let first = try encoder.forward(batch, workspace: workspace)
        encoder.skipsTrailingPadding = true
        _ = try encoder.forward(batch, workspace: workspace)
        #expect(workspace.rows < batch.batchSize * batch.sequenceLength)
        encoder.skipsTrailingPadding = false
        let again = try encoder.forward(batch, workspace: workspace)
        #expect(workspace.rows == batch.batchSize * batch.sequenceLength)
        #expect(again.scalars == first.scalars)
    }
}
