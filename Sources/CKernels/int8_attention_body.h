// One CPU level of INT8 attention's two operands that are not fixed weights, included once per
// level through per_level.h: the values V_h packed per column (the "weight" of P · V_h) and the
// softmax of the scores quantized straight into the rows of P. The keys are packed per row by
// nlukit_int8_pack and the queries quantized by nlukit_int8_quantize_rows, as a dense layer's.

#include "activation_functions.h"
#include "int8_activation_form.h"
#include "int8_quantize_value.h"
#include "row_reductions.h"

// B[kk, j] = b[kk·ldb + j] quantized per column j and packed as nlukit_int8_pack packs column j of
// an nn.Linear weight: a panel of 32 columns at a time, its column maxima first (a vectorized pass
// over the rows), then each K group of 4 rows as 32 words of 4 bytes (byte t from row 4g + t).
NLU_TARGET static void NLU_NAME(int8_pack_columns)(const float *b, long ldb, long k, long n, float limit,
                                                   int8_t *packed, float *scales, int32_t *column_sums) {
    enum { W = NLUKIT_PANEL_WIDTH, G = NLUKIT_INT8_K_GROUP };
    const long groups = nlukit_int8_padded_inner(k) / G;
    const long panels = (n + W - 1) / W;
    for (long p = 0; p < panels; p++) {
        const long first = p * W, width = n - first < W ? n - first : W;
        float largest[W], inverse[W];
        int32_t sums[W];
        for (int lane = 0; lane < W; lane++) { largest[lane] = 0; sums[lane] = 0; }
        for (long kk = 0; kk < k; kk++) {
            const float *row = b + kk * ldb + first;
            for (long lane = 0; lane < width; lane++) {
                const float magnitude = row[lane] < 0 ? -row[lane] : row[lane];
                largest[lane] = magnitude > largest[lane] ? magnitude : largest[lane];  // a NaN is never larger
            }
        }
        // The rule of nlukit_int8_row_scale.
        for (int lane = 0; lane < W; lane++) {
            scales[first + lane] = largest[lane] / limit;
            inverse[lane] = largest[lane] > 0 ? limit / largest[lane] : 0.0f;
        }
        int8_t *panel = packed + p * groups * W * G;
        for (long g = 0; g < groups; g++) {
            uint32_t words[W];
            for (int lane = 0; lane < W; lane++) words[lane] = 0;
            for (long t = 0; t < G && g * G + t < k; t++) {
                const float *row = b + (g * G + t) * ldb + first;
                for (long lane = 0; lane < width; lane++) {
                    const int q = NLU_NAME(int8_quantize_value)(row[lane] * inverse[lane], limit);
                    words[lane] |= (uint32_t)(uint8_t)q << (8 * t);
                    sums[lane] += q;
                }
            }
            memcpy(panel + g * W * G, words, sizeof words);
        }
        for (int lane = 0; lane < W; lane++) column_sums[first + lane] = sums[lane];
    }
}

// Softmax of each row, quantized: with m the row's maximum, e_i = exp(x_i - m) lies in [0, 1] and is
// 1 at the maximum, so the row's INT8 scale needs no pass of its own: q_i = round(e_i · L) and
// scale = 1 / (L · Σ e_i), where L is the form's probability limit: 255 for NLUKIT_INT8_UNSIGNED
// (probabilities are never negative, so the bytes need no offset: the GEMM takes zero column sums for
// them), 127 for signed rows and for 7-bit ones (whose pairs of int16 sums hold 127 · 63); the exp is the coarse one (exp_nonpositive_coarse1), which the 8-bit grid cannot tell from
// the exact one. A row whose keys are all masked gets q = 0 and scale 0, as the F32 softmax's zero row.
NLU_TARGET static void NLU_NAME(int8_softmax_rows)(float *scores, long rows, long length, const float *mask,
                                                   int8_t *q, long ldq, float *scales, int activation_form) {
    const float limit = nlukit_int8_form_probability_limit(activation_form);
    for (long r = 0; r < rows; r++) {
        float *restrict x = scores + r * length;
        uint8_t *restrict out = (uint8_t *)(q + r * ldq);
        if (mask) for (long i = 0; i < length; i++) x[i] += mask[i];
        const float maximum = NLU_NAME(row_max)(x, length);
        if (maximum == -__builtin_inff()) {
            memset(out, 0, (size_t)ldq);
            scales[r] = 0;
            continue;
        }
        // The bytes in a pass of their own, 32 at a time: one loop doing the exponentials, their sum and
        // the bytes spilled its partial sums and narrowed 8 lanes at a time (half again slower).
        const float sum = NLU_NAME(exp_shifted_in_place)(x, length, maximum, 1);
        // e ≤ 1 + 7.5e-5, so e · L rounds to at most L.
        NLU_NAME(int8_quantize_span)(x, length, limit, limit, 0, out);
        for (long i = length; i < ldq; i++) out[i] = 0;
        scales[r] = 1.0f / (sum * limit);
    }
}
