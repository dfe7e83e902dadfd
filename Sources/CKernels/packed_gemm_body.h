// One CPU level of the packed small-M SGEMM; included once per level through per_level.h.

// Rows per register block of the generic block: two 16-float accumulators per row must fit the
// level's vector registers. AVX2 has its own block (below).
#if NLU_LEVEL == 2 || (NLU_LEVEL == 0 && defined(NLUKIT_TEST_WIDE_BLOCKS))
// 32 zmm: 16 accumulators, B's row in 2, broadcasts. NLUKIT_TEST_WIDE_BLOCKS (scripts/tests only)
// gives the baseline level the same row blocks, so that their sequence (8, then 4, 2, 1 rows) is
// checked on CPUs without AVX-512.
#define NLU_ROWS 8
#elif defined(__aarch64__)
#define NLU_ROWS 2  // NEON remainder rows (the 4-row NEON block is below): 16 accumulators + B's row in 8
#else
#define NLU_ROWS 1  // other architectures' baseline (x86-64's has the SSE2 block below)
#endif

#include "activation_functions.h"

// The block's rows of c, fetched for writing while the K loop runs: a recurrent layer's per-step
// product adds into the gate rows of a 13 MB buffer filled long before (out of cache), and waiting
// for them at the store cost 12 % of the product (148 -> 168 µs at 32 × 256 × 1024). A prefetch
// never faults, so the second line may lie past a narrow panel's row.
#ifndef NLU_PREFETCH_ROW
#define NLU_PREFETCH_ROW(p) (__builtin_prefetch((p), 1, 3), __builtin_prefetch((p) + 16, 1, 3))
#endif

// Rows [row, row + rows) of c for one panel: rows accumulators of two 16-float vectors per row.
#define NLU_BLOCK(ROWS)                                                                          \
    {                                                                                            \
        nlu_v16 acc[ROWS][2];                                                                    \
        for (int r = 0; r < ROWS; r++) { acc[r][0] = (nlu_v16){0}; acc[r][1] = (nlu_v16){0}; }  \
        const float *ar = a + row * lda;                                                         \
        for (int r = 0; r < ROWS; r++) NLU_PREFETCH_ROW(c + (row + r) * ldc + column);          \
        for (int r = 0; r < ROWS && row + ROWS + r < m; r++) NLU_PREFETCH_ROW(c + (row + ROWS + r) * ldc + column); \
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

#if NLU_LEVEL == 1
// Why the AVX2 block is 3 rows × 32 columns among those 16 ymm registers allow (12 accumulators
// each): in L1 they all run at the FMA peak; what separates them is A's side. 6 × 16 (B's half
// row in 2 registers) halves the B lines read from L2 per FMA but doubles the broadcasts and the
// rows of A read at once (six rows 12 KB apart, the FFN's second product, share one L1 set):
// several per cent slower on Zen 3. 4 × 24 has 3 × 32's 7 loads per 12 FMAs with one broadcast
// more, and would need 24-column panels: a packing of this level's own, where attention's
// per-head products and INT8 share the 32-column one.
//
// AVX2+FMA: 16 ymm registers. Three rows × 32 columns take 12 accumulators; the generic block
// also kept the panel's whole 32-float row in 4 registers (19 live, so it spilled, and ran at
// 42 % of the FMA peak). Here each 8-float quarter of the row is loaded into one register and used
// by the three rows' broadcasts before the next: 12 + 3 + 1 = 16, nothing spilled (7 loads per 12
// FMAs). K runs in blocks of NLU_AVX2_K_BLOCK so the panel's block (128 KB) stays in L2 (256 KB
// and up on every AVX2 core) for all the row blocks of A: the 768-deep layers run unblocked, the
// 3072-deep one in 3 blocks. Smaller blocks (the panel's block in L1) would write partial sums to c
// 6 or 24 times per panel, which costs more than the L2 reads save.
enum { NLU_AVX2_K_BLOCK = 1024 };

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

// The rows left over by the 3-row blocks (m mod 3: 1 or 2 rows of every sequence whose length is
// not a multiple of 3, and of attention's last query block), K-blocked like them. At most
// 8 accumulators + B's quarter-row + 2 broadcasts: the plain loop cannot spill. The generic
// 1-row block they replace read B's 4 vectors from L2 for every 4 FMAs (about a quarter of the
// peak): at QA-128 its 2 leftover rows of 128 cost as much as 8 rows in 3-row blocks.
NLU_TARGET static inline void NLU_NAME(block_rest)(const float *a0, long lda, int rows, long k0, long k1,
                                                   const float *panel, nlu_v16 acc[2][2]) {
    __m256 c[2][4];
    for (int r = 0; r < 2; r++) for (int v = 0; v < 4; v++) c[r][v] = _mm256_setzero_ps();
    const float *bk = panel + k0 * NLUKIT_PANEL_WIDTH;
    if (rows == 2) {
        const float *a1 = a0 + lda;
        for (long kk = k0; kk < k1; kk++, bk += NLUKIT_PANEL_WIDTH) {
            const __m256 x0 = _mm256_broadcast_ss(a0 + kk), x1 = _mm256_broadcast_ss(a1 + kk);
            for (int v = 0; v < 4; v++) {
                const __m256 b = _mm256_load_ps(bk + 8 * v);
                c[0][v] = _mm256_fmadd_ps(x0, b, c[0][v]);
                c[1][v] = _mm256_fmadd_ps(x1, b, c[1][v]);
            }
        }
    } else {
        for (long kk = k0; kk < k1; kk++, bk += NLUKIT_PANEL_WIDTH) {
            const __m256 x0 = _mm256_broadcast_ss(a0 + kk);
            for (int v = 0; v < 4; v++) c[0][v] = _mm256_fmadd_ps(x0, _mm256_load_ps(bk + 8 * v), c[0][v]);
        }
    }
#define NLU_JOIN(low, high) __builtin_shufflevector(low, high, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15)
    for (int r = 0; r < rows; r++) { acc[r][0] = NLU_JOIN(c[r][0], c[r][1]); acc[r][1] = NLU_JOIN(c[r][2], c[r][3]); }
#undef NLU_JOIN
}
#endif

#if NLU_LEVEL == 0 && defined(__x86_64__) && !defined(NLUKIT_TEST_WIDE_BLOCKS)
// x86-64's baseline, SSE2: 16 xmm registers, no FMA, no broadcast from memory. One row × the
// panel's 32 columns takes 8 accumulators; B's 8 vectors are loaded per K step. What held this level
// at 83-86 % of its mul + add peak was the broadcast of A's element (movss + shufps: the shuffle
// shares the FP pipes with the multiplies and adds), not B's traffic from L2 nor SSE's two-operand
// form. So the rows of A are first written out broadcast, four copies of each value, for a group of
// NLU_SSE2_ROWS rows × NLU_SSE2_K_BLOCK values of K (32 KB, on the stack), then every panel of the
// range reads them with plain aligned loads: 9 loads, 8 multiplies and 8 adds per K step. The
// expansion is paid once per group and K block and shared by all the panels of the call. K blocks of 128 keep the panel's block (16 KB) in L1 for the group's rows;
// earlier blocks leave partial sums in c, the last one adds bias and activation, as at the AVX2 level.
enum { NLU_SSE2_ROWS = 16, NLU_SSE2_K_BLOCK = 128 };

NLU_TARGET static void NLU_NAME(sse2_rows)(const float *a, long lda, long m, long k, const float *packed, long n,
                                           long first_panel, long end_panel, float *c, long ldc, int accumulate,
                                           const float *bias, int activation) {
    float broadcast[NLU_SSE2_ROWS * NLU_SSE2_K_BLOCK * 4] __attribute__((aligned(64)));
    for (long row0 = 0; row0 < m; row0 += NLU_SSE2_ROWS) {
        const long rows = m - row0 < NLU_SSE2_ROWS ? m - row0 : NLU_SSE2_ROWS;
        for (long k0 = 0; k0 < k || k0 == 0; k0 += NLU_SSE2_K_BLOCK) {  // k = 0: one empty block
            const long k1 = k - k0 < NLU_SSE2_K_BLOCK ? k : k0 + NLU_SSE2_K_BLOCK;
            const int last = k1 == k, add = k0 > 0 || accumulate;
            for (long r = 0; r < rows; r++) {
                const float *source = a + (row0 + r) * lda;
                float *copies = broadcast + r * NLU_SSE2_K_BLOCK * 4;
                long kk = 0;
                for (; k0 + kk + 4 <= k1; kk += 4) {  // four values: one load, four shuffles
                    const __m128 four = _mm_loadu_ps(source + k0 + kk);
                    _mm_store_ps(copies + 4 * kk, _mm_shuffle_ps(four, four, 0x00));
                    _mm_store_ps(copies + 4 * kk + 4, _mm_shuffle_ps(four, four, 0x55));
                    _mm_store_ps(copies + 4 * kk + 8, _mm_shuffle_ps(four, four, 0xaa));
                    _mm_store_ps(copies + 4 * kk + 12, _mm_shuffle_ps(four, four, 0xff));
                }
                for (; k0 + kk < k1; kk++) _mm_store_ps(copies + 4 * kk, _mm_set1_ps(source[k0 + kk]));
            }
            for (long p = first_panel; p < end_panel; p++) {
                const float *panel = packed + p * k * NLUKIT_PANEL_WIDTH + k0 * NLUKIT_PANEL_WIDTH;
                const long column = p * NLUKIT_PANEL_WIDTH;
                const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
                for (long r = 0; r < rows; r++) {
                    const float *x = broadcast + r * NLU_SSE2_K_BLOCK * 4;
                    float *out = c + (row0 + r) * ldc + column;
                    // A whole panel's partial sums start from c's (and end there unless this is the
                    // last block): 8 loads and 8 stores per block instead of the epilogue's copies.
                    const int from_c = add && width == NLUKIT_PANEL_WIDTH;
                    __m128 acc[8];
                    for (int v = 0; v < 8; v++) acc[v] = from_c ? _mm_loadu_ps(out + 4 * v) : _mm_setzero_ps();
                    const float *bk = panel;
                    // A K step is 24 instructions (A's broadcast and 7 of B's vectors loaded, 8 multiplies, the
                    // last reading B from memory, 8 adds) for 4 cycles of the FP pipes, and a Zen core issues 6
                    // a cycle: the loop's increment and branch made it issue-bound (26 / 6 = 4.33 cycles).
                    // Four steps a turn share them.
#pragma clang loop unroll_count(4)
                    for (long kk = 0; kk < k1 - k0; kk++, bk += NLUKIT_PANEL_WIDTH) {
                        const __m128 s = _mm_load_ps(x + 4 * kk);
                        for (int v = 0; v < 8; v++) acc[v] = _mm_add_ps(acc[v], _mm_mul_ps(_mm_load_ps(bk + 4 * v), s));
                    }
                    if (!last && from_c) {
                        for (int v = 0; v < 8; v++) _mm_storeu_ps(out + 4 * v, acc[v]);
                        continue;
                    }
                    nlu_v16 sums[2];
                    memcpy(sums, acc, sizeof sums);
                    NLU_NAME(store_row)(out, sums, width, add && !from_c, last && bias ? bias + column : NULL,
                                        last ? activation : NLUKIT_ACTIVATION_NONE);
                }
            }
        }
    }
}
#define NLU_SSE2_BLOCK 1
#endif

#if NLU_LEVEL == 0 && defined(__aarch64__)
// NEON (arm64: Apple Silicon, Graviton, ...): 32 q registers of 4 floats. A block is 4 rows ×
// 16 columns (half a panel): 16 accumulators, B's 16 floats in 4, and 4 floats of K of each row
// in 4 (one load per row feeds 4 lane FMAs, where a broadcast per element would cost a load per
// FMA pair) = 24 live, nothing spilled; 16 B loads + 4 A loads per 64 FMAs. The generic block
// (two rows × 32, one scalar of A per FMA pair) stays for the remainder rows.
// Verified for results under qemu-aarch64 (scripts/test-arm64-kernels.sh); speed unmeasured here.
#define NLU_NEON_FMA_LANE(lane)                                                                  \
    {                                                                                            \
        const float *bl = half + (kk + lane) * NLUKIT_PANEL_WIDTH;                                \
        const float32x4_t b0 = vld1q_f32(bl), b1 = vld1q_f32(bl + 4), b2 = vld1q_f32(bl + 8),    \
                          b3 = vld1q_f32(bl + 12);                                               \
        c00 = vfmaq_laneq_f32(c00, b0, x0, lane); c01 = vfmaq_laneq_f32(c01, b1, x0, lane);      \
        c02 = vfmaq_laneq_f32(c02, b2, x0, lane); c03 = vfmaq_laneq_f32(c03, b3, x0, lane);      \
        c10 = vfmaq_laneq_f32(c10, b0, x1, lane); c11 = vfmaq_laneq_f32(c11, b1, x1, lane);      \
        c12 = vfmaq_laneq_f32(c12, b2, x1, lane); c13 = vfmaq_laneq_f32(c13, b3, x1, lane);      \
        c20 = vfmaq_laneq_f32(c20, b0, x2, lane); c21 = vfmaq_laneq_f32(c21, b1, x2, lane);      \
        c22 = vfmaq_laneq_f32(c22, b2, x2, lane); c23 = vfmaq_laneq_f32(c23, b3, x2, lane);      \
        c30 = vfmaq_laneq_f32(c30, b0, x3, lane); c31 = vfmaq_laneq_f32(c31, b1, x3, lane);      \
        c32 = vfmaq_laneq_f32(c32, b2, x3, lane); c33 = vfmaq_laneq_f32(c33, b3, x3, lane);      \
    }

// Sums of rows a0..a0+3 × the 16 columns at `half` (a panel, or a panel + 16), over all of K,
// into columns [16·h, 16·h + 16) of out[r].
NLU_TARGET static inline void NLU_NAME(neon_block4)(const float *a0, long lda, long k, const float *half,
                                                    float out[4][NLUKIT_PANEL_WIDTH], int h) {
    float32x4_t c00 = vdupq_n_f32(0), c01 = c00, c02 = c00, c03 = c00, c10 = c00, c11 = c00, c12 = c00, c13 = c00,
                c20 = c00, c21 = c00, c22 = c00, c23 = c00, c30 = c00, c31 = c00, c32 = c00, c33 = c00;
    const float *a1 = a0 + lda, *a2 = a1 + lda, *a3 = a2 + lda;
    long kk = 0;
    for (; kk + 4 <= k; kk += 4) {
        const float32x4_t x0 = vld1q_f32(a0 + kk), x1 = vld1q_f32(a1 + kk), x2 = vld1q_f32(a2 + kk),
                          x3 = vld1q_f32(a3 + kk);
        NLU_NEON_FMA_LANE(0) NLU_NEON_FMA_LANE(1) NLU_NEON_FMA_LANE(2) NLU_NEON_FMA_LANE(3)
    }
    for (; kk < k; kk++) {  // K not a multiple of 4: lane 0 of a vector holding only a[kk]
        const float32x4_t x0 = vdupq_n_f32(a0[kk]), x1 = vdupq_n_f32(a1[kk]), x2 = vdupq_n_f32(a2[kk]),
                          x3 = vdupq_n_f32(a3[kk]);
        NLU_NEON_FMA_LANE(0)
    }
    float *o0 = out[0] + 16 * h, *o1 = out[1] + 16 * h, *o2 = out[2] + 16 * h, *o3 = out[3] + 16 * h;
    vst1q_f32(o0, c00); vst1q_f32(o0 + 4, c01); vst1q_f32(o0 + 8, c02); vst1q_f32(o0 + 12, c03);
    vst1q_f32(o1, c10); vst1q_f32(o1 + 4, c11); vst1q_f32(o1 + 8, c12); vst1q_f32(o1 + 12, c13);
    vst1q_f32(o2, c20); vst1q_f32(o2 + 4, c21); vst1q_f32(o2 + 8, c22); vst1q_f32(o2 + 12, c23);
    vst1q_f32(o3, c30); vst1q_f32(o3 + 4, c31); vst1q_f32(o3 + 8, c32); vst1q_f32(o3 + 12, c33);
}
#undef NLU_NEON_FMA_LANE
#endif

NLU_TARGET static void NLU_NAME(packed_gemm)(const float *a, long lda, long m, long k, const float *packed, long n,
                                             long first_panel, long end_panel, float *c, long ldc, int accumulate,
                                             const float *bias, int activation) {
#ifdef NLU_SSE2_BLOCK
    NLU_NAME(sse2_rows)(a, lda, m, k, packed, n, first_panel, end_panel, c, ldc, accumulate, bias, activation);
#else
#define store_row NLU_NAME(store_row)
    for (long p = first_panel; p < end_panel; p++) {
        const float *panel = packed + p * k * NLUKIT_PANEL_WIDTH;
        const long column = p * NLUKIT_PANEL_WIDTH;
        const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
        const float *panel_bias = bias ? bias + column : NULL;
        long row = 0;
#if NLU_LEVEL == 1
        // Blocks of 3 rows, then the 1 or 2 left, K block by K block: the earlier K blocks leave
        // partial sums in c (added to c's old values when accumulating), the last one adds bias
        // and activation.
        const long full_rows = m - m % 3;
        for (long k0 = 0; m > 0 && (k0 < k || k0 == 0); k0 += NLU_AVX2_K_BLOCK) {  // k = 0: one empty block
            const long k1 = k - k0 < NLU_AVX2_K_BLOCK ? k : k0 + NLU_AVX2_K_BLOCK;
            const int last = k1 == k, add = k0 > 0 || accumulate;
            // B's next block (this panel's next K block, or the next panel's first) is fetched into
            // L2 a slice per row block while this one is read. In a forward pass a layer's weights
            // come from memory (the other layers' pass through the caches between two uses), and
            // the first row block of each panel would otherwise wait for them line by line.
            const float *next = panel + k1 * NLUKIT_PANEL_WIDTH;
            const long next_depth = !last ? (k - k1 < NLU_AVX2_K_BLOCK ? k - k1 : NLU_AVX2_K_BLOCK)
                                          : (p + 1 < end_panel ? (k < NLU_AVX2_K_BLOCK ? k : NLU_AVX2_K_BLOCK) : 0);
            const long next_lines = next_depth * (NLUKIT_PANEL_WIDTH / 16), row_blocks = full_rows / 3;
            const long slice = row_blocks > 0 ? (next_lines + row_blocks - 1) / row_blocks : 0;
            long fetched = 0;
            for (row = 0; row < full_rows; row += 3) {
                nlu_v16 acc[3][2];
                for (long line = 0; line < slice && fetched < next_lines; line++, fetched++)
                    __builtin_prefetch(next + 16 * fetched, 0, 2);
                NLU_NAME(block3)(a + row * lda, lda, k0, k1, panel, acc);
                for (int r = 0; r < 3; r++)
                    store_row(c + (row + r) * ldc + column, acc[r], width, add, last ? panel_bias : NULL,
                              last ? activation : NLUKIT_ACTIVATION_NONE);
            }
            if (m > full_rows) {
                nlu_v16 acc[2][2];
                NLU_NAME(block_rest)(a + full_rows * lda, lda, (int)(m - full_rows), k0, k1, panel, acc);
                for (int r = 0; r < m - full_rows; r++)
                    store_row(c + (full_rows + r) * ldc + column, acc[r], width, add, last ? panel_bias : NULL,
                              last ? activation : NLUKIT_ACTIVATION_NONE);
            }
        }
        row = m;
#elif defined(__aarch64__)
        for (; row + 4 <= m; row += 4) {
            float sums[4][NLUKIT_PANEL_WIDTH] __attribute__((aligned(64)));
            NLU_NAME(neon_block4)(a + row * lda, lda, k, panel, sums, 0);
            NLU_NAME(neon_block4)(a + row * lda, lda, k, panel + 16, sums, 1);
            for (int r = 0; r < 4; r++)
                store_row(c + (row + r) * ldc + column, (const nlu_v16 *)sums[r], width, accumulate, panel_bias, activation);
        }
        for (; row + NLU_ROWS <= m; row += NLU_ROWS) NLU_BLOCK(NLU_ROWS)
#else
        for (; row + NLU_ROWS <= m; row += NLU_ROWS) NLU_BLOCK(NLU_ROWS)
#if NLU_ROWS >= 8
        // Up to 7 rows are left by the 8-row blocks (any sequence length not a multiple of 8): 4 and
        // then 2 of them share each load of B, where one row at a time reads B's two vectors for every
        // two FMAs (bound by L2, as the AVX2 level's leftover rows were: see block_rest).
        if (row + 4 <= m) { NLU_BLOCK(4) row += 4; }
        if (row + 2 <= m) { NLU_BLOCK(2) row += 2; }
#endif
#endif
        for (; row < m; row++) NLU_BLOCK(1)
    }
#undef store_row
#endif
}
#undef NLU_BLOCK
#undef NLU_ROWS
#undef NLU_SSE2_BLOCK
