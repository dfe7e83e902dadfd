// One CPU level of the packed small-M SGEMM; included once per level through per_level.h.

// Rows per register block of the generic block: two 16-float accumulators per row must fit the
// level's vector registers. AVX2 has its own block (below).
#if NLU_LEVEL == 2
#define NLU_ROWS 8  // 32 zmm: 16 accumulators, B's row in 2, broadcasts
#elif defined(__aarch64__)
#define NLU_ROWS 2  // NEON, 32 q registers: 16 accumulators + B's row in 8 (not measured: no arm64 machine here)
#else
#define NLU_ROWS 1  // x86-64 baseline, 16 xmm: 8 accumulators, B from memory operands. 2 rows spilled:
                    // 28 against 38 GFLOP/s on one Zen 4 core (mul + add, no FMA: the level's peak is ~60)
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

#include "gemm_epilogue.h"

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
    NLU_NAME(store_epilogue)(c, (const float *)acc, width, accumulate, bias, activation);
}

#if NLU_LEVEL == 1
// AVX2+FMA: 16 ymm registers. Three rows × 32 columns take 12 accumulators; the generic block
// also kept the panel's whole 32-float row in 4 registers (19 live, so it spilled, and ran at
// 42 % of the FMA peak). Here each 8-float quarter of the row is loaded into one register and used
// by the three rows' broadcasts before the next: 12 + 3 + 1 = 16, nothing spilled (7 loads per 12
// FMAs). K runs in blocks of NLU_AVX2_K_BLOCK so the panel's block (16 KB) stays in L1 (32-48 KB
// on Zen 3 / Intel client cores) for all the row blocks of A, whose K slice stays in L2.
enum { NLU_AVX2_K_BLOCK = 128 };

NLU_TARGET static inline void NLU_NAME(block3)(const float *a0, long lda, long k0, long k1, const float *panel,
                                               nlu_v16 acc[3][2]) {
    __m256 c00 = _mm256_setzero_ps(), c01 = c00, c02 = c00, c03 = c00, c10 = c00, c11 = c00, c12 = c00,
           c13 = c00, c20 = c00, c21 = c00, c22 = c00, c23 = c00;
    const float *a1 = a0 + lda, *a2 = a1 + lda;
    const float *bk = panel + k0 * NLUKIT_PANEL_WIDTH;
    for (long kk = k0; kk < k1; kk++, bk += NLUKIT_PANEL_WIDTH) {
        const __m256 x0 = _mm256_broadcast_ss(a0 + kk), x1 = _mm256_broadcast_ss(a1 + kk),
                     x2 = _mm256_broadcast_ss(a2 + kk);
        __m256 b = _mm256_load_ps(bk);
        c00 = _mm256_fmadd_ps(x0, b, c00); c10 = _mm256_fmadd_ps(x1, b, c10); c20 = _mm256_fmadd_ps(x2, b, c20);
        b = _mm256_load_ps(bk + 8);
        c01 = _mm256_fmadd_ps(x0, b, c01); c11 = _mm256_fmadd_ps(x1, b, c11); c21 = _mm256_fmadd_ps(x2, b, c21);
        b = _mm256_load_ps(bk + 16);
        c02 = _mm256_fmadd_ps(x0, b, c02); c12 = _mm256_fmadd_ps(x1, b, c12); c22 = _mm256_fmadd_ps(x2, b, c22);
        b = _mm256_load_ps(bk + 24);
        c03 = _mm256_fmadd_ps(x0, b, c03); c13 = _mm256_fmadd_ps(x1, b, c13); c23 = _mm256_fmadd_ps(x2, b, c23);
    }
#define NLU_JOIN(low, high) __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    acc[0][0] = NLU_JOIN(c00, c01); acc[0][1] = NLU_JOIN(c02, c03);
    acc[1][0] = NLU_JOIN(c10, c11); acc[1][1] = NLU_JOIN(c12, c13);
    acc[2][0] = NLU_JOIN(c20, c21); acc[2][1] = NLU_JOIN(c22, c23);
#undef NLU_JOIN
}
#endif

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
#if NLU_LEVEL == 1
        // Blocks of 3 rows, K block by K block: the earlier K blocks leave partial sums in c
        // (added to c's old values when accumulating), the last one adds bias and activation.
        const long full_rows = m - m % 3;
        for (long k0 = 0; full_rows > 0 && (k0 < k || k0 == 0); k0 += NLU_AVX2_K_BLOCK) {  // k = 0: one empty block
            const long k1 = k - k0 < NLU_AVX2_K_BLOCK ? k : k0 + NLU_AVX2_K_BLOCK;
            const int last = k1 == k, add = k0 > 0 || accumulate;
            for (row = 0; row < full_rows; row += 3) {
                nlu_v16 acc[3][2];
                NLU_NAME(block3)(a + row * lda, lda, k0, k1, panel, acc);
                for (int r = 0; r < 3; r++)
                    store_row(c + (row + r) * ldc + column, acc[r], width, add, last ? panel_bias : NULL,
                              last ? activation : NLUKIT_ACTIVATION_NONE);
            }
        }
        row = full_rows;
#else
        for (; row + NLU_ROWS <= m; row += NLU_ROWS) NLU_BLOCK(NLU_ROWS)
#endif
        for (; row < m; row++) NLU_BLOCK(1)
    }
#undef store_row
}
#undef NLU_BLOCK
#undef NLU_ROWS
