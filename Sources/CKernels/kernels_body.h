// The kernels' bodies, included once per CPU level by kernels.c with NLU_TARGET (a target
// attribute or nothing) and NLU_NAME(name) (the per-level function name) defined.
// Plain loops over contiguous floats with branch-free element functions: clang vectorizes them
// for the level's vector width. Reductions use 16 explicit partial sums/maxima, which vectorize
// without reassociation flags and give the same rounding on every level.

static inline NLU_TARGET float NLU_NAME(bits_to_float)(int bits) { float value; __builtin_memcpy(&value, &bits, 4); return value; }
static inline NLU_TARGET int NLU_NAME(float_to_bits)(float value) { int bits; __builtin_memcpy(&bits, &value, 4); return bits; }

// e^x: Cody-Waite reduction x = n ln2 + r, degree-6 polynomial (Cephes expf), 2^n built in the
// exponent bits as two factors so n = 128 and n = -126 stay normal. About 1 ulp.
static inline NLU_TARGET float NLU_NAME(exp1)(float x) {
    const float upper = 88.72283f, lower = -87.33654f;
    float c = x < lower ? lower : x;
    c = c > upper ? upper : c;
    float shifted = c * 1.44269504f + 12582912.0f;   // rounds c/ln2 to an integer in the low bits
    float n = shifted - 12582912.0f;
    float r = c - n * 0.693359375f;
    r = r + n * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    p = p * (r * r) + r + 1.0f;
    int n32 = NLU_NAME(float_to_bits)(shifted) - 0x4B400000;
    int half = n32 >> 1;
    float result = p * NLU_NAME(bits_to_float)((half + 127) << 23) * NLU_NAME(bits_to_float)((n32 - half + 127) << 23);
    result = x < lower ? 0.0f : result;
    result = x > upper ? __builtin_inff() : result;
    return result;
}

// erf: x·P(x²)/Q(x²) on [-4, 4] (Eigen's generic_fast_erf_float); ±1 beyond. 4.2e-7 absolute.
static inline NLU_TARGET float NLU_NAME(erf1)(float x) {
    float c = x < -4.0f ? -4.0f : x;
    c = c > 4.0f ? 4.0f : c;
    float x2 = c * c;
    float p = -2.72614225801306e-10f;
    p = p * x2 + 2.77068142495902e-08f;
    p = p * x2 - 2.10102402082508e-06f;
    p = p * x2 - 5.69250639462346e-05f;
    p = p * x2 - 7.34990630326855e-04f;
    p = p * x2 - 2.95459980854025e-03f;
    p = p * x2 - 1.60960333262415e-02f;
    p = p * c;
    float q = -1.45660718464996e-05f;
    q = q * x2 - 2.13374055278905e-04f;
    q = q * x2 - 1.68282697438203e-03f;
    q = q * x2 - 7.37332916720468e-03f;
    q = q * x2 - 1.42647390514189e-02f;
    return p / q;
}

// tanh: odd polynomial below 0.625 (Cephes tanhf, keeps relative accuracy near 0), else
// 1 - 2/(e^{2|x|} + 1), which saturates to 1 without overflow.
static inline NLU_TARGET float NLU_NAME(tanh1)(float x) {
    float magnitude = x < 0 ? -x : x;
    float z = x * x;
    float small = -5.70498872745e-3f;
    small = small * z + 2.06390887954e-2f;
    small = small * z - 5.37397155531e-2f;
    small = small * z + 1.33314422036e-1f;
    small = small * z - 3.33332819422e-1f;
    small = small * z * x + x;
    float large = 1.0f - 2.0f / (NLU_NAME(exp1)(2.0f * magnitude) + 1.0f);
    large = x < 0 ? -large : large;
    return magnitude < 0.625f ? small : large;
}

static inline NLU_TARGET float NLU_NAME(sigmoid1)(float x) { return 1.0f / (1.0f + NLU_NAME(exp1)(-x)); }

// Element-wise loops. In place (src == dst) the loop reads and writes through one pointer, which
// clang vectorizes; with two pointers it guards the vector loop with an overlap check that sends an
// exact alias to the scalar loop, 10-100x slower. Defined once for all CPU levels, hence the #ifndef.
#ifndef NLU_ELEMENTWISE
#define NLU_ELEMENTWISE(src, dst, n, x, expression)                                                 \
    do {                                                                                            \
        if ((const float *)(src) == (dst)) {                                                        \
            float *inplace_ = (dst);                                                                \
            for (long i_ = 0; i_ < (n); i_++) { float x = inplace_[i_]; inplace_[i_] = (expression); } \
        } else {                                                                                    \
            for (long i_ = 0; i_ < (n); i_++) { float x = (src)[i_]; (dst)[i_] = (expression); }     \
        }                                                                                           \
    } while (0)
#endif

NLU_TARGET static void NLU_NAME(exp)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(exp1)(x)); }
NLU_TARGET static void NLU_NAME(erf)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(erf1)(x)); }
NLU_TARGET static void NLU_NAME(tanh)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(tanh1)(x)); }
NLU_TARGET static void NLU_NAME(sigmoid)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(sigmoid1)(x)); }
NLU_TARGET static void NLU_NAME(relu)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, x < 0 ? 0.0f : x); }

NLU_TARGET static void NLU_NAME(gelu)(const float *src, float *dst, long n) {
    NLU_ELEMENTWISE(src, dst, n, x, 0.5f * x * (1.0f + NLU_NAME(erf1)(x * 0.70710678118654752f)));
}

// 0.5·x·(1 + tanh(u)) = x·sigmoid(2u): one exp, and exact in the negative tail.
NLU_TARGET static void NLU_NAME(gelu_tanh)(const float *src, float *dst, long n) {
    NLU_ELEMENTWISE(src, dst, n, x, x * NLU_NAME(sigmoid1)(2.0f * (0.7978845608028654f * (x + 0.044715f * x * x * x))));
}

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

// Three passes per row: maximum, exp with the running sum, scale. With a mask the first pass
// also writes source + mask into the destination, which the next passes read.
NLU_TARGET static void NLU_NAME(softmax_rows)(const float *source, float *destination, long rows, long length,
                                               const float *mask, long mask_rows, long first_mask_row) {
    for (long r = 0; r < rows; r++) {
        const float *src = source + r * length;
        float *x = destination + r * length;
        if (mask) {
            const float *m = mask + ((first_mask_row + r) % mask_rows) * length;
            for (long i = 0; i < length; i++) x[i] = src[i] + m[i];
            src = x;
        }
        float maximum = NLU_NAME(row_max)(src, length);
        if (maximum == -__builtin_inff()) {
            for (long i = 0; i < length; i++) x[i] = 0;
            continue;
        }
        float partial[16] = {0};
        long i = 0;
        for (; i + 16 <= length; i += 16)
            for (int j = 0; j < 16; j++) {
                float e = NLU_NAME(exp1)(src[i + j] - maximum);
                x[i + j] = e;
                partial[j] += e;
            }
        float sum = 0;
        for (int j = 0; j < 16; j++) sum += partial[j];
        for (; i < length; i++) {
            x[i] = NLU_NAME(exp1)(src[i] - maximum);
            sum += x[i];
        }
        float scale = 1.0f / sum;
        for (long k = 0; k < length; k++) x[k] *= scale;
    }
}

NLU_TARGET static void NLU_NAME(log_softmax_rows)(const float *source, float *destination, long rows, long length) {
    for (long r = 0; r < rows; r++) {
        const float *x = source + r * length;
        float *y = destination + r * length;
        float maximum = NLU_NAME(row_max)(x, length);
        if (maximum == -__builtin_inff()) {  // all -inf: log-probabilities stay -inf
            for (long k = 0; k < length; k++) y[k] = x[k];
            continue;
        }
        float partial[16] = {0};
        long i = 0;
        for (; i + 16 <= length; i += 16)
            for (int j = 0; j < 16; j++) partial[j] += NLU_NAME(exp1)(x[i + j] - maximum);
        float sum = 0;
        for (int j = 0; j < 16; j++) sum += partial[j];
        for (; i < length; i++) sum += NLU_NAME(exp1)(x[i] - maximum);
        float shift = maximum + __builtin_logf(sum);
        for (long k = 0; k < length; k++) y[k] = x[k] - shift;
    }
}

// Two passes (mean, then squared deviations) avoid the cancellation of E[x²] - E[x]².
NLU_TARGET static void NLU_NAME(layer_norm_rows)(const float *source, float *destination, long rows, long length,
                                                  const float *weight, const float *bias, float epsilon) {
    for (long r = 0; r < rows; r++) {
        const float *x = source + r * length;
        float *y = destination + r * length;
        float mean = NLU_NAME(row_sum)(x, length) / (float)length;
        float partial[16] = {0};
        long i = 0;
        for (; i + 16 <= length; i += 16)
            for (int j = 0; j < 16; j++) partial[j] += (x[i + j] - mean) * (x[i + j] - mean);
        float squares = 0;
        for (int j = 0; j < 16; j++) squares += partial[j];
        for (; i < length; i++) squares += (x[i] - mean) * (x[i] - mean);
        float inverse = 1.0f / __builtin_sqrtf(squares / (float)length + epsilon);
        for (long k = 0; k < length; k++) y[k] = (x[k] - mean) * inverse * weight[k] + bias[k];
    }
}
