// The feed-forward activations of a training pass and their derivatives, included once per CPU
// level by kernels_body.h (after activation_functions.h and erf_accurate.h). Each formula is
// PyTorch's (`GeluKernel.cpp`, `GeluBackwardKernel`) in Swift's former order of operations, with
// products and sums rounded separately (no FMA contraction), so every level gives the same values:
// the encoder's 20-step loss is checked against PyTorch's within 2e-7, and these loops were 17.6 % of
// a MiniLM training step as scalar Swift calling libm's erff and expf.

// x·Φ(x) with Φ(x) = 0.5·(1 + erf(x·√½)), computed as (0.5·x)·(1 + erf(x·√½)).
NLU_TARGET static void NLU_NAME(gelu_erf_forward)(const float *restrict input, float *restrict output, long n) {
#pragma clang fp contract(off)
    for (long i = 0; i < n; i++) {
        const float x = input[i];
        output[i] = 0.5f * x * (1.0f + NLU_NAME(erf_accurate1)(x * 0.70710678118654752f));
    }
}

// gradient *= Φ(x) + x·φ(x), φ(x) = e^{-x²/2}/√(2π).
NLU_TARGET static void NLU_NAME(gelu_erf_backward)(const float *restrict input, float *restrict gradient, long n) {
#pragma clang fp contract(off)
    for (long i = 0; i < n; i++) {
        const float x = input[i];
        const float cdf = 0.5f * (1.0f + NLU_NAME(erf_accurate1)(x * 0.70710678118654752f));
        gradient[i] *= cdf + x * 0.3989422804014327f * NLU_NAME(exp1)(-0.5f * x * x);
    }
}

// 0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³))), transformers' `gelu_new` as written (the inference
// kernel's x·sigmoid(2u) is the same function with another rounding).
NLU_TARGET static void NLU_NAME(gelu_tanh_forward)(const float *restrict input, float *restrict output, long n) {
#pragma clang fp contract(off)
    for (long i = 0; i < n; i++) {
        const float x = input[i];
        output[i] = 0.5f * x * (1.0f + NLU_NAME(tanh1)(0.7978845608028654f * (x + 0.044715f * x * x * x)));
    }
}

// gradient *= 0.5·(1 + t) + 0.5·x·(1 - t²)·√(2/π)·(1 + 3·0.044715·x²), t = tanh(√(2/π)·(x + 0.044715·x³)).
NLU_TARGET static void NLU_NAME(gelu_tanh_backward)(const float *restrict input, float *restrict gradient, long n) {
#pragma clang fp contract(off)
    for (long i = 0; i < n; i++) {
        const float x = input[i];
        const float t = NLU_NAME(tanh1)(0.7978845608028654f * (x + 0.044715f * x * x * x));
        const float inner = 0.7978845608028654f * (1.0f + 3.0f * 0.044715f * x * x);
        gradient[i] *= 0.5f * (1.0f + t) + 0.5f * x * (1.0f - t * t) * inner;
    }
}

// gradient = 0 where x ≤ 0.
NLU_TARGET static void NLU_NAME(relu_backward)(const float *restrict input, float *restrict gradient, long n) {
    for (long i = 0; i < n; i++) gradient[i] = input[i] <= 0 ? 0.0f : gradient[i];
}

// erf alone, for the accuracy test of erf_accurate1.
NLU_TARGET static void NLU_NAME(erf_accurate)(const float *src, float *dst, long n) {
    NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(erf_accurate1)(x));
}
