// The matrix transpose, included once per CPU level by kernels_body.h: 8 × 8 blocks transposed
// in registers (three rounds of shuffles of 8-float vectors: unpack pairs, pairs of pairs, halves),
// which clang maps to each level's shuffles. A scalar tiled loop ran at about 1.3 ns a float on the
// recurrent layers' inputs (3,200 × 256), a third of the time their weight-gradient products saved.

#ifndef NLU_TRANSPOSE_TYPES
#define NLU_TRANSPOSE_TYPES
typedef float nlu_t8 __attribute__((vector_size(32), aligned(4)));
#endif

NLU_TARGET static inline void NLU_NAME(transpose8)(const float *a, long lda, float *t, long ldt, int accumulate) {
    nlu_t8 r0 = *(const nlu_t8 *)(a), r1 = *(const nlu_t8 *)(a + lda), r2 = *(const nlu_t8 *)(a + 2 * lda),
           r3 = *(const nlu_t8 *)(a + 3 * lda), r4 = *(const nlu_t8 *)(a + 4 * lda), r5 = *(const nlu_t8 *)(a + 5 * lda),
           r6 = *(const nlu_t8 *)(a + 6 * lda), r7 = *(const nlu_t8 *)(a + 7 * lda);
    // Pairs of rows interleaved: t0 = r0[0] r1[0] r0[1] r1[1] | r0[4] r1[4] r0[5] r1[5], ...
    nlu_t8 t0 = __builtin_shufflevector(r0, r1, 0, 8, 1, 9, 4, 12, 5, 13);
    nlu_t8 t1 = __builtin_shufflevector(r0, r1, 2, 10, 3, 11, 6, 14, 7, 15);
    nlu_t8 t2 = __builtin_shufflevector(r2, r3, 0, 8, 1, 9, 4, 12, 5, 13);
    nlu_t8 t3 = __builtin_shufflevector(r2, r3, 2, 10, 3, 11, 6, 14, 7, 15);
    nlu_t8 t4 = __builtin_shufflevector(r4, r5, 0, 8, 1, 9, 4, 12, 5, 13);
    nlu_t8 t5 = __builtin_shufflevector(r4, r5, 2, 10, 3, 11, 6, 14, 7, 15);
    nlu_t8 t6 = __builtin_shufflevector(r6, r7, 0, 8, 1, 9, 4, 12, 5, 13);
    nlu_t8 t7 = __builtin_shufflevector(r6, r7, 2, 10, 3, 11, 6, 14, 7, 15);
    // Four rows' column c in each 128-bit half: s0 = column 0 | column 4 of rows 0-3, ...
    nlu_t8 s0 = __builtin_shufflevector(t0, t2, 0, 1, 8, 9, 4, 5, 12, 13);
    nlu_t8 s1 = __builtin_shufflevector(t0, t2, 2, 3, 10, 11, 6, 7, 14, 15);
    nlu_t8 s2 = __builtin_shufflevector(t1, t3, 0, 1, 8, 9, 4, 5, 12, 13);
    nlu_t8 s3 = __builtin_shufflevector(t1, t3, 2, 3, 10, 11, 6, 7, 14, 15);
    nlu_t8 s4 = __builtin_shufflevector(t4, t6, 0, 1, 8, 9, 4, 5, 12, 13);
    nlu_t8 s5 = __builtin_shufflevector(t4, t6, 2, 3, 10, 11, 6, 7, 14, 15);
    nlu_t8 s6 = __builtin_shufflevector(t5, t7, 0, 1, 8, 9, 4, 5, 12, 13);
    nlu_t8 s7 = __builtin_shufflevector(t5, t7, 2, 3, 10, 11, 6, 7, 14, 15);
    nlu_t8 columns[8] = {
        __builtin_shufflevector(s0, s4, 0, 1, 2, 3, 8, 9, 10, 11), __builtin_shufflevector(s1, s5, 0, 1, 2, 3, 8, 9, 10, 11),
        __builtin_shufflevector(s2, s6, 0, 1, 2, 3, 8, 9, 10, 11), __builtin_shufflevector(s3, s7, 0, 1, 2, 3, 8, 9, 10, 11),
        __builtin_shufflevector(s0, s4, 4, 5, 6, 7, 12, 13, 14, 15), __builtin_shufflevector(s1, s5, 4, 5, 6, 7, 12, 13, 14, 15),
        __builtin_shufflevector(s2, s6, 4, 5, 6, 7, 12, 13, 14, 15), __builtin_shufflevector(s3, s7, 4, 5, 6, 7, 12, 13, 14, 15)};
    for (int j = 0; j < 8; j++) {
        nlu_t8 *out = (nlu_t8 *)(t + j * ldt);
        *out = accumulate ? *out + columns[j] : columns[j];
    }
}

NLU_TARGET static inline void NLU_NAME(transpose1)(float value, float *target, int accumulate) {
    *target = accumulate ? *target + value : value;
}

// Tiles of 32 × 32 (8 × 8 blocks) keep both sides' lines in L1; the edges that are not whole
// blocks go element by element.
NLU_TARGET static void NLU_NAME(transpose)(const float *a, long lda, long rows, long columns, float *t, long ldt,
                                            int accumulate) {
    enum { TILE = 32 };
    for (long i0 = 0; i0 < rows; i0 += TILE) {
        const long i1 = rows - i0 < TILE ? rows : i0 + TILE;
        for (long j0 = 0; j0 < columns; j0 += TILE) {
            const long j1 = columns - j0 < TILE ? columns : j0 + TILE;
            long i = i0;
            for (; i + 8 <= i1; i += 8) {
                long j = j0;
                for (; j + 8 <= j1; j += 8) NLU_NAME(transpose8)(a + i * lda + j, lda, t + j * ldt + i, ldt, accumulate);
                for (; j < j1; j++)
                    for (long ii = i; ii < i + 8; ii++) NLU_NAME(transpose1)(a[ii * lda + j], t + j * ldt + ii, accumulate);
            }
            for (; i < i1; i++)
                for (long j = j0; j < j1; j++) NLU_NAME(transpose1)(a[i * lda + j], t + j * ldt + i, accumulate);
        }
    }
}
