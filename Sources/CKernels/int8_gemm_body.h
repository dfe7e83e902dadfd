// One CPU level of the INT8 GEMM and of the row quantizer; included once per level through
// per_level.h. Every level computes the same exact int32 sums of the same quantized operands: the
// portable level by plain loops (any activation form), AVX2 by vpmaddubsw/vpmaddwd (signed rows, or
// unsigned ones whose int16 pair sums cannot saturate), AVX-512 by VNNI vpdpbusd on unsigned rows.

#include "activation_functions.h"
#include "gemm_epilogue.h"
#include "int8_activation_form.h"
#include "int8_row_scale.h"

#include "int8_quantize_value.h"

NLU_TARGET static void NLU_NAME(int8_quantize_rows)(const float *x, long ldx, long m, long k, int8_t *q, long ldq,
                                                    float *scales, int activation_form) {
    const int offset = nlukit_int8_form_offset(activation_form);
    const float limit = nlukit_int8_form_limit(activation_form);
    for (long i = 0; i < m; i++) {
        const float *row = x + i * ldx;
        const float inverse = nlukit_int8_row_scale(row, k, limit, &scales[i]);
        uint8_t *out = (uint8_t *)(q + i * ldq);
        NLU_NAME(int8_quantize_span)(row, k, inverse, limit, offset, out);
        for (long kk = k; kk < ldq; kk++) out[kk] = (uint8_t)offset;
    }
}

// Quantizes and packs an nn.Linear weight (nlukit_int8_pack): row j's values a chunk at a time
// into a small buffer (a vectorized loop), then its K groups, 4 bytes each, into column j's lane of
// every group of its panel. The old element-by-element scatter cost 2 ns a value: a quarter of a
// second at load for BERT-base, and more than the products for attention's keys.
NLU_TARGET static void NLU_NAME(int8_pack)(const float *w, long ldw, long k, long n, float limit, int8_t *packed,
                                           float *scales, int32_t *column_sums) {
    enum { CHUNK = 256 };  // a multiple of the K group
    const long groups = nlukit_int8_padded_inner(k) / NLUKIT_INT8_K_GROUP;
    const long panels = (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH;
    const long panel_bytes = groups * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;
    memset(packed, 0, (size_t)(panels * panel_bytes));
    for (long j = n; j < panels * NLUKIT_PANEL_WIDTH; j++) { scales[j] = 0; column_sums[j] = 0; }
    int8_t chunk[CHUNK];
    for (long j = 0; j < n; j++) {
        const float *row = w + j * ldw;
        const float inverse = nlukit_int8_row_scale(row, k, limit, &scales[j]);
        int8_t *lane = packed + (j / NLUKIT_PANEL_WIDTH) * panel_bytes + (j % NLUKIT_PANEL_WIDTH) * NLUKIT_INT8_K_GROUP;
        int32_t sum = 0;
        for (long first = 0; first < k; first += CHUNK) {
            const long count = k - first < CHUNK ? k - first : CHUNK;
            NLU_NAME(int8_quantize_span)(row + first, count, inverse, limit, 0, (uint8_t *)chunk);
            for (long t = 0; t < count; t++) sum += chunk[t];
            const long chunk_groups = (count + NLUKIT_INT8_K_GROUP - 1) / NLUKIT_INT8_K_GROUP;
            for (long t = count; t < chunk_groups * NLUKIT_INT8_K_GROUP; t++) chunk[t] = 0;
            for (long g = 0; g < chunk_groups; g++)
                memcpy(lane + (first / NLUKIT_INT8_K_GROUP + g) * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP,
                       chunk + g * NLUKIT_INT8_K_GROUP, NLUKIT_INT8_K_GROUP);
        }
        column_sums[j] = sum;
    }
}

// Writes one row segment of int32 sums: the sums themselves (tests), or dequantized (in vector
// registers, the F32 GEMM's store_row and its epilogue).
NLU_TARGET static inline void NLU_NAME(int8_store_row)(const int32_t *row_sums, long row, long column, long width,
                                                       float a_scale, const float *w_scales, float *c, long ldc,
                                                       int accumulate, const float *bias, int activation,
                                                       int32_t *sums) {
    if (sums) {
        memcpy(sums + row * ldc + column, row_sums, sizeof(int32_t) * width);
        return;
    }
    typedef int32_t nlu_sums16 __attribute__((vector_size(64)));
    nlu_act_v16 values[2];
    for (int h = 0; h < 2; h++) {
        nlu_sums16 integers;
        nlu_act_v16 scales;
        memcpy(&integers, row_sums + 16 * h, sizeof integers);
        memcpy(&scales, w_scales + column + 16 * h, sizeof scales);  // padded to whole panels
        values[h] = __builtin_convertvector(integers, nlu_act_v16) * (a_scale * scales);
    }
    NLU_NAME(store_row)(c + row * ldc + column, values, width, accumulate, bias ? bias + column : NULL, activation);
}

// The plain block: one row of a panel, signed or unsigned activations (the unsigned ones carry an
// offset, 128 or 64, taken back out through the column sums). Only the portable level calls it: the
// AVX2 and VNNI levels have their own blocks for every row count.
#if NLU_LEVEL == 0
NLU_TARGET static void NLU_NAME(int8_row_sums)(const int8_t *a, int offset, long groups, const int8_t *panel,
                                               const int32_t *column_sums, int32_t *out) {
    for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) out[j] = -offset * column_sums[j];
    for (long g = 0; g < groups; g++) {
        const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;
        for (int t = 0; t < NLUKIT_INT8_K_GROUP; t++) {
            const int x = offset ? (int)(uint8_t)a[g * NLUKIT_INT8_K_GROUP + t] : (int)a[g * NLUKIT_INT8_K_GROUP + t];
            for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) out[j] += x * b[j * NLUKIT_INT8_K_GROUP + t];
        }
    }
}
#endif

#if NLU_LEVEL == 0 && defined(__aarch64__)
// arm64 cores without the dot product (Cortex-A53/A55 without it, A57, A72: a Raspberry Pi 4): vmull_s8
// multiplies 8 byte pairs into int16 (at most 127 · 127, exact) and vpadalq_s16 adds adjacent int16 pairs
// into int32 accumulators, so a K group of 4 columns (16 bytes) against the row's 4 bytes (repeated 4 times)
// gives two int32 partial sums per column, added at the end. Two rows × half a panel: 16 accumulators,
// the half panel's group in 4 registers, 2 broadcasts. Signed activations and 8-bit weights. Checked under
// qemu-aarch64 without the extension (scripts/test-arm64-kernels.sh, exact sums); speed unmeasured here.
NLU_TARGET static void NLU_NAME(int8_neon_rows)(const int8_t *a, long lda, int rows, long groups, const int8_t *panel,
                                                int32_t *out) {
    const int8_t *a1 = rows == 2 ? a + lda : a;
    for (int h = 0; h < 2; h++) {
        int32x4_t acc0[8], acc1[8];
        for (int v = 0; v < 8; v++) { acc0[v] = vdupq_n_s32(0); acc1[v] = vdupq_n_s32(0); }
        for (long g = 0; g < groups; g++) {
            const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP + 16 * NLUKIT_INT8_K_GROUP * h;
            int32_t four0, four1;
            memcpy(&four0, a + g * NLUKIT_INT8_K_GROUP, 4);
            memcpy(&four1, a1 + g * NLUKIT_INT8_K_GROUP, 4);
            const int8x16_t x0 = vreinterpretq_s8_s32(vdupq_n_s32(four0)), x1 = vreinterpretq_s8_s32(vdupq_n_s32(four1));
            for (int q = 0; q < 4; q++) {  // 16 bytes: 4 columns' groups
                const int8x16_t w = vld1q_s8(b + 16 * q);
                acc0[2 * q] = vpadalq_s16(acc0[2 * q], vmull_s8(vget_low_s8(w), vget_low_s8(x0)));
                acc0[2 * q + 1] = vpadalq_s16(acc0[2 * q + 1], vmull_high_s8(w, x0));
                acc1[2 * q] = vpadalq_s16(acc1[2 * q], vmull_s8(vget_low_s8(w), vget_low_s8(x1)));
                acc1[2 * q + 1] = vpadalq_s16(acc1[2 * q + 1], vmull_high_s8(w, x1));
            }
        }
        for (int q = 0; q < 4; q++) {  // pairwise: columns 4q .. 4q + 3 of the half panel
            vst1q_s32(out + 16 * h + 4 * q, vpaddq_s32(acc0[2 * q], acc0[2 * q + 1]));
            if (rows == 2) vst1q_s32(out + NLUKIT_PANEL_WIDTH + 16 * h + 4 * q, vpaddq_s32(acc1[2 * q], acc1[2 * q + 1]));
        }
    }
}
#endif

#if NLU_LEVEL == 0 && defined(__x86_64__)
// x86-64's baseline (SSE2) has no byte multiply, but pmaddwd multiplies int16 pairs and adds each pair
// into int32: a K group of a column (4 bytes) sign-extended to int16 meets the row's 4 activations
// (repeated for the next column), giving two int32 partial sums per column, added at the end. Signed
// activations and weights of at most 127: a pair sums to at most 2 · 127 · 127, exact. Half a panel at a
// time (8 accumulators of two columns each, 16 xmm in all). The plain loops ran at 4.5 GOP/s on one Zen 4
// core, this block at 43 (a C harness, BERT-base's 768-deep rows): about the level's F32 rate.
NLU_TARGET static void NLU_NAME(int8_sse2_row)(const int8_t *a, long groups, const int8_t *panel, int32_t *out) {
    for (int h = 0; h < 2; h++) {
        __m128i acc[8];
        for (int v = 0; v < 8; v++) acc[v] = _mm_setzero_si128();
        for (long g = 0; g < groups; g++) {
            const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP + 16 * NLUKIT_INT8_K_GROUP * h;
            int32_t four;
            memcpy(&four, a + g * NLUKIT_INT8_K_GROUP, 4);
            __m128i x = _mm_cvtsi32_si128(four);
            x = _mm_srai_epi16(_mm_unpacklo_epi8(x, x), 8);  // the 4 activations as int16
            x = _mm_unpacklo_epi64(x, x);                     // ... twice: one column's group, then the next's
            for (int q = 0; q < 4; q++) {                     // 16 bytes: 4 columns' groups
                const __m128i w = _mm_load_si128((const __m128i *)(b + 16 * q));
                const __m128i low = _mm_srai_epi16(_mm_unpacklo_epi8(w, w), 8), high = _mm_srai_epi16(_mm_unpackhi_epi8(w, w), 8);
                acc[2 * q] = _mm_add_epi32(acc[2 * q], _mm_madd_epi16(low, x));
                acc[2 * q + 1] = _mm_add_epi32(acc[2 * q + 1], _mm_madd_epi16(high, x));
            }
        }
        for (int v = 0; v < 8; v++) {  // lanes: column 2v's two partial sums, then column 2v + 1's
            int32_t lanes[4];
            _mm_storeu_si128((__m128i *)lanes, acc[v]);
            out[16 * h + 2 * v] = lanes[0] + lanes[1];
            out[16 * h + 2 * v + 1] = lanes[2] + lanes[3];
        }
    }
}
#endif

#if NLU_LEVEL == 0 && defined(__aarch64__)
// arm64 with the dot-product extension (SDOT: Apple M1 and later, Graviton 2 and later, most cores
// since Cortex-A55/A76): vdotq_s32 adds four s8 × s8 products into each int32 lane, exact, so
// signed activations and 8-bit weights as they are. A panel's K group is 32 columns × 4 bytes:
// 8 vectors of 4 columns each, against the row's 4 bytes in every lane. One or two rows: 16
// accumulators, B's group in 8 registers, 2 broadcasts (26 of 32 q registers). Its own target:
// arm64 cores without it (Cortex-A53/A57/A72) run the plain loops. Checked under qemu-aarch64 with
// and without the extension (scripts/test-arm64-kernels.sh); speed unmeasured here.
__attribute__((target("dotprod"), noinline)) static void NLU_NAME(int8_sdot_block)(const int8_t *a, long lda, int rows,
                                                                                   long groups, const int8_t *panel,
                                                                                   int32_t *out) {
    int32x4_t acc0[8], acc1[8];
    for (int v = 0; v < 8; v++) { acc0[v] = vdupq_n_s32(0); acc1[v] = vdupq_n_s32(0); }
    const int8_t *a1 = rows == 2 ? a + lda : a;
    for (long g = 0; g < groups; g++) {
        const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;
        int32_t four0, four1;
        memcpy(&four0, a + g * NLUKIT_INT8_K_GROUP, 4);
        memcpy(&four1, a1 + g * NLUKIT_INT8_K_GROUP, 4);
        const int8x16_t x0 = vreinterpretq_s8_s32(vdupq_n_s32(four0)), x1 = vreinterpretq_s8_s32(vdupq_n_s32(four1));
        for (int v = 0; v < 8; v++) {
            const int8x16_t w = vld1q_s8(b + 16 * v);
            acc0[v] = vdotq_s32(acc0[v], w, x0);
            acc1[v] = vdotq_s32(acc1[v], w, x1);
        }
    }
    for (int v = 0; v < 8; v++) {
        vst1q_s32(out + 4 * v, acc0[v]);
        if (rows == 2) vst1q_s32(out + NLUKIT_PANEL_WIDTH + 4 * v, acc1[v]);
    }
}
#endif

#if NLU_LEVEL == 1
// AVX2 has no int8 dot product: vpmaddubsw multiplies unsigned by signed bytes and adds pairs into
// saturating int16, then vpmaddwd by ones adds the pairs into int32. Three ways keep every sum exact:
// - 8-bit weights ([-127, 127], what a VNNI CPU packs): signed rows, each product as |x| · sign(b, x),
//   so a pair never reaches 2 · 127 · 127 = 32258 < 32767. Four instructions per 32 multiply-adds,
//   three of them on the two vector-multiply pipes.
// - 7-bit weights ([-63, 63], what this level packs, as ONNX Runtime's reduce_range) and 7-bit rows
//   (NLUKIT_INT8_UNSIGNED_7BIT, q + 64 in [1, 127], what this level quantizes to): a pair sums to at
//   most 2 · 127 · 63, so the pair sums of two K groups add in int16 (4 · 127 · 63 = 32004) before
//   one vpmaddwd: five instructions per 64 multiply-adds, three of them on the multiply pipes. The
//   multiply pipes bound these blocks, so this is what lifts INT8 on AVX2 past ONNX Runtime's (whose
//   u8 activations keep 8 bits but share a zero point per tensor: docs/int8.md weighs the two).
// - Other unsigned rows whose pair sums fit (8-bit rows with 7-bit weights: 2 · 255 · 63 = 32130)
//   one group at a time: three instructions per 32 multiply-adds.
// Unsigned rows carry their offset (128 or 64), taken back out by starting each sum at
// -offset · Σ_k qw, as the VNNI blocks do.
// A row takes 4 ymm accumulators of 8 columns; NLU_INT8_AVX2_ROWS rows share each load of B from L1.
// Two rows: 8 accumulators, B's 4 vectors, the broadcast row, one product and the ones (15 ymm).
// Three rows spill: the compiler hoists the loads of B the rows share into registers, which leaves
// too few for 12 accumulators.
#define NLU_INT8_AVX2_ROWS 2
#define NLU_INT8_AVX2_BLOCK(NAME, ROWS, UNSIGNED)                                                         \
    NLU_TARGET static inline void NLU_NAME(NAME)(const int8_t *a, long lda, long groups, const int8_t *panel, \
                                                 const int32_t *column_sums, int offset, int paired,       \
                                                 int32_t *out) {                                          \
        const __m256i ones = _mm256_set1_epi16(1);                                                        \
        __m256i acc[ROWS][4];                                                                             \
        for (int v = 0; v < 4; v++) {                                                                     \
            const __m256i start = UNSIGNED ? _mm256_mullo_epi32(                                          \
                _mm256_loadu_si256((const __m256i *)(column_sums + 8 * v)), _mm256_set1_epi32(-offset))   \
                                           : _mm256_setzero_si256();                                      \
            for (int r = 0; r < ROWS; r++) acc[r][v] = start;                                             \
        }                                                                                                 \
        enum { NEXT_GROUP = NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP };                                   \
        long g = 0;                                                                                       \
        if (UNSIGNED && paired)                                                                           \
            for (; g + 2 <= groups; g += 2) {                                                             \
                const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;                   \
                for (int r = 0; r < ROWS; r++) {                                                          \
                    int32_t four0, four1;                                                                 \
                    memcpy(&four0, a + r * lda + g * NLUKIT_INT8_K_GROUP, 4);                             \
                    memcpy(&four1, a + r * lda + (g + 1) * NLUKIT_INT8_K_GROUP, 4);                       \
                    const __m256i x0 = _mm256_set1_epi32(four0), x1 = _mm256_set1_epi32(four1);           \
                    for (int v = 0; v < 4; v++) {                                                         \
                        const __m256i w0 = _mm256_load_si256((const __m256i *)(b + 32 * v));              \
                        const __m256i w1 = _mm256_load_si256((const __m256i *)(b + NEXT_GROUP + 32 * v)); \
                        const __m256i t = _mm256_add_epi16(_mm256_maddubs_epi16(x0, w0),                  \
                                                           _mm256_maddubs_epi16(x1, w1));                 \
                        acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(t, ones));              \
                    }                                                                                     \
                }                                                                                         \
            }                                                                                             \
        for (; g < groups; g++) {                                                                         \
            const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;                       \
            for (int r = 0; r < ROWS; r++) {                                                              \
                int32_t four;                                                                             \
                memcpy(&four, a + r * lda + g * NLUKIT_INT8_K_GROUP, 4);                                  \
                const __m256i x = _mm256_set1_epi32(four);                                                \
                const __m256i magnitude = UNSIGNED ? x : _mm256_abs_epi8(x);                              \
                for (int v = 0; v < 4; v++) {                                                             \
                    const __m256i w = _mm256_load_si256((const __m256i *)(b + 32 * v));                   \
                    const __m256i t = _mm256_maddubs_epi16(magnitude, UNSIGNED ? w : _mm256_sign_epi8(w, x)); \
                    acc[r][v] = _mm256_add_epi32(acc[r][v], _mm256_madd_epi16(t, ones));                  \
                }                                                                                         \
            }                                                                                             \
        }                                                                                                 \
        for (int r = 0; r < ROWS; r++)                                                                    \
            for (int v = 0; v < 4; v++)                                                                   \
                _mm256_storeu_si256((__m256i *)(out + r * NLUKIT_PANEL_WIDTH + 8 * v), acc[r][v]);        \
    }
NLU_INT8_AVX2_BLOCK(int8_avx2_rows, NLU_INT8_AVX2_ROWS, 0)
NLU_INT8_AVX2_BLOCK(int8_avx2_row, 1, 0)
NLU_INT8_AVX2_BLOCK(int8_avx2_unsigned_rows, NLU_INT8_AVX2_ROWS, 1)
NLU_INT8_AVX2_BLOCK(int8_avx2_unsigned_row, 1, 1)

// AVX-VNNI (the VEX form of vpdpbusd: Intel client cores since Alder Lake, Sapphire Rapids, Zen 5)
// on CPUs without AVX-512: four u8 × s8 products into each int32 lane in one instruction, no int16
// step, so 8-bit weights and unsigned activations as the AVX-512 VNNI block, 256 bits at a time.
// Its own target (and not inlined): the rest of the level runs on AVX2 CPUs without it. Two rows:
// 8 accumulators, B's group in 4 registers, the broadcast row (14 ymm).
// NLUKIT_EMULATE_AVX_VNNI (scripts/tests only) replaces the instruction by an exact AVX2 sum, so
// that the block, its +128 correction and the dispatch to it are tested on CPUs without it.
#ifdef NLUKIT_EMULATE_AVX_VNNI
#define NLU_AVXVNNI_TARGET __attribute__((target("avx2,fma"), noinline))
NLU_AVXVNNI_TARGET static inline __m256i nlu_dpbusd256(__m256i acc, __m256i x, __m256i w) {
    const __m256i low_mask = _mm256_set1_epi16(0xff);
    // Bytes 2i and 2i+1 as int16 (x zero-extended, w sign-extended), pairs summed into int32.
    const __m256i x_even = _mm256_and_si256(x, low_mask), x_odd = _mm256_srli_epi16(x, 8);
    const __m256i w_even = _mm256_srai_epi16(_mm256_slli_epi16(w, 8), 8), w_odd = _mm256_srai_epi16(w, 8);
    const __m256i even = _mm256_madd_epi16(x_even, w_even), odd = _mm256_madd_epi16(x_odd, w_odd);
    return _mm256_add_epi32(acc, _mm256_add_epi32(even, odd));
}
#else
#define NLU_AVXVNNI_TARGET __attribute__((target("avx2,fma,avxvnni"), noinline))
#define nlu_dpbusd256(acc, x, w) _mm256_dpbusd_avx_epi32(acc, x, w)
#endif
#define NLU_INT8_AVXVNNI_BLOCK(NAME, ROWS)                                                                \
    NLU_AVXVNNI_TARGET static void NLU_NAME(NAME)(const int8_t *a, long lda, long groups, const int8_t *panel, \
                                                  const int32_t *column_sums, int offset, int32_t *out) { \
        __m256i acc[ROWS][4];                                                                             \
        for (int v = 0; v < 4; v++) {                                                                     \
            const __m256i start = _mm256_mullo_epi32(                                                     \
                _mm256_loadu_si256((const __m256i *)(column_sums + 8 * v)), _mm256_set1_epi32(-offset));  \
            for (int r = 0; r < ROWS; r++) acc[r][v] = start;                                             \
        }                                                                                                 \
        for (long g = 0; g < groups; g++) {                                                               \
            const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;                       \
            __m256i w[4];                                                                                 \
            for (int v = 0; v < 4; v++) w[v] = _mm256_load_si256((const __m256i *)(b + 32 * v));         \
            for (int r = 0; r < ROWS; r++) {                                                              \
                int32_t four;                                                                             \
                memcpy(&four, a + r * lda + g * NLUKIT_INT8_K_GROUP, 4);                                  \
                const __m256i x = _mm256_set1_epi32(four);                                                \
                for (int v = 0; v < 4; v++) acc[r][v] = nlu_dpbusd256(acc[r][v], x, w[v]);               \
            }                                                                                             \
        }                                                                                                 \
        for (int r = 0; r < ROWS; r++)                                                                    \
            for (int v = 0; v < 4; v++)                                                                   \
                _mm256_storeu_si256((__m256i *)(out + r * NLUKIT_PANEL_WIDTH + 8 * v), acc[r][v]);        \
    }
NLU_INT8_AVXVNNI_BLOCK(int8_avxvnni_rows, NLU_INT8_AVX2_ROWS)
NLU_INT8_AVXVNNI_BLOCK(int8_avxvnni_row, 1)
#endif

#if NLU_LEVEL == 2
// AVX-512 VNNI: vpdpbusd adds four u8 × s8 products into each int32 lane, no saturation. Eight
// rows × 32 columns take 16 zmm accumulators; B's group in 2, broadcasts of each row's 4 bytes.
// The activations' offset is taken back out by starting each accumulator at -offset · Σ_k qw.
#define NLU_VNNI_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx512vnni,avx2,fma")))
#define NLU_INT8_VNNI_BLOCK(ROWS)                                                                         \
    NLU_VNNI_TARGET static inline void NLU_NAME(int8_vnni_block##ROWS)(const int8_t *a, long lda, long groups, \
                                                                       const int8_t *panel,                \
                                                                       const int32_t *column_sums, int offset, \
                                                                       int32_t *out) {                     \
        const __m512i factor = _mm512_set1_epi32(-offset);                                                 \
        const __m512i start0 = _mm512_mullo_epi32(_mm512_loadu_si512(column_sums), factor);                \
        const __m512i start1 = _mm512_mullo_epi32(_mm512_loadu_si512(column_sums + 16), factor);           \
        __m512i acc[ROWS][2];                                                                              \
        for (int r = 0; r < ROWS; r++) { acc[r][0] = start0; acc[r][1] = start1; }                         \
        for (long g = 0; g < groups; g++) {                                                                \
            const int8_t *b = panel + g * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;                        \
            const __m512i b0 = _mm512_load_si512(b), b1 = _mm512_load_si512(b + 64);                       \
            for (int r = 0; r < ROWS; r++) {                                                               \
                int32_t four;                                                                              \
                memcpy(&four, a + r * lda + g * NLUKIT_INT8_K_GROUP, 4);                                   \
                const __m512i x = _mm512_set1_epi32(four);                                                 \
                acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], x, b0);                                         \
                acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], x, b1);                                         \
            }                                                                                              \
        }                                                                                                  \
        for (int r = 0; r < ROWS; r++) {                                                                   \
            _mm512_storeu_si512(out + r * NLUKIT_PANEL_WIDTH, acc[r][0]);                                  \
            _mm512_storeu_si512(out + r * NLUKIT_PANEL_WIDTH + 16, acc[r][1]);                             \
        }                                                                                                  \
    }
#define NLU_INT8_VNNI_ROWS 8
NLU_INT8_VNNI_BLOCK(8)
NLU_INT8_VNNI_BLOCK(1)
#endif

// The GEMM over panels [first_panel, end_panel) of rows [0, m). Level 2 is only called for
// unsigned rows on a CPU with VNNI; level 1 for the forms its blocks hold exactly with
// `weight_limit` (or any unsigned rows with `dot_product`: nlukit_int8_gemm checks); the portable
// level takes every form. `dot_product` runs the level's int8 dot-product block where it has one:
// AVX-VNNI at level 1 (unsigned rows), SDOT on arm64's portable level (signed rows).
#if NLU_LEVEL == 2
NLU_VNNI_TARGET
#else
NLU_TARGET
#endif
static void NLU_NAME(int8_gemm)(const int8_t *a, long lda, const float *a_scales, int activation_form,
                                int weight_limit, long m, long k, const int8_t *packed, const float *w_scales,
                                const int32_t *column_sums, long n, long first_panel, long end_panel, float *c,
                                long ldc, int accumulate, const float *bias, int activation, int32_t *sums,
                                int dot_product) {
    const int offset = nlukit_int8_form_offset(activation_form);
    // Two K groups per int16 sum: only 7-bit rows against 7-bit weights stay under 32767 (4 · 127 · 63).
    const int paired = activation_form == NLUKIT_INT8_UNSIGNED_7BIT && weight_limit <= 63;
    const long groups = nlukit_int8_padded_inner(k) / NLUKIT_INT8_K_GROUP;
    const long panel_bytes = groups * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP;
    int32_t block[8 * NLUKIT_PANEL_WIDTH] __attribute__((aligned(64)));
    for (long p = first_panel; p < end_panel; p++) {
        const int8_t *panel = packed + p * panel_bytes;
        const long column = p * NLUKIT_PANEL_WIDTH;
        const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
        long row = 0;
#define NLU_STORE_ROWS(ROWS)                                                                                 \
        for (int r = 0; r < (ROWS); r++)                                                                     \
            NLU_NAME(int8_store_row)(block + r * NLUKIT_PANEL_WIDTH, row + r, column, width,                 \
                                     sums ? 0 : a_scales[row + r], w_scales, c, ldc, accumulate, bias, activation, sums);
#if NLU_LEVEL == 2
        for (; row + NLU_INT8_VNNI_ROWS <= m; row += NLU_INT8_VNNI_ROWS) {
            NLU_NAME(int8_vnni_block8)(a + row * lda, lda, groups, panel, column_sums + column, offset, block);
            NLU_STORE_ROWS(NLU_INT8_VNNI_ROWS)
        }
        for (; row < m; row++) {
            NLU_NAME(int8_vnni_block1)(a + row * lda, lda, groups, panel, column_sums + column, offset, block);
            NLU_STORE_ROWS(1)
        }
#elif NLU_LEVEL == 1
        for (; row + NLU_INT8_AVX2_ROWS <= m; row += NLU_INT8_AVX2_ROWS) {
            const int8_t *rows = a + row * lda;
            const int32_t *sums_here = column_sums + column;
            if (dot_product)
                NLU_NAME(int8_avxvnni_rows)(rows, lda, groups, panel, sums_here, offset, block);
            else if (offset)
                NLU_NAME(int8_avx2_unsigned_rows)(rows, lda, groups, panel, sums_here, offset, paired, block);
            else
                NLU_NAME(int8_avx2_rows)(rows, lda, groups, panel, sums_here, 0, 0, block);
            NLU_STORE_ROWS(NLU_INT8_AVX2_ROWS)
        }
        for (; row < m; row++) {
            const int8_t *rows = a + row * lda;
            const int32_t *sums_here = column_sums + column;
            if (dot_product)
                NLU_NAME(int8_avxvnni_row)(rows, lda, groups, panel, sums_here, offset, block);
            else if (offset)
                NLU_NAME(int8_avx2_unsigned_row)(rows, lda, groups, panel, sums_here, offset, paired, block);
            else
                NLU_NAME(int8_avx2_row)(rows, lda, groups, panel, sums_here, 0, 0, block);
            NLU_STORE_ROWS(1)
        }
#else
#if defined(__aarch64__)
        // SDOT where the core has it, else the widening NEON block, for the signed activations this level
        // quantizes to; unsigned ones take the plain loops.
        if (dot_product || !offset) {
            void (*const rows_block)(const int8_t *, long, int, long, const int8_t *, int32_t *) =
                dot_product ? NLU_NAME(int8_sdot_block) : NLU_NAME(int8_neon_rows);
            while (row < m) {
                const int rows = m - row >= 2 ? 2 : 1;
                rows_block(a + row * lda, lda, rows, groups, panel, block);
                NLU_STORE_ROWS(rows)
                row += rows;
            }
        }
#endif
#if defined(__x86_64__)
        if (!offset) {  // what this level quantizes to; unsigned rows take the plain loops
            for (; row < m; row++) {
                NLU_NAME(int8_sse2_row)(a + row * lda, groups, panel, block);
                NLU_STORE_ROWS(1)
            }
        }
#endif
        for (; row < m; row++) {
            NLU_NAME(int8_row_sums)(a + row * lda, offset, groups, panel, column_sums + column, block);
            NLU_STORE_ROWS(1)
        }
#endif
#undef NLU_STORE_ROWS
    }
    (void)paired;
    (void)dot_product;
}
