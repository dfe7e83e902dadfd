// The maximum and the sum of a row of floats for one CPU level (included by a body header, with
// NLU_TARGET and NLU_NAME defined): 16 explicit partial results, which clang vectorizes without
// reassociation flags, and which round the same way at every level. Shared by the softmax, layer
// norm and INT8 attention bodies.

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

