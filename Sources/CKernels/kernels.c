#include "CKernels.h"

// Each kernel is compiled once per CPU level from kernels_body.h; the public functions call the
// best level the CPU supports, detected once.

#define NLU_LEVEL_BODY "kernels_body.h"
#include "per_level.h"

static int level = -1;  // detected once; atomics because threads may race to set it

static int detected_level(void) {
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

int nlukit_kernel_level(void) {
    int known = __atomic_load_n(&level, __ATOMIC_RELAXED);
    if (known >= 0) return known;
    int detected = detected_level();
    __atomic_store_n(&level, detected, __ATOMIC_RELAXED);
    return detected;
}

int nlukit_limit_kernel_level(int limit) {
    int detected = detected_level();
    int chosen = limit < detected ? (limit < 0 ? 0 : limit) : detected;
    __atomic_store_n(&level, chosen, __ATOMIC_RELAXED);
    return chosen;
}

void nlukit_exp(const float *source, float *destination, long count) { NLU_DISPATCH(exp, source, destination, count) }
void nlukit_erf(const float *source, float *destination, long count) { NLU_DISPATCH(erf, source, destination, count) }
void nlukit_tanh(const float *source, float *destination, long count) { NLU_DISPATCH(tanh, source, destination, count) }
void nlukit_sigmoid(const float *source, float *destination, long count) { NLU_DISPATCH(sigmoid, source, destination, count) }
void nlukit_relu(const float *source, float *destination, long count) { NLU_DISPATCH(relu, source, destination, count) }
void nlukit_gelu(const float *source, float *destination, long count) { NLU_DISPATCH(gelu, source, destination, count) }
void nlukit_gelu_tanh(const float *source, float *destination, long count) { NLU_DISPATCH(gelu_tanh, source, destination, count) }

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
