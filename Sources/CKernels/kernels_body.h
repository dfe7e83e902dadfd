// The kernels' bodies, included once per CPU level by kernels.c with NLU_TARGET (a target
// attribute or nothing) and NLU_NAME(name) (the per-level function name) defined.
// Plain loops over contiguous floats with branch-free element functions: clang vectorizes them
// for the level's vector width. Reductions use 16 explicit partial sums/maxima, which vectorize
// without reassociation flags and give the same rounding on every level.

#include "activation_functions.h"
#include "gelu_pytorch.h"

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
NLU_TARGET static void NLU_NAME(relu)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(relu1)(x)); }
NLU_TARGET static void NLU_NAME(gelu)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(gelu1)(x)); }
NLU_TARGET static void NLU_NAME(gelu_tanh)(const float *src, float *dst, long n) { NLU_ELEMENTWISE(src, dst, n, x, NLU_NAME(gelu_tanh1)(x)); }

#include "row_reductions.h"

// Three passes per row over the destination: maximum, exp with the running sum, scale. The row
// (plus the mask) is first copied into the destination when out of place, so that every pass is a
// one-pointer loop: two pointers that may be equal make clang guard its vector loop with an
// overlap check that sends the in-place case (the attention scores) to the scalar loop, 10x slower.
NLU_TARGET static void NLU_NAME(softmax_rows)(const float *source, float *destination, long rows, long length,
                                               const float *mask, long mask_rows, long first_mask_row) {
    for (long r = 0; r < rows; r++) {
        const float *src = source + r * length;
        float *x = destination + r * length;
        if (mask) {
            const float *m = mask + ((first_mask_row + r) % mask_rows) * length;
            if (src == x) for (long i = 0; i < length; i++) x[i] += m[i];
            else for (long i = 0; i < length; i++) x[i] = src[i] + m[i];
        } else if (src != x) {
            for (long i = 0; i < length; i++) x[i] = src[i];
        }
        float maximum = NLU_NAME(row_max)(x, length);
        if (maximum == -__builtin_inff()) {
            for (long i = 0; i < length; i++) x[i] = 0;
            continue;
        }
        float scale = 1.0f / NLU_NAME(exp_shifted_in_place)(x, length, maximum, 0);
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
        NLU_ELEMENTWISE(x, y, length, value, value - shift);
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
        if (x == y) {  // one pointer: see softmax_rows
            for (long k = 0; k < length; k++) y[k] = (y[k] - mean) * inverse * weight[k] + bias[k];
        } else {
            for (long k = 0; k < length; k++) y[k] = (x[k] - mean) * inverse * weight[k] + bias[k];
        }
    }
}

#include "transpose_body.h"
#include "training_body.h"
#include "activation_gradients_body.h"
#include "dropout_mask_body.h"
