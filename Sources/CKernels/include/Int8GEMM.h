// INT8 inference for dense layers with fixed weights: the weight is quantized once per output
// channel (symmetric, [-127, 127], or [-63, 63] where the CPU has no int8 dot product: see
// nlukit_int8_weight_limit), each input row is quantized dynamically (symmetric, one scale
// per row, to 8 bits or, with 7-bit weights on AVX2, to 7: see nlukit_int8_activation_form),
// and the products accumulate exactly in int32 before one float scale per element and
// the same fused bias / residual / activation epilogue as the F32 packed GEMM.
// Called through NLUCore's `QuantizedMatrix`; not a public API of its own.
#ifndef NLUKIT_INT8_GEMM_H
#define NLUKIT_INT8_GEMM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// K is stored in groups of this many bytes per column (what one 32-bit lane of vpdpbusd sums).
#define NLUKIT_INT8_K_GROUP 4

/// k rounded up to a whole number of K groups: the row length of quantized activations.
long nlukit_int8_padded_inner(long k);

/// Bytes a packed INT8 copy of a k × n matrix needs (k rounded up to groups, n to panels of
/// NLUKIT_PANEL_WIDTH columns).
long nlukit_int8_packed_size(long k, long n);

/// Quantizes the nn.Linear weight `w` ([n, k], row j at w + j·ldw) per output channel j, with
/// L = weight_limit (127, or 63 for 7-bit weights; any other value means 127):
/// scales[j] = max|w_j| / L and q = round-half-even(w · L / max|w_j|) in [-L, L] (a zero
/// row: scale 0, q 0). Packs q into panels of NLUKIT_PANEL_WIDTH columns, each stored by K group
/// (column j's 4 consecutive k values side by side), zero-padded; column_sums[j] = Σ_k q[j, k].
/// `scales` and `column_sums` have n rounded up to whole panels entries (padding 0).
void nlukit_int8_pack(const float *w, long ldw, long k, long n, int weight_limit, int8_t *packed, float *scales,
                      int32_t *column_sums);

/// B[kk, j] = b[kk·ldb + j] (k × n) quantized per column j and packed exactly as nlukit_int8_pack packs
/// the n × k matrix Bᵀ (same bytes, scales and column sums): for x · B where B is computed at run time
/// and stored k-major, as attention's values V_h (the product P · V_h).
void nlukit_int8_pack_columns(const float *b, long ldb, long k, long n, int weight_limit, int8_t *packed,
                              float *scales, int32_t *column_sums);
/// The softmax of each of `rows` rows of `length` scores (row r at scores + r·length, used as
/// scratch), after adding `mask` (`length` additive values, or NULL) to each, quantized for the
/// INT8 GEMM in the given activation form: row r's probabilities ≈ q[r, i] · scales[r] with no
/// offset (they are never negative: the GEMM then takes zero column sums), q in [0, 255] for
/// NLUKIT_INT8_UNSIGNED, else in [0, 127] (whose products with 7-bit weights still pair up in
/// int16 for NLUKIT_INT8_UNSIGNED_7BIT); columns length..<ldq get 0 (ldq ≥ padded length). A
/// row whose scores are all -infinity gets q = 0 and scale 0.
void nlukit_int8_softmax_rows(float *scores, long rows, long length, const float *mask, int8_t *q, long ldq,
                              float *scales, int activation_form);
/// The weight limit the fastest INT8 block of the current CPU level wants: 63 where it has no int8
/// dot product (AVX2 without AVX-VNNI, and AVX-512 without VNNI or AVX-VNNI: vpmaddubsw's int16
/// pair sums stay exact for unsigned activations only with 7-bit weights), else 127.
int nlukit_int8_weight_limit(void);

/// 1 when the current CPU level has an INT8 block faster than its F32 GEMM: AVX-512 VNNI, AVX-VNNI,
/// AVX2 (vpmaddubsw), or arm64's dot product (SDOT); 0 elsewhere: x86-64's baseline (its SSE2 pmaddwd
/// block runs at about the level's F32 rate) and arm64 cores without SDOT (a NEON widening block,
/// speed unmeasured).
int nlukit_int8_has_fast_path(void);

/// How quantized activation rows are stored for the INT8 GEMM (its `activation_form`):
/// - NLUKIT_INT8_SIGNED: q = round(x · 127 / max|x|) in [-127, 127] as signed bytes (AVX2 and
///   arm64 blocks with 8-bit weights);
/// - NLUKIT_INT8_UNSIGNED: the same q stored as q + 128 in [1, 255], for u8 × s8 products (AVX-512
///   VNNI, AVX-VNNI); the GEMM takes the 128 back out through the weights' column sums;
/// - NLUKIT_INT8_UNSIGNED_7BIT: q = round(x · 63 / max|x|) in [-63, 63] stored as q + 64 in [1, 127]
///   (AVX2 with 7-bit weights: a u8 × s8 pair then sums to at most 2 · 127 · 63, so two groups'
///   pair sums share one int16 and one vpmaddwd; half the activations' resolution for about a
///   tenth more speed, docs/int8.md).
/// Every form is exact at every level for either weight limit: a block that cannot hold a form's
/// sums is never given it.
#define NLUKIT_INT8_SIGNED 0
#define NLUKIT_INT8_UNSIGNED 1
#define NLUKIT_INT8_UNSIGNED_7BIT 2

/// The activation form the fastest INT8 block of the current CPU level reads for weights packed at
/// `weight_limit`: NLUKIT_INT8_UNSIGNED with AVX-512 VNNI or AVX-VNNI, NLUKIT_INT8_UNSIGNED_7BIT on
/// AVX2 without them for 7-bit weights, else NLUKIT_INT8_SIGNED.
int nlukit_int8_activation_form(int weight_limit);

/// The largest |q| of activations quantized in `activation_form` (63 for NLUKIT_INT8_UNSIGNED_7BIT, else
/// 127); -1 for an unknown form.
int nlukit_int8_activation_limit(int activation_form);

/// Quantizes m rows of k floats (row i at x + i·ldx) one scale per row, in `activation_form` with L its
/// limit: scales[i] = max|x_i| / L, q = round-half-even(x · L / max|x_i|) clamped to [-L, L], stored at
/// q + i·ldq with the form's offset (0, 128 or 64); columns k..<ldq hold q = 0 (ldq ≥ padded k).
void nlukit_int8_quantize_rows(const float *x, long ldx, long m, long k, int8_t *q, long ldq, float *scales,
                               int activation_form);

/// For i < m and the columns j of panels [first_panel, end_panel):
/// c[i, j] = act((accumulate ? c[i, j] : 0) + S[i, j] · a_scales[i] · w_scales[j] + (bias ? bias[j] : 0))
/// with the exact integer sums S[i, j] = Σ_k qa[i, k] · qw[j, k] (qa from nlukit_int8_quantize_rows
/// in `activation_form`, row i at a + i·lda; qw packed by nlukit_int8_pack with
/// `weight_limit`, which picks the blocks that stay exact for it).
/// When `sums` is not NULL it receives S itself (row i at sums + i·ldc) and c, the scales, bias
/// and activation are not used: the exact results every CPU level must agree on.
void nlukit_int8_gemm(const int8_t *a, long lda, const float *a_scales, int activation_form, long m, long k,
                      const int8_t *packed, int weight_limit, const float *w_scales, const int32_t *column_sums, long n,
                      long first_panel, long end_panel, float *c, long ldc, int accumulate, const float *bias,
                      int activation, int32_t *sums);

#ifdef __cplusplus
}
#endif

#endif
