// The gate-gradient gathering of one step, included once per CPU level by gate_gradients.c.
// Rows are added in order, so every sum has the same rounding whatever the level or thread count.

NLU_TARGET static void NLU_NAME(gate_gradient_rows)(const float *restrict gradients, long rows, long width,
                                                     float *restrict packed, long k, long first_row,
                                                     float *restrict column_sums, const int32_t *tokens,
                                                     float *restrict token_sums) {
    for (long r = 0; r < rows; r++) {
        const float *restrict line = gradients + r * width;
        for (long j = 0; j < width; j++) column_sums[j] += line[j];
        if (tokens) {
            float *restrict sums = token_sums + (long)tokens[r] * width;
            for (long j = 0; j < width; j++) sums[j] += line[j];
        }
    }
    nlukit_pack_rows(gradients, width, k, first_row, rows, width, packed);
}
