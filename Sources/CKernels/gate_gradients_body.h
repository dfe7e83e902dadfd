// The gate-gradient gathering of one step, included once per CPU level by gate_gradients.c.
// Rows are added in order, so every sum has the same rounding whatever the level or thread count.

#ifndef NLU_GATE_TYPES
#define NLU_GATE_TYPES
typedef float nlu_g16 __attribute__((vector_size(64), aligned(4)));   // a row's 16 floats (any alignment)
typedef float nlu_g16a __attribute__((vector_size(64)));              // a panel row's half (64-byte aligned)
#endif

// Full panels are written with non-temporal stores: the packed copy (13 MB for a character LSTM's
// layer) is read only after the last step, so writing it through the cache read every line from
// memory first and evicted the step's working set (the copy was 1.5 % of a training step).
NLU_TARGET static void NLU_NAME(gate_gradient_rows)(const float *restrict gradients, long rows, long width,
                                                     float *restrict packed, long k, long first_row,
                                                     float *restrict column_sums, const int32_t *tokens,
                                                     float *restrict token_sums) {
    const long full = width / NLUKIT_PANEL_WIDTH;
    // Panel rows are 128 bytes: 64-byte aligned when the matrix is (PackedMatrix's is; a caller's
    // buffer may not be, and a misaligned non-temporal store faults).
    const int aligned = ((unsigned long)packed & 63) == 0;
    for (long r = 0; r < rows; r++) {
        const float *restrict line = gradients + r * width;
        float *restrict sums = tokens ? token_sums + (long)tokens[r] * width : NULL;
        for (long p = 0; p < full; p++) {
            const long column = p * NLUKIT_PANEL_WIDTH;
            const nlu_g16 low = *(const nlu_g16 *)(line + column), high = *(const nlu_g16 *)(line + column + 16);
            *(nlu_g16 *)(column_sums + column) += low;
            *(nlu_g16 *)(column_sums + column + 16) += high;
            if (sums) {
                *(nlu_g16 *)(sums + column) += low;
                *(nlu_g16 *)(sums + column + 16) += high;
            }
            float *target = packed + p * k * NLUKIT_PANEL_WIDTH + (first_row + r) * NLUKIT_PANEL_WIDTH;
            if (aligned) {
                __builtin_nontemporal_store((nlu_g16a)low, (nlu_g16a *)target);
                __builtin_nontemporal_store((nlu_g16a)high, (nlu_g16a *)target + 1);
            } else {
                *(nlu_g16 *)target = low;
                *(nlu_g16 *)(target + 16) = high;
            }
        }
        for (long j = full * NLUKIT_PANEL_WIDTH; j < width; j++) {
            column_sums[j] += line[j];
            if (sums) sums[j] += line[j];
        }
    }
    if (full * NLUKIT_PANEL_WIDTH < width)  // the zero-padded last panel, through the cache
        nlukit_pack_rows(gradients + full * NLUKIT_PANEL_WIDTH, width, k, first_row, rows, width - full * NLUKIT_PANEL_WIDTH,
                         packed + full * k * NLUKIT_PANEL_WIDTH);
#if defined(__x86_64__)
    __builtin_ia32_sfence();  // non-temporal stores are weakly ordered: visible before whatever signals the step done
#endif
}
