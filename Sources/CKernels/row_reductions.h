// The maximum, the sum and the softmax's exponentials of a row of floats for one CPU level (included by a body header, with
// NLU_TARGET and NLU_NAME defined): 16 explicit partial results, which clang vectorizes without
// reassociation flags, and which round the same way at every level. Shared by the softmax, layer
// norm and INT8 attention bodies (which include activation_functions.h first).

static inline NLU_TARGET float NLU_NAME(row_max)(const float *v, long n) {
    float partial[16];
    for (int j = 0; j < 16; j++) partial[j] = -__builtin_inff();
    long i = 0;
    for (; i + 16 <= n; i += 16)
        for (int j = 0; j < 16; j++) partial[j] = v[i + j] > partial[j] ? v[i + j] : partial[j];
    float result = -__builtin_inff();
    for (int j = 0; j < 16; j++) result = partial[j] > result ? partial[j] : result;
    for (; i < n; i++) result = v[i] > result ? v[i] : result;
    return result;
}

static inline NLU_TARGET float NLU_NAME(row_sum)(const float *v, long n) {
    float partial[16] = {0};
    long i = 0;
    for (; i + 16 <= n; i += 16)
        for (int j = 0; j < 16; j++) partial[j] += v[i + j];
    float result = 0;
    for (int j = 0; j < 16; j++) result += partial[j];
    for (; i < n; i++) result += v[i];
    return result;
}

// x_i = e^(x_i - maximum) in place for x_i ≤ maximum, returning their sum (16 partial sums, as row_sum):
// the softmax's middle pass. `coarse` (a constant at each call, so each caller gets its own loop) takes
// the INT8 softmax's 7.5e-5 exp instead of the 1-ulp one.
static inline NLU_TARGET float NLU_NAME(exp_shifted_in_place)(float *x, long length, float maximum, int coarse) {
    float partial[16] = {0};
    long i = 0;
    for (; i + 16 <= length; i += 16)
        for (int j = 0; j < 16; j++) {
            const float e = coarse ? NLU_NAME(exp_nonpositive_coarse1)(x[i + j] - maximum)
                                   : NLU_NAME(exp_nonpositive1)(x[i + j] - maximum);
            x[i + j] = e;
            partial[j] += e;
        }
    float sum = 0;
    for (int j = 0; j < 16; j++) sum += partial[j];
    for (; i < length; i++) {
        x[i] = coarse ? NLU_NAME(exp_nonpositive_coarse1)(x[i] - maximum) : NLU_NAME(exp_nonpositive1)(x[i] - maximum);
        sum += x[i];
    }
    return sum;
}
