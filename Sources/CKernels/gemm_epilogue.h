// The fused epilogue of one row segment of a GEMM (at most NLUKIT_PANEL_WIDTH columns), shared by
// the F32 packed GEMM and the INT8 GEMM so that both apply bias, residual and activation with
// the same code. Included once per CPU level (NLU_TARGET and NLU_NAME defined), after
// activation_functions.h.

// Applies `activation` to the 32 floats of `values` (fixed trip count: fully vectorized).
#define NLU_APPLY(values, function)                                                               \
    for (int j_ = 0; j_ < NLUKIT_PANEL_WIDTH; j_++) (values)[j_] = NLU_NAME(function)((values)[j_])

// c[0..<width] = act((accumulate ? c : 0) + sums + bias) over a 32-float buffer. Out of line:
// inlined into every register block it would bloat the plain path's code.
__attribute__((noinline)) NLU_TARGET static void NLU_NAME(store_epilogue)(float *c, const float *sums, long width,
                                                                          int accumulate, const float *bias,
                                                                          int activation) {
    float values[NLUKIT_PANEL_WIDTH];
    memcpy(values, sums, sizeof values);
    if (width == NLUKIT_PANEL_WIDTH) {
        if (accumulate) for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) values[j] = c[j] + values[j];
        if (bias) for (int j = 0; j < NLUKIT_PANEL_WIDTH; j++) values[j] = values[j] + bias[j];
    } else {  // a partial panel: c and bias end at `width`; the padding columns are computed, not stored
        if (accumulate) for (long j = 0; j < width; j++) values[j] = c[j] + values[j];
        if (bias) for (long j = 0; j < width; j++) values[j] = values[j] + bias[j];
    }
    switch (activation) {
    case NLUKIT_ACTIVATION_GELU: NLU_APPLY(values, gelu1); break;
    case NLUKIT_ACTIVATION_GELU_TANH: NLU_APPLY(values, gelu_tanh1); break;
    case NLUKIT_ACTIVATION_RELU: NLU_APPLY(values, relu1); break;
    default: break;
    }
    memcpy(c, values, sizeof(float) * width);
}
#undef NLU_APPLY
