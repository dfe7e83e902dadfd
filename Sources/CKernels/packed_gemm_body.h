// One CPU level of the packed small-M SGEMM; included once per level through per_level.h.

// Rows per register block: two 16-float accumulators per row must fit the level's vector registers
// (32 zmm for AVX-512, 16 ymm for AVX2, 16 xmm for the baseline).
#if NLU_LEVEL == 2
#define NLU_ROWS 8
#elif NLU_LEVEL == 1
#define NLU_ROWS 3
#else
#define NLU_ROWS 2
#endif

#include "activation_functions.h"

// Rows [row, row + rows) of c for one panel: rows accumulators of two 16-float vectors per row.
#define NLU_BLOCK(ROWS)                                                                          \
    {                                                                                            \
        nlu_v16 acc[ROWS][2];                                                                    \
        for (int r = 0; r < ROWS; r++) { acc[r][0] = (nlu_v16){0}; acc[r][1] = (nlu_v16){0}; }  \
        const float *ar = a + row * lda;                                                         \
        for (long kk = 0; kk < k; kk++) {                                                        \
            const nlu_v16 b0 = *(const nlu_v16 *)(panel + kk * NLUKIT_PANEL_WIDTH);              \
            const nlu_v16 b1 = *(const nlu_v16 *)(panel + kk * NLUKIT_PANEL_WIDTH + 16);         \
            for (int r = 0; r < ROWS; r++) {                                                     \
                const float s = ar[r * lda + kk];                                                \
                acc[r][0] += s * b0;                                                             \
                acc[r][1] += s * b1;                                                             \
            }                                                                                    \
        }                                                                                        \
        for (int r = 0; r < ROWS; r++)                                                           \
            store_row(c + (row + r) * ldc + column, acc[r], width, accumulate, panel_bias, activation); \
    }

// Applies `activation` to the 32 floats of `values` (fixed trip count: fully vectorized).
#define NLU_APPLY(values, function)                                                               \
    for (int j_ = 0; j_ < NLUKIT_PANEL_WIDTH; j_++) (values)[j_] = NLU_NAME(function)((values)[j_])

// The fused epilogue of one row segment: act((accumulate ? c : 0) + sums + bias) over a 32-float
// buffer. Out of line: inlined into every register block it would bloat the plain path's code.
__attribute__((noinline)) NLU_TARGET static void NLU_NAME(store_epilogue)(float *c, const nlu_v16 *acc, long width,
                                                                          int accumulate, const float *bias,
                                                                          int activation) {
    float values[NLUKIT_PANEL_WIDTH];
    memcpy(values, acc, sizeof values);
    if (width == NLUKIT_PANEL_WIDTH) {
        if (accumulate) for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) values[j] = c[j] + values[j];
        if (bias) for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) values[j] = values[j] + bias[j];
    } else {  // a partial panel: c and bias end at `width`; the padding columns are computed, not stored
        if (accumulate) for (long j = 0; j < width; j++) values[j] = c[j] + values[j];
        if (bias) for (long j = 0; j < width; j++) values[j] = values[j] + bias[j];
    }
    switch (activation) {
    case NLUKIT_ACTIVATION_GELU: NLU_APPLY(values, gelu1); break;
    case NLUKIT_ACTIVATION_GELU_TANH: NLU_APPLY(values, gelu_tanh1); break;
    case NLUKIT_ACTIVATION_RELU: NLU_APPLY(values, relu1); break;
    default: break;
    }
    memcpy(c, values, sizeof(float) * width);
}

// Writes one row segment of a panel (`width` ≤ 32 columns) while its sums are still in registers:
// the plain store inline (the common case, as before the epilogue existed), else the epilogue.
__attribute__((always_inline)) NLU_TARGET static inline void NLU_NAME(store_row)(float *c, const nlu_v16 *acc, long width,
                                                                                 int accumulate, const float *bias,
                                                                                 int activation) {
    if (width == NLUKIT_PANEL_WIDTH && !bias && activation == NLUKIT_ACTIVATION_NONE) {
        nlu_v16u *out = (nlu_v16u *)c;
        if (accumulate) { out[0] += acc[0]; out[1] += acc[1]; }
        else { out[0] = acc[0]; out[1] = acc[1]; }
        return;
    }
    NLU_NAME(store_epilogue)(c, acc, width, accumulate, bias, activation);
}
#undef NLU_APPLY

NLU_TARGET static void NLU_NAME(packed_gemm)(const float *a, long lda, long m, long k, const float *packed, long n,
                                             long first_panel, long end_panel, float *c, long ldc, int accumulate,
                                             const float *bias, int activation) {
#define store_row NLU_NAME(store_row)
    for (long p = first_panel; p < end_panel; p++) {
        const float *panel = packed + p * k * NLUKIT_PANEL_WIDTH;
        const long column = p * NLUKIT_PANEL_WIDTH;
        const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
        const float *panel_bias = bias ? bias + column : NULL;
        long row = 0;
        for (; row + NLU_ROWS <= m; row += NLU_ROWS) NLU_BLOCK(NLU_ROWS)
        for (; row < m; row++) NLU_BLOCK(1)
    }
#undef store_row
}
#undef NLU_BLOCK
#undef NLU_ROWS
