// The fused epilogue of one row segment of a GEMM (at most NLUKIT_PANEL_WIDTH columns), shared by
// the F32 packed GEMM and the INT8 GEMM so that both apply bias, residual and activation with
// the same code: store_row in vector registers for whole panels, store_epilogue out of line for
// the rest. Included once per CPU level (NLU_TARGET and NLU_NAME defined), after
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

// 16 floats at any 4-byte alignment (rows of c and bias need not be 64-byte aligned).
typedef float nlu_epilogue_v16u __attribute__((vector_size(64), aligned(4)));

// Writes one row segment of a panel (`width` ≤ 32 columns) while its sums are still in registers:
// whole panels inline in vector registers, else (a partial panel, the tanh GELU) the out-of-line epilogue.
__attribute__((always_inline)) NLU_TARGET static inline void NLU_NAME(store_row)(float *c, const nlu_act_v16 *acc, long width,
                                                                                 int accumulate, const float *bias,
                                                                                 int activation) {
    if (width == NLUKIT_PANEL_WIDTH && activation != NLUKIT_ACTIVATION_GELU_TANH) {
        // A whole panel's segment in registers: (c +) sums (+ bias), then the activation, in the
        // epilogue's order of operations. The tanh GELU (one exp, selects) stays out of line.
        nlu_epilogue_v16u *out = (nlu_epilogue_v16u *)c;
        nlu_act_v16 v0 = acc[0], v1 = acc[1];
        if (accumulate) { v0 = out[0] + v0; v1 = out[1] + v1; }
        if (bias) { const nlu_epilogue_v16u *b = (const nlu_epilogue_v16u *)bias; v0 = v0 + b[0]; v1 = v1 + b[1]; }
        if (activation == NLUKIT_ACTIVATION_GELU) { NLU_NAME(gelu16)(&v0); NLU_NAME(gelu16)(&v1); }
        else if (activation == NLUKIT_ACTIVATION_RELU) { NLU_NAME(relu16)(&v0); NLU_NAME(relu16)(&v1); }
        out[0] = v0; out[1] = v1;
        return;
    }
    NLU_NAME(store_epilogue)(c, (const float *)acc, width, accumulate, bias, activation);
}

