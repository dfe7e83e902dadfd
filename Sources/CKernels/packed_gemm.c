#include "PackedGEMM.h"
#include "CKernels.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>  // the AVX2 level's register-scheduled block
#elif defined(__aarch64__)
#include <arm_neon.h>  // the NEON block (arm64's baseline level)
#endif

// Vector-extension types: 16 floats map to one zmm (AVX-512), two ymm (AVX2) or four xmm,
// whatever level a function is compiled for. B panels are 64-byte aligned (see nlukit_pack);
// rows of c need not be.
typedef float nlu_v16 __attribute__((vector_size(64)));
typedef float nlu_v16u __attribute__((vector_size(64), aligned(4)));

#define NLU_LEVEL_BODY "packed_gemm_body.h"
#include "per_level.h"

long nlukit_packed_size(long k, long n) {
    return ((n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH) * k * NLUKIT_PANEL_WIDTH;
}

void nlukit_pack(const float *b, long ldb, int transposed, long k, long n, float *packed) {
    if (!transposed) {
        nlukit_pack_rows(b, ldb, k, 0, k, n, packed);
        return;
    }
    const long panels = (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH;
    for (long p = 0; p < panels; p++) {
        float *panel = packed + p * k * NLUKIT_PANEL_WIDTH;
        const long column = p * NLUKIT_PANEL_WIDTH;
        const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
        // Column j of the panel is row (column + j) of b: the panel is the transpose of b's `width`
        // rows, made by the per-level 8 × 8 register transpose. Element by element (one float written
        // to each of the panel's k lines per row of b) it took 2-3.5x as long (Zen 4, one core, warm
        // caches: 0.47 against 0.22 ms for a 1536 × 384 weight, 0.10 against 0.03 ms for 384 × 384),
        // and training packs every weight at every step.
        if (width < NLUKIT_PANEL_WIDTH) memset(panel, 0, sizeof(float) * k * NLUKIT_PANEL_WIDTH);
        nlukit_transpose(b + column * ldb, ldb, width, k, panel, NLUKIT_PANEL_WIDTH, 0);
    }
}

void nlukit_pack_rows(const float *b, long ldb, long k, long first_row, long rows, long n, float *packed) {
    const long panels = (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH;
    for (long p = 0; p < panels; p++) {
        float *panel = packed + p * k * NLUKIT_PANEL_WIDTH + first_row * NLUKIT_PANEL_WIDTH;
        const long column = p * NLUKIT_PANEL_WIDTH;
        const long width = n - column < NLUKIT_PANEL_WIDTH ? n - column : NLUKIT_PANEL_WIDTH;
        for (long r = 0; r < rows; r++) {
            float *line = panel + r * NLUKIT_PANEL_WIDTH;
            memcpy(line, b + r * ldb + column, sizeof(float) * width);
            for (long j = width; j < NLUKIT_PANEL_WIDTH; j++) line[j] = 0;
        }
    }
}

// Rows are taken in blocks of this many: a panel pass re-reads every row of A, and for a tall A
// (all the windows of a long document at once, K = 3072) the whole of A no longer stays in cache
// between panels. Measured on 2 threads at 3072 × 768 × 3072: 421 GFLOP/s unblocked, 501 blocked.
enum { NLU_PG_ROW_BLOCK = 384 };

void nlukit_packed_gemm(const float *a, long lda, long m, long k, const float *packed, long n,
                        long first_panel, long end_panel, float *c, long ldc, int accumulate,
                        const float *bias, int activation) {
    for (long start = 0; start < m; start += NLU_PG_ROW_BLOCK) {
        const long rows = m - start < NLU_PG_ROW_BLOCK ? m - start : NLU_PG_ROW_BLOCK;
        NLU_DISPATCH(packed_gemm, a + start * lda, lda, rows, k, packed, n, first_panel, end_panel, c + start * ldc, ldc,
                     accumulate, bias, activation)
    }
}
