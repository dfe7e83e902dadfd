#include "CKernels.h"
#include <math.h>
#include <stdlib.h>
#include <string.h>

// Each kernel is compiled once per CPU level from kernels_body.h; the public functions call the
// best level the CPU supports, detected once.

#define NLU_LEVEL_BODY "kernels_body.h"
#include "per_level.h"

static int level = -1;  // decided once; atomics because threads may race to set it
// A level this thread runs at instead (CPULevel.with), or -1. Per thread so that a test or
// benchmark that switches levels never changes what kernels on other threads compute; pool
// workers take the level of the job they run (thread_pool.c).
static _Thread_local int thread_level = -1;

// What the CPU can run, from CPUID.
static int cpu_level(void) {
#ifdef NLU_MULTI_LEVEL
    __builtin_cpu_init();
    int detected = 0;
    if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512dq")
        && __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512bw")) detected = 2;
    else if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) detected = 1;
    return detected;
#else
    return 0;
#endif
}

int nlukit_cpu_level(void) { return cpu_level(); }

int nlukit_parse_cpu_level(const char *name, int supported) {
    int requested;
    if (strcmp(name, "avx512") == 0) requested = 2;
    else if (strcmp(name, "avx2") == 0) requested = 1;
    else if (strcmp(name, "portable") == 0) requested = 0;
    else return NLUKIT_CPU_LEVEL_UNKNOWN;
    return requested > supported ? NLUKIT_CPU_LEVEL_UNSUPPORTED : requested;
}

// The level at start: NLUKIT_CPU_LEVEL when it names a level this CPU runs, else the CPU's best
// (a refused value is reported by nlukit_parse_cpu_level to whoever checks, never executed).
static int starting_level(void) {
    const int supported = cpu_level();
    const char *requested = getenv("NLUKIT_CPU_LEVEL");
    if (requested == NULL || requested[0] == 0) return supported;
    const int parsed = nlukit_parse_cpu_level(requested, supported);
    return parsed >= 0 ? parsed : supported;
}

int nlukit_kernel_level(void) {
    if (thread_level >= 0) return thread_level;
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    int chosen = starting_level();
    __atomic_store_n(&level, chosen, __ATOMIC_RELAXED);
    return chosen;
}

int nlukit_limit_kernel_level(int limit) {
    int supported = cpu_level();
    int chosen = limit < supported ? (limit < 0 ? 0 : limit) : supported;
    __atomic_store_n(&level, chosen, __ATOMIC_RELAXED);
    return chosen;
}

int nlukit_set_thread_kernel_level(int override) {
    const int previous = thread_level;
    if (override < 0) thread_level = -1;
    else {
        const int supported = cpu_level();
        thread_level = override < supported ? override : supported;
    }
    return previous;
}

void nlukit_exp(const float *source, float *destination, long count) { NLU_DISPATCH(exp, source, destination, count) }
void nlukit_erf(const float *source, float *destination, long count) { NLU_DISPATCH(erf, source, destination, count) }
void nlukit_tanh(const float *source, float *destination, long count) { NLU_DISPATCH(tanh, source, destination, count) }
void nlukit_sigmoid(const float *source, float *destination, long count) { NLU_DISPATCH(sigmoid, source, destination, count) }
void nlukit_relu(const float *source, float *destination, long count) { NLU_DISPATCH(relu, source, destination, count) }
void nlukit_gelu(const float *source, float *destination, long count) { NLU_DISPATCH(gelu, source, destination, count) }
void nlukit_gelu_tanh(const float *source, float *destination, long count) { NLU_DISPATCH(gelu_tanh, source, destination, count) }

void nlukit_gelu_erf_forward(const float *input, float *output, long count) { NLU_DISPATCH(gelu_erf_forward, input, output, count) }
void nlukit_gelu_erf_backward(const float *input, float *gradient, long count) { NLU_DISPATCH(gelu_erf_backward, input, gradient, count) }
void nlukit_gelu_tanh_forward(const float *input, float *output, long count) { NLU_DISPATCH(gelu_tanh_forward, input, output, count) }
void nlukit_gelu_tanh_backward(const float *input, float *gradient, long count) { NLU_DISPATCH(gelu_tanh_backward, input, gradient, count) }
void nlukit_relu_backward(const float *input, float *gradient, long count) { NLU_DISPATCH(relu_backward, input, gradient, count) }

void nlukit_dropout_mask(float *mask, long count, unsigned long long state, float probability, float scale) {
    NLU_DISPATCH(dropout_mask, mask, count, state, probability, scale)
}

void nlukit_transpose(const float *a, long lda, long rows, long columns, float *t, long ldt, int accumulate) {
    NLU_DISPATCH(transpose, a, lda, rows, columns, t, ldt, accumulate)
}

void nlukit_adam_step(float *parameters, const float *gradients, float *first, float *second, long count,
                      float beta1, float beta2, float step_size, float correction2, float epsilon, float l2, float shrink) {
    NLU_DISPATCH(adam_step, parameters, gradients, first, second, count, beta1, beta2, step_size, correction2, epsilon, l2, shrink)
}

double nlukit_sum_of_squares(const float *values, long count) {
    double total = 0;
    NLU_DISPATCH(sum_of_squares, values, count, &total)
    return total;
}

long nlukit_first_non_finite(const float *values, long count) {
    enum { BLOCK = 4096 };
    for (long start = 0; start < count; start += BLOCK) {
        const long end = count - start < BLOCK ? count : start + BLOCK;
        unsigned bad = 0;
        for (long i = start; i < end; i++) {
            unsigned bits;
            memcpy(&bits, values + i, sizeof bits);
            bad |= (bits & 0x7F800000u) == 0x7F800000u;  // every exponent bit set: NaN or infinity
        }
        if (bad)
            for (long i = start; i < end; i++)
                if (!__builtin_isfinite(values[i])) return i;
    }
    return -1;
}

void nlukit_softmax_rows(const float *source, float *destination, long rows, long length,
                         const float *mask, long mask_rows, long first_mask_row) {
    NLU_DISPATCH(softmax_rows, source, destination, rows, length, mask, mask_rows, first_mask_row)
}

void nlukit_log_softmax_rows(const float *source, float *destination, long rows, long length) {
    NLU_DISPATCH(log_softmax_rows, source, destination, rows, length)
}

void nlukit_layer_norm_rows(const float *source, float *destination, long rows, long length,
                            const float *weight, const float *bias, float epsilon) {
    NLU_DISPATCH(layer_norm_rows, source, destination, rows, length, weight, bias, epsilon)
}
