// The feed-forward activations of a training pass and their derivatives, included once per CPU
// level by kernels_body.h (after activation_functions.h and gelu_pytorch.h). The exact-erf GELU is
// PyTorch's CPU computation bit for bit (gelu_pytorch.h); the tanh form follows transformers'
// formula with products and sums rounded separately (no FMA contraction), the same on every level.

// output = GELU(input), PyTorch's bits.
NLU_TARGET static void NLU_NAME(gelu_erf_forward)(const float *restrict input, float *restrict output, long n) {
    for (long i = 0; i < n; i++) output[i] = NLU_NAME(gelu_pytorch1)(input[i]);
}

// gradient = GELU′(input)·gradient, PyTorch's bits (oneDNN multiplies the derivative by the incoming gradient).
NLU_TARGET static void NLU_NAME(gelu_erf_backward)(const float *restrict input, float *restrict gradient, long n) {
    for (long i = 0; i < n; i++) gradient[i] = NLU_NAME(gelu_pytorch_derivative1)(input[i]) * gradient[i];
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
