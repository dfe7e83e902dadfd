// The element functions of the activations, included once per CPU level (with NLU_TARGET and
// NLU_NAME defined) by kernels_body.h and packed_gemm_body.h, so that the standalone kernels and
// the GEMM's fused epilogue compute the same values. Branch-free scalar code: clang vectorizes
// the loops that call it for the level's vector width.

static inline NLU_TARGET float NLU_NAME(bits_to_float)(int bits) { float value; __builtin_memcpy(&value, &bits, 4); return value; }
static inline NLU_TARGET int NLU_NAME(float_to_bits)(float value) { int bits; __builtin_memcpy(&bits, &value, 4); return bits; }

// e^c ≈ p · 2^n for c in [-87.34, 88.72]: Cody-Waite reduction c = n ln2 + r, degree-6 polynomial
// (Cephes expf) in r; returns p and sets *n.
static inline NLU_TARGET float NLU_NAME(exp_reduced)(float c, int *n) {
    float shifted = c * 1.44269504f + 12582912.0f;   // rounds c/ln2 to an integer in the low bits
    float whole = shifted - 12582912.0f;
    float r = c - whole * 0.693359375f;
    r = r + whole * 2.12194440e-4f;
    float p = 1.9875691500e-4f;
    p = p * r + 1.3981999507e-3f;
    p = p * r + 8.3334519073e-3f;
    p = p * r + 4.1665795894e-2f;
    p = p * r + 1.6666665459e-1f;
    p = p * r + 5.0000001201e-1f;
    *n = NLU_NAME(float_to_bits)(shifted) - 0x4B400000;
    return p * (r * r) + r + 1.0f;
}

// e^x, 2^n built in the exponent bits as two factors so n = 128 and n = -126 stay normal. About 1 ulp.
static inline NLU_TARGET float NLU_NAME(exp1)(float x) {
    const float upper = 88.72283f, lower = -87.33654f;
    float c = x < lower ? lower : x;
    c = c > upper ? upper : c;
    int n32;
    float p = NLU_NAME(exp_reduced)(c, &n32);
    int half = n32 >> 1;
    float result = p * NLU_NAME(bits_to_float)((half + 127) << 23) * NLU_NAME(bits_to_float)((n32 - half + 127) << 23);
    result = x < lower ? 0.0f : result;
    result = x > upper ? __builtin_inff() : result;
    return result;
}

// e^x for x ≤ 0 (softmax's x - max): the same value as exp1 (n ≥ -126 keeps 2^n one normal factor,
// and a product by powers of two rounds once either way) with a quarter fewer operations.
static inline NLU_TARGET float NLU_NAME(exp_nonpositive1)(float x) {
    const float lower = -87.33654f;
    float c = x < lower ? lower : x;
    int n32;
    float p = NLU_NAME(exp_reduced)(c, &n32);
    float result = p * NLU_NAME(bits_to_float)((n32 + 127) << 23);
    return x < lower ? 0.0f : result;
}

// e^x for x ≤ 0 to about 7.5e-5 relative error: 2^t, t = x·log₂e, as 2^round(t) · p(t - round(t))
// with p a degree-3 fit of 2^f on [-0.5, 0.5] (relative error minimized). The quantized softmax keeps
// 1/255 of a row's largest probability, 50 times coarser, so it does not need the 1-ulp exp of the F32
// softmax, whose degree-6 polynomial and two-sided range made this loop twice as long. t is clamped
// at -126 (2^-126 is the smallest normal float; e^-87.3 and below count as 0 at 8 bits anyway).
static inline NLU_TARGET float NLU_NAME(exp_nonpositive_coarse1)(float x) {
    float t = x * 1.44269504f;
    t = t > -126.0f ? t : -126.0f;  // also maps NaN to -126
    const float shifted = t + 12582912.0f;
    const float f = t - (shifted - 12582912.0f);
    float p = 0.0551716648f;
    p = p * f + 0.242611125f;
    p = p * f + 0.693260968f;
    p = p * f + 0.999928057f;
    return p * NLU_NAME(bits_to_float)((NLU_NAME(float_to_bits)(shifted) - 0x4B400000 + 127) << 23);
}

// erf's rational part for a c already clamped to [-4, 4], written once for the scalar erf1 and the
// 16-lane erf16 of the GEMM epilogue (same operations in the same order, so the same values).
#define NLU_ERF_RATIONAL(T, c)                                                                   \
    ({                                                                                           \
        const T x2_ = (c) * (c);                                                                 \
        T p_ = x2_ * -2.72614225801306e-10f + 2.77068142495902e-08f;                             \
        p_ = p_ * x2_ - 2.10102402082508e-06f;                                                   \
        p_ = p_ * x2_ - 5.69250639462346e-05f;                                                   \
        p_ = p_ * x2_ - 7.34990630326855e-04f;                                                   \
        p_ = p_ * x2_ - 2.95459980854025e-03f;                                                   \
        p_ = p_ * x2_ - 1.60960333262415e-02f;                                                   \
        p_ = p_ * (c);                                                                           \
        T q_ = x2_ * -1.45660718464996e-05f - 2.13374055278905e-04f;                             \
        q_ = q_ * x2_ - 1.68282697438203e-03f;                                                   \
        q_ = q_ * x2_ - 7.37332916720468e-03f;                                                   \
        q_ = q_ * x2_ - 1.42647390514189e-02f;                                                   \
        p_ / q_;                                                                                 \
    })

// erf: x·P(x²)/Q(x²) on [-4, 4] (Eigen's generic_fast_erf_float); ±1 beyond. 4.2e-7 absolute.
static inline NLU_TARGET float NLU_NAME(erf1)(float x) {
    float c = x < -4.0f ? -4.0f : x;
    c = c > 4.0f ? 4.0f : c;
    return NLU_ERF_RATIONAL(float, c);
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

static inline NLU_TARGET float NLU_NAME(relu1)(float x) { return x < 0 ? 0.0f : x; }

// The recurrent cells' sigmoid and tanh (lstm_cell_body.h, gru_cell_body.h), about a third fewer
// operations than sigmoid1 and tanh1, whose cost bounded the LSTM's forward cell (25 µs a step
// with its data in cache). e^c with one 2^n factor: c is clamped to [-88, 88], so n stays in
// [-127, 127]; 2^-127 builds as 0, which only the clamped ends reach, where the results are 0 and 1
// either way. Inside that range e^c has exactly exp1's value, so sigmoid_cell1 equals sigmoid1 for
// |x| ≤ 87.
static inline NLU_TARGET float NLU_NAME(exp_cell1)(float x) {
    float c = x < -88.0f ? -88.0f : x;
    c = c > 88.0f ? 88.0f : c;
    int n32;
    const float p = NLU_NAME(exp_reduced)(c, &n32);
    return p * NLU_NAME(bits_to_float)((n32 + 127) << 23);
}

static inline NLU_TARGET float NLU_NAME(sigmoid_cell1)(float x) { return 1.0f / (1.0f + NLU_NAME(exp_cell1)(-x)); }

// tanh x = 1 - 2/(e^{2x} + 1) at every x: without tanh1's polynomial below 0.625 the error there is
// absolute (about 1e-7), not relative, which the cells' outputs and gradients (sums with terms of
// order 1) do not notice; the sign comes out of the formula.
static inline NLU_TARGET float NLU_NAME(tanh_cell1)(float x) { return 1.0f - 2.0f / (NLU_NAME(exp_cell1)(2.0f * x) + 1.0f); }

// 0.5·x·(1 + erf(x/√2)).
static inline NLU_TARGET float NLU_NAME(gelu1)(float x) { return 0.5f * x * (1.0f + NLU_NAME(erf1)(x * 0.70710678118654752f)); }

// 16 lanes at once for the GEMM epilogue, which holds a row segment in vector registers: the same
// operations as gelu1 and relu1, lane by lane. (Called through a loop of gelu1, clang kept the
// segment on the stack and the epilogue cost 12 % of the feed-forward GEMM.) Comparisons give
// lane masks, so NaN takes the same branch as in the scalar code.
typedef float nlu_act_v16 __attribute__((vector_size(64)));
typedef int nlu_act_mask16 __attribute__((vector_size(64)));
#define NLU_SELECT16(mask, a, b) ((nlu_act_v16)(((mask) & (nlu_act_mask16)(a)) | (~(mask) & (nlu_act_mask16)(b))))

// In place through a pointer: a 64-byte vector passed by value has no stable ABI below AVX-512.
static inline NLU_TARGET void NLU_NAME(gelu16)(nlu_act_v16 *value) {
    const nlu_act_v16 x = *value, u = x * 0.70710678118654752f;
    const nlu_act_v16 low = (nlu_act_v16){0} - 4.0f, high = (nlu_act_v16){0} + 4.0f;
    nlu_act_v16 c = NLU_SELECT16(u < low, low, u);
    c = NLU_SELECT16(c > high, high, c);
    const nlu_act_v16 erf = NLU_ERF_RATIONAL(nlu_act_v16, c);
    *value = 0.5f * x * (1.0f + erf);
}

static inline NLU_TARGET void NLU_NAME(relu16)(nlu_act_v16 *value) {
    const nlu_act_v16 zero = {0};
    *value = NLU_SELECT16(*value < zero, zero, *value);
}

// 0.5·x·(1 + tanh(u)) = x·sigmoid(2u): one exp, and exact in the negative tail.
static inline NLU_TARGET float NLU_NAME(gelu_tanh1)(float x) {
    return x * NLU_NAME(sigmoid1)(2.0f * (0.7978845608028654f * (x + 0.044715f * x * x * x)));
}
