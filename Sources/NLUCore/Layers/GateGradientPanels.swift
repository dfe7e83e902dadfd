import CKernels

/// One side's gate gradients of a recurrent layer (`[T·B, width]`, pre-activation), gathered step
/// by step during the backward loop for the parameter gradients after it: packed as the B of the
/// weight-gradient product
/// (``RecurrentMath/accumulateWeightGradient(_:input:inner:into:transposedInput:)``), summed by
/// column (the bias gradient) and, on the input side of a bottom layer that reads token ids, summed
/// per token (the folded embedding's gradient: ``RecurrentDriver/LayerForward/tokens``).
///
/// Each step's rows are gathered right after the cell's backward pass wrote them, while they are
/// in cache: passes over the whole 13 MB buffer afterwards (OpenBLAS's packing, the column and
/// token sums) were 6 % of a character LSTM's training step.
final class GateGradientPanels {
    let packed: PackedMatrix
    let width: Int
    let batch: Int
    /// `width` floats: Σ over the gathered rows.
    let columnSums: UnsafeMutablePointer<Float>
    /// `[vocabulary, width]` sums per token id, or nil without tokens.
    let tokenSums: UnsafeMutablePointer<Float>?
    private let tokens: UnsafePointer<Int32>?

    /// Panels for `layer`'s steps, with per-token sums when `summingTokens` and the layer reads
    /// token ids; nil where the per-step products are plain BLAS calls (one row, or
    /// `NLUKIT_RECURRENT_GEMM=blas`), which keep the whole-buffer BLAS weight gradients.
    init?(_ layer: RecurrentDriver.LayerForward, width: Int, summingTokens: Bool) {
        guard Self.areUsed(batch: layer.batch) else { return nil }
        packed = PackedMatrix(inner: layer.steps * layer.batch, width: width)
        self.width = width
        batch = layer.batch
        columnSums = .allocate(capacity: max(1, width))
        columnSums.initialize(repeating: 0, count: width)
        if summingTokens, let tokens = layer.tokens {
            self.tokens = tokens
            let sums = UnsafeMutablePointer<Float>.allocate(capacity: max(1, layer.vocabulary * width))
            sums.initialize(repeating: 0, count: layer.vocabulary * width)
            tokenSums = sums
        } else {
            tokens = nil
            tokenSums = nil
        }
    }

    /// Whether layers over batches of `batch` sequences gather their gate gradients in panels.
    static func areUsed(batch: Int) -> Bool { batch > 1 && RecurrentMath.usePackedWeights }

    deinit {
        columnSums.deallocate()
        tokenSums?.deallocate()
    }

    /// Gathers step `step`'s rows (`[B, width]` at `gradients`). Every step must be gathered, once,
    /// before the panels are read.
    func gather(step: Int, from gradients: UnsafePointer<Float>) {
        precondition(step >= 0 && (step + 1) * batch <= packed.inner, "GateGradientPanels: step \(step) of \(packed.inner / batch)")
        nlukit_gate_gradient_rows(gradients, batch, width, packed.storage, packed.inner, step * batch, columnSums,
                                  tokens.map { $0 + step * batch }, tokenSums)
    }
}
