// A small-M SGEMM over a B packed once, with an optional bias + activation epilogue: an RNN
// multiplies a batch of hidden states by the same weight at every time step, a BERT layer its
// tokens by the same linear weights for every input, and OpenBLAS re-packs the weight on every
// call. Packing it once (per sequence, or at load) removes that cost.
// Called through NLUCore's `PackedMatrix`; not a public API of its own.
#ifndef NLUKIT_PACKED_GEMM_H
#define NLUKIT_PACKED_GEMM_H

#ifdef __cplusplus
extern "C" {
#endif

/// Columns per packed panel.
#define NLUKIT_PANEL_WIDTH 32

/// Floats a packed copy of a k × n matrix needs (n rounded up to whole panels).
long nlukit_packed_size(long k, long n);

/// Packs the k × n matrix B into panels of NLUKIT_PANEL_WIDTH columns, each stored k-major and
/// zero-padded: B[kk, j] is b[kk * ldb + j], or b[j * ldb + kk] when `transposed` is non-zero.
void nlukit_pack(const float *b, long ldb, int transposed, long k, long n, float *packed);

/// Packs `rows` rows of B (`b[r * ldb + j]`, r < rows, j < n) as rows [first_row, first_row + rows)
/// of a packed k × n matrix: one step's rows at a time, while they are still in cache (the gate
/// gradients of a recurrent layer, packed step by step for its weight gradients).
void nlukit_pack_rows(const float *b, long ldb, long k, long first_row, long rows, long n, float *packed);

/// The activation the GEMM's epilogue applies; the same element functions as nlukit_gelu,
/// nlukit_gelu_tanh and nlukit_relu.
enum {
    NLUKIT_ACTIVATION_NONE = 0,
    NLUKIT_ACTIVATION_GELU = 1,       // exact: 0.5·x·(1 + erf(x/√2))
    NLUKIT_ACTIVATION_GELU_TANH = 2,  // 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))
    NLUKIT_ACTIVATION_RELU = 3
};

/// c[i, j] = act((accumulate ? c[i, j] : 0) + Σ_kk a[i * lda + kk] · B[kk, j] + (bias ? bias[j] : 0))
/// for i < m and the columns j of panels [first_panel, end_panel) of the packed B (k × n); other
/// columns of c are not touched. `bias` has n floats or is NULL; `activation` is an
/// NLUKIT_ACTIVATION_ value, applied while each row segment is still in registers.
void nlukit_packed_gemm(const float *a, long lda, long m, long k, const float *packed, long n,
                        long first_panel, long end_panel, float *c, long ldc, int accumulate,
                        const float *bias, int activation);

#ifdef __cplusplus
}
#endif

#endif
