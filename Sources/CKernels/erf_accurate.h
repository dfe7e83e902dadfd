// erf to about 1 ulp for the training pass's exact GELU (activation_gradients_body.h), included once
// per CPU level (with NLU_TARGET and NLU_NAME defined) after activation_functions.h. The inference
// kernels keep erf1 (4.2e-7 absolute, fewer operations); training needs PyTorch's Φ(x) more closely:
// a 20-step run of the QA fixture drifted 2.45e-7 from PyTorch's loss (bound 2e-7) with erf1's error.
//
// The approximation is the one of Arm's optimized-routines vector erff (math/aarch64/advsimd/erff.c):
// |x| rounded to the nearest r = k/128, d = |x| - r (exact, |d| ≤ 1/256), and the Taylor series of
// erf around r, erf(r + d) = erf(r) + s·(d - r·d² + (2r² - 1)/3·d³ + r(3 - 2r²)/6·d⁴), s = 2/√π·e^{-r²},
// with erf(r) and s read from 513-entry tables (r = 0 ... 4); the terms left out are below
// s·d⁵·|4r⁴ - 12r² + 3|/30 < 3e-11. Unlike Arm's (1.9 ulp), erf(r) is kept as a float plus its
// rounding error (a third table), added to the series before the float: that halves the error.
// Below |x| = 1/4, where erf(r)'s rounding would be a larger share of erf(x), erf(x) = x + x·P(x²),
// P the Maclaurin series of 2/√π·(1 - z/3 + z²/10 - ...) - 1 through z⁵ (the first term left out,
// 2/√π·x¹³/9360, is below 1e-11·|x|). Beyond 3.9375, erf rounds to ±1.
// Measured against double-precision erf over every float in [-4, 4]: at most 0.62 ulp (AVX2+FMA),
// 0.76 ulp (portable); TrainingActivationKernelTests checks a dense sweep at every level.

#ifndef NLU_ERF_TABLE_DEFINED
#define NLU_ERF_TABLE_DEFINED
enum { NLU_ERF_TABLE_SIZE = 513 };  // r = k/128 for k = 0 ... 512 (r = 4)
// erf(k/128) as a float and its rounding error, and 2/√π·e^{-(k/128)²}, from double precision; filled once by
// nlu_erf_table_fill (kernels.c) before any kernel that reads it runs.
static float nlu_erf_value[NLU_ERF_TABLE_SIZE];
static float nlu_erf_slope[NLU_ERF_TABLE_SIZE];
static float nlu_erf_tail[NLU_ERF_TABLE_SIZE];
#endif

static inline NLU_TARGET float NLU_NAME(erf_accurate1)(float x) {
    const float a = x < 0 ? -x : x;
    // Small |x|: x + x·P(x²), P(0) = 2/√π - 1 (the final addition rounds once, glibc's form).
    const float z = x * x;
    float p = -1.1283791670955126f / 1320.0f;
    p = p * z + 1.1283791670955126f / 216.0f;
    p = p * z - 1.1283791670955126f / 42.0f;
    p = p * z + 1.1283791670955126f / 10.0f;
    p = p * z - 1.1283791670955126f / 3.0f;
    p = p * z + 0.1283791670955126f;
    const float small = x + x * p;
    // Table and series; the index is taken from |x| clamped to 4 (NaN included) so it stays in range.
    const float clamped = a < 4.0f ? a : 4.0f;
    const int k = (int)(clamped * 128.0f + 0.5f);
    const float r = (float)k * (1.0f / 128.0f);
    const float d = clamped - r;
    const float c3 = (2.0f * r * r - 1.0f) * (1.0f / 3.0f);
    const float c4 = r * (3.0f - 2.0f * r * r) * (1.0f / 6.0f);
    const float series = d * (1.0f + d * (-r + d * (c3 + d * c4)));
    float large = nlu_erf_value[k] + (nlu_erf_tail[k] + nlu_erf_slope[k] * series);
    large = a >= 3.9375f ? 1.0f : large;
    large = x < 0 ? -large : large;
    const float result = a < 0.25f ? small : large;
    return x != x ? x : result;  // NaN stays NaN (its clamp above chose the last table entry)
}
