// A small-M SGEMM over a B packed once: the recurrent product of an RNN multiplies a batch of
// hidden states (m = batch rows) by the same weight at every time step, and OpenBLAS re-packs
// that weight on every call. Packing it once per sequence removes that cost.
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

/// c[m, j] = (accumulate ? c[m, j] : 0) + Σ_kk a[m * lda + kk] · B[kk, j] for the columns of
/// panels [first_panel, end_panel) of the packed B (k × n); other columns of c are not touched.
void nlukit_packed_gemm(const float *a, long lda, long m, long k, const float *packed, long n,
                        long first_panel, long end_panel, float *c, long ldc, int accumulate);

#ifdef __cplusplus
}
#endif

#endif
