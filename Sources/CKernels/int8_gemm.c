#include "Int8GEMM.h"
#include "CKernels.h"
#include "int8_activation_form.h"
#include "int8_row_scale.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>  // the AVX2 and AVX-512 VNNI blocks
#elif defined(__aarch64__)
#include <arm_neon.h>  // the SDOT block
#if defined(__linux__)
#include <sys/auxv.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#endif
#endif

// The INT8 GEMM and quantizer per CPU level (int8_gemm_body.h). AVX-512 VNNI is an extension
// beyond the AVX-512 level's F/DQ/VL/BW: the level's VNNI block runs only where CPUID has it,
// and an AVX-512 CPU without it (Skylake-SP) uses level 1's blocks. At level 1, AVX-VNNI (CPUID)
// picks the 256-bit VNNI block (8-bit weights, +128 rows) over the AVX2 one (7-bit weights and rows).

#define NLU_LEVEL_BODY "int8_gemm_body.h"
#include "per_level.h"

long nlukit_int8_padded_inner(long k) { return (k + NLUKIT_INT8_K_GROUP - 1) / NLUKIT_INT8_K_GROUP * NLUKIT_INT8_K_GROUP; }

long nlukit_int8_packed_size(long k, long n) {
    return ((n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH) * NLUKIT_PANEL_WIDTH * nlukit_int8_padded_inner(k);
}

void nlukit_int8_pack(const float *w, long ldw, long k, long n, int weight_limit, int8_t *packed, float *scales,
                      int32_t *column_sums) {
    const float limit = weight_limit == 63 ? 63.0f : 127.0f;
    NLU_DISPATCH(int8_pack, w, ldw, k, n, limit, packed, scales, column_sums)
}

static int has_vnni(void) {
#ifdef NLU_MULTI_LEVEL
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512vnni");
#else
    return 0;
#endif
}

static int has_avx_vnni(void) {
#if defined(NLUKIT_EMULATE_AVX_VNNI)
    return 1;  // scripts/tests: the block's exact AVX2 stand-in runs wherever AVX2 does
#elif defined(NLU_MULTI_LEVEL)
    __builtin_cpu_init();
    return __builtin_cpu_supports("avxvnni");
#else
    return 0;
#endif
}

// arm64's dot-product extension (SDOT), from the kernel's hardware capabilities. Asked once: a
// sysctl per product would cost more than a small one.
static int query_sdot(void) {
#if defined(__aarch64__) && defined(__linux__)
    return (getauxval(AT_HWCAP) & (1ul << 20)) != 0;  // HWCAP_ASIMDDP
#elif defined(__aarch64__) && defined(__APPLE__)
    int value = 0;
    size_t size = sizeof value;
    return sysctlbyname("hw.optional.arm.FEAT_DotProd", &value, &size, NULL, 0) == 0 && value == 1;
#else
    return 0;
#endif
}
static int has_sdot(void) {
    // -1 until asked; every thread computes the same answer, so a race only repeats the query.
    static _Atomic int cached = -1;
    int value = cached;
    if (value < 0) cached = value = query_sdot();
    return value;
}

// Level 1's 256-bit blocks run at level 1, and at level 2 on an AVX-512 CPU without VNNI
// (Skylake-SP); there the AVX-VNNI block where the CPU has it, else the AVX2 block.
static int runs_level1_blocks(void) {
    const int level = nlukit_kernel_level();
    return level == 1 || (level == 2 && !has_vnni());
}
static int runs_avx_vnni_block(void) { return runs_level1_blocks() && has_avx_vnni(); }
static int runs_avx2_block(void) { return runs_level1_blocks() && !has_avx_vnni(); }

int nlukit_int8_weight_limit(void) { return runs_avx2_block() ? 63 : 127; }

int nlukit_int8_has_fast_path(void) {
    if (nlukit_kernel_level() == 2 && has_vnni()) return 1;
    return runs_level1_blocks() || has_sdot();
}

int nlukit_int8_activation_form(int weight_limit) {
    if (nlukit_kernel_level() == 2 && has_vnni()) return NLUKIT_INT8_UNSIGNED;
    if (runs_avx_vnni_block()) return NLUKIT_INT8_UNSIGNED;  // vpdpbusd sums in int32: exact for either limit
    return runs_avx2_block() && weight_limit <= 63 ? NLUKIT_INT8_UNSIGNED_7BIT : NLUKIT_INT8_SIGNED;
}

int nlukit_int8_activation_limit(int activation_form) {
    switch (activation_form) {
    case NLUKIT_INT8_SIGNED: case NLUKIT_INT8_UNSIGNED: case NLUKIT_INT8_UNSIGNED_7BIT:
        return (int)nlukit_int8_form_limit(activation_form);
    default:
        return -1;
    }
}

void nlukit_int8_quantize_rows(const float *x, long ldx, long m, long k, int8_t *q, long ldq, float *scales,
                               int activation_form) {
    NLU_DISPATCH(int8_quantize_rows, x, ldx, m, k, q, ldq, scales, activation_form)
}

// Rows in blocks, as the F32 packed GEMM: a panel pass re-reads every row of A.
enum { NLU_INT8_ROW_BLOCK = 384 };

void nlukit_int8_gemm(const int8_t *a, long lda, const float *a_scales, int activation_form, long m, long k,
                      const int8_t *packed, int weight_limit, const float *w_scales, const int32_t *column_sums, long n,
                      long first_panel, long end_panel, float *c, long ldc, int accumulate, const float *bias,
                      int activation, int32_t *sums) {
    const int unsigned_rows = nlukit_int8_form_offset(activation_form) != 0;
    for (long start = 0; start < m; start += NLU_INT8_ROW_BLOCK) {
        const long rows = m - start < NLU_INT8_ROW_BLOCK ? m - start : NLU_INT8_ROW_BLOCK;
        const int8_t *block_a = a + start * lda;
        const float *block_scales = a_scales ? a_scales + start : NULL;
        float *block_c = c ? c + start * ldc : NULL;
        int32_t *block_sums = sums ? sums + start * ldc : NULL;
#ifdef NLU_MULTI_LEVEL
        const int level = nlukit_kernel_level();
        if (unsigned_rows && level == 2 && has_vnni()) {
            nlu_avx512_int8_gemm(block_a, lda, block_scales, activation_form, weight_limit, rows, k, packed, w_scales,
                                 column_sums, n, first_panel, end_panel, block_c, ldc, accumulate, bias, activation,
                                 block_sums, 0);
            continue;
        }
        // vpmaddubsw's int16 pair sums stay exact for signed rows (|x| · sign(w, x): 2 · 127 · 127),
        // for unsigned 8-bit rows with 7-bit weights (2 · 255 · 63) and for 7-bit rows (2 · 127 · 127);
        // unsigned 8-bit rows with 8-bit weights take AVX-VNNI where the CPU has it, else the portable loops.
        const int avx_vnni = unsigned_rows && runs_avx_vnni_block();
        const int pairs_exact = !unsigned_rows || weight_limit <= 63 || activation_form == NLUKIT_INT8_UNSIGNED_7BIT;
        if (level >= 1 && (pairs_exact || avx_vnni)) {
            nlu_avx2_int8_gemm(block_a, lda, block_scales, activation_form, weight_limit, rows, k, packed, w_scales,
                               column_sums, n, first_panel, end_panel, block_c, ldc, accumulate, bias, activation,
                               block_sums, avx_vnni);
            continue;
        }
#endif
        nlu_baseline_int8_gemm(block_a, lda, block_scales, activation_form, weight_limit, rows, k, packed, w_scales,
                               column_sums, n, first_panel, end_panel, block_c, ldc, accumulate, bias, activation,
                               block_sums, !unsigned_rows && has_sdot());
    }
}
