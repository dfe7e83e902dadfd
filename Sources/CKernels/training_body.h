// The optimizer's element loops, included once per CPU level by kernels_body.h. Swift compiles for
// the baseline (SSE2): the global norm's serial sum was 0.7 ms of a character LSTM's 87 ms training
// step (0.1 ms here). Adam's pass is bound by memory at that model's size (26 MB read and written),
// but runs at the level's vector width (its square root and division) where the parameters fit in cache.

// Adam's update, PyTorch's order of operations, products and sums rounded separately (no FMA) so
// that every level gives the same parameters bit for bit. The square root is the elementwise builtin,
// not __builtin_sqrtf: that one may set errno for a negative input, so clang kept a scalar loop with
// a branch to libm's sqrtf per element, and the step ran at about one parameter per 10 cycles (15 %
// of a MiniLM fine-tuning step). Both are IEEE's correctly rounded square root: the same bits.
NLU_TARGET static void NLU_NAME(adam_step)(float *restrict parameters, const float *restrict gradients,
                                            float *restrict first, float *restrict second, long count, float beta1,
                                            float beta2, float step_size, float correction2, float epsilon,
                                            float l2, float shrink) {
#pragma clang fp contract(off)
    for (long i = 0; i < count; i++) {
        const float gradient = gradients[i] + l2 * parameters[i];
        first[i] = beta1 * first[i] + (1 - beta1) * gradient;
        second[i] = beta2 * second[i] + (1 - beta2) * gradient * gradient;
        parameters[i] = parameters[i] * shrink - step_size * first[i] / (__builtin_elementwise_sqrt(second[i]) / correction2 + epsilon);
    }
}

// Σ x² in blocks of 4,096: 16 float partial sums per block (the same on every level), then the
// block's total added in double, so that millions of squares keep their precision. The sum goes to
// *result (NLU_DISPATCH calls return nothing).
NLU_TARGET static void NLU_NAME(sum_of_squares)(const float *values, long count, double *result) {
    double total = 0;
    for (long start = 0; start < count; start += 4096) {
        const long end = count - start < 4096 ? count : start + 4096;
        float partial[16] = {0};
        long i = start;
        for (; i + 16 <= end; i += 16)
            for (int j = 0; j < 16; j++) partial[j] += values[i + j] * values[i + j];
        float block = 0;
        for (int j = 0; j < 16; j++) block += partial[j];
        for (; i < end; i++) block += values[i] * values[i];
        total += block;
    }
    *result = total;
}
