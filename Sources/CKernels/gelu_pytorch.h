// The exact-erf GELU of a training pass and its derivative as PyTorch computes them on a CPU, bit for bit:
// included once per CPU level (with NLU_TARGET, NLU_NAME and NLU_LEVEL defined) after activation_functions.h.
//
// PyTorch's float32 `F.gelu` and `gelu_backward` on a contiguous CPU tensor do not run ATen's vectorized
// erf: with oneDNN built in (the PyPI wheels) they call oneDNN's eltwise `gelu_erf`, whose AVX2 JIT code
// (src/cpu/x64/injectors/jit_uni_eltwise_injector.cpp, v3.x, Apache-2.0) is Abramowitz & Stegun 7.1.26
// with oneDNN's own exp: a floor-based reduction by one ln 2 and a degree-5 polynomial, a few ulps off
// e^x. Our fixtures' PyTorch runs were made there (scripts/fixtures/gelu_pytorch.py measures it: over
// 35 million inputs this formula gives PyTorch's bits for every one, while the same formula with a
// correctly rounded exp matches 91.6 % of N(0, 3) inputs and misses by up to 10^5 ulps where 1 - erf
// cancels). So these functions compute that sequence: the same constants (the float bit patterns below,
// oneDNN's tables), each product, sum and fused multiply-add rounded where oneDNN's instructions round.
// The AVX2 and AVX-512 levels use the FMA instruction; the portable level, which has none, gets the
// same roundings from double arithmetic (fma_exact1). Every level therefore gives the same bits.
// (On AVX-512 machines oneDNN's forward takes another path, a piecewise minimax erf: PyTorch there
// differs from these values by about an ulp of the result; docs/fine-tuning.md.)
// Each function turns off clang's contraction of a·b + c into an FMA (on by default within an
// expression): which operations fuse is part of the value. They are always inlined: at the portable
// level the emulated FMAs make them big enough that clang called them, at twice the instructions.
// Measured with callgrind per element, forward plus backward: 14 instructions at AVX2 (8 lanes), 411
// at the portable level (not vectorized), against 206 for the former loops over libm's erff and expf.

// a·b + c rounded once. Without an FMA unit: a·b is exact in double (24 + 24 bits); the double sum
// s = a·b + c is made round-to-odd (when inexact and even, stepped one double ulp towards the exact
// value, from the TwoSum error e), and a round-to-odd value with 53 ≥ 24 + 2 bits rounds to the float
// nearest the exact a·b + c. Infinite or NaN sums give a NaN e, left alone.
static inline __attribute__((always_inline)) NLU_TARGET float NLU_NAME(fma_exact1)(float a, float b, float c) {
#pragma clang fp contract(off)
#if NLU_LEVEL >= 1
    return __builtin_fmaf(a, b, c);
#else
    const double p = (double)a * (double)b, s = p + (double)c;
    const double v = s - p;
    const double e = (p - (s - v)) + ((double)c - v);
    long long bits;
    __builtin_memcpy(&bits, &s, 8);
    const long long inexactEven = ((e > 0) | (e < 0)) & ((bits & 1) == 0);
    const long long away = (e > 0) == (s > 0);   // the exact value lies further from zero than s
    bits += inexactEven * (away ? 1 : -1);
    double odd;
    __builtin_memcpy(&odd, &bits, 8);
    return (float)odd;
#endif
}

// oneDNN's e^x: clamp x to [ln FLT_MIN, ln FLT_MAX] (NaN to the lower end), n = floor(x·log₂e + ½),
// r = x - n·ln2 by one FMA, p(r) = 1 + r(p1 + r(p2 + ... p5)) by FMAs, result p·2^(n-1)·2 (2^(n-1) so
// that n = 128 builds), 0 below ln FLT_MIN. The floor is a truncation corrected by one: the clamped
// argument keeps |x·log₂e + ½| below 129.
static inline __attribute__((always_inline)) NLU_TARGET float NLU_NAME(exp_onednn1)(float x) {
#pragma clang fp contract(off)
    const float low = NLU_NAME(bits_to_float)((int)0xc2aeac50), high = NLU_NAME(bits_to_float)(0x42b17218);
    float c = x > low ? x : low;
    c = c < high ? c : high;
    const float shifted = c * NLU_NAME(bits_to_float)(0x3fb8aa3b) + 0.5f;   // log₂e
    float n = (float)(int)shifted;
    n = n > shifted ? n - 1.0f : n;
    const float r = NLU_NAME(fma_exact1)(-n, NLU_NAME(bits_to_float)(0x3f317218), c);   // ln 2
    float p = NLU_NAME(bits_to_float)(0x3c07cfce);
    p = NLU_NAME(fma_exact1)(p, r, NLU_NAME(bits_to_float)(0x3d2b9d0d));
    p = NLU_NAME(fma_exact1)(p, r, NLU_NAME(bits_to_float)(0x3e2aad40));
    p = NLU_NAME(fma_exact1)(p, r, NLU_NAME(bits_to_float)(0x3efffee3));
    p = NLU_NAME(fma_exact1)(p, r, NLU_NAME(bits_to_float)(0x3f7ffffb));
    p = NLU_NAME(fma_exact1)(p, r, 1.0f);
    const float half_scale = x < low ? 0.0f : NLU_NAME(bits_to_float)(((int)n - 1 + 127) << 23);
    return p * half_scale * 2.0f;
}

// erf(R) = sign(R)·(1 - W·P(W)·e^{-R²}), W = 1/(0.3275911·|R| + 1), P of degree 4 (A&S's p1 ... p5),
// with the sign moved over as a bit. Also returns Q = e^{-R²}, which the derivative reuses.
static inline __attribute__((always_inline)) NLU_TARGET float NLU_NAME(erf_pytorch1)(float R, float *Q) {
#pragma clang fp contract(off)
    const float W = 1.0f / NLU_NAME(fma_exact1)(NLU_NAME(bits_to_float)(0x3ea7ba05), __builtin_fabsf(R), 1.0f);
    const float q = NLU_NAME(exp_onednn1)(-(R * R));
    float p = NLU_NAME(bits_to_float)(0x3f87dc22);                      //  1.061405429
    p = NLU_NAME(fma_exact1)(p, W, NLU_NAME(bits_to_float)((int)0xbfba00e3));  // -1.453152027
    p = NLU_NAME(fma_exact1)(p, W, NLU_NAME(bits_to_float)(0x3fb5f0e3));  //  1.421413741
    p = NLU_NAME(fma_exact1)(p, W, NLU_NAME(bits_to_float)((int)0xbe91a98e));  // -0.284496736
    p = NLU_NAME(fma_exact1)(p, W, NLU_NAME(bits_to_float)(0x3e827906));  //  0.254829592
    const float magnitude = NLU_NAME(fma_exact1)(-q * W, p, 1.0f);
    *Q = q;
    return NLU_NAME(bits_to_float)(NLU_NAME(float_to_bits)(magnitude) ^ (NLU_NAME(float_to_bits)(R) & (int)0x80000000));
}

// GELU(s) = S + S·erf(s/√2), S = s/2, the last step one FMA.
static inline __attribute__((always_inline)) NLU_TARGET float NLU_NAME(gelu_pytorch1)(float s) {
#pragma clang fp contract(off)
    float q;
    const float erf = NLU_NAME(erf_pytorch1)(s * NLU_NAME(bits_to_float)(0x3f3504f3), &q);   // 1/√2
    const float half = s * 0.5f;
    return NLU_NAME(fma_exact1)(erf, half, half);
}

// GELU′(s) = (R/√π·e^{-R²} + ½) + ½·erf(R), R = s/√2, the last step one FMA.
static inline __attribute__((always_inline)) NLU_TARGET float NLU_NAME(gelu_pytorch_derivative1)(float s) {
#pragma clang fp contract(off)
    const float R = s * NLU_NAME(bits_to_float)(0x3f3504f3);
    float q;
    const float erf = NLU_NAME(erf_pytorch1)(R, &q);
    const float T = R * NLU_NAME(bits_to_float)(0x3f106eba) * q;   // 1/√π
    return NLU_NAME(fma_exact1)(erf, 0.5f, T + 0.5f);
}
