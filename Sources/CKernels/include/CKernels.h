// Element-wise and row kernels of NLUKit, in C so that each can be compiled for several CPU
// levels (AVX-512, AVX2+FMA, baseline) and picked at run time: Swift code is compiled for the
// baseline x86-64 (SSE2) only, which runs these transcendental-heavy loops 4-8x slower.
// Called through NLUCore's `Kernels`; not a public API of its own.
#ifndef NLUKIT_CKERNELS_H
#define NLUKIT_CKERNELS_H

#include "PackedGEMM.h"
#include "Int8GEMM.h"
#include "LSTMCell.h"
#include "GRUCell.h"
#include "GateGradients.h"
#include "ThreadPool.h"

#ifdef __cplusplus
extern "C" {
#endif

// Every kernel reads `source` and writes `destination`, which may be the same buffer (in place)
// or disjoint buffers, never partly overlapping ones.

/// Element-wise on `count` floats: e^x, erf(x), tanh(x), 1/(1+e^-x), max(x,0), exact GELU, tanh GELU.
void nlukit_exp(const float *source, float *destination, long count);
void nlukit_erf(const float *source, float *destination, long count);
void nlukit_tanh(const float *source, float *destination, long count);
void nlukit_sigmoid(const float *source, float *destination, long count);
void nlukit_relu(const float *source, float *destination, long count);
void nlukit_gelu(const float *source, float *destination, long count);
void nlukit_gelu_tanh(const float *source, float *destination, long count);

/// The training pass's feed-forward activations. Forward: output = GELU(input), the exact-erf form
/// as PyTorch's CPU kernel computes it bit for bit (gelu_pytorch.h), or transformers' tanh form;
/// `output` must not overlap `input`. Backward: gradient *= activation'(input), in place; `gradient`
/// must not overlap `input`. Every CPU level gives the same values.
void nlukit_gelu_erf_forward(const float *input, float *output, long count);
void nlukit_gelu_erf_backward(const float *input, float *gradient, long count);
void nlukit_gelu_tanh_forward(const float *input, float *output, long count);
void nlukit_gelu_tanh_backward(const float *input, float *gradient, long count);
void nlukit_relu_backward(const float *input, float *gradient, long count);

/// A dropout mask from SplitMix64 draws: mask[i] = scale when draw i + 1 after `state` (the
/// generator's state), as (draw >> 40)·2^-24, is ≥ probability, else 0.
void nlukit_dropout_mask(float *mask, long count, unsigned long long state, float probability, float scale);

/// The index of the first NaN or infinity among `count` floats, or -1 when all are finite: a
/// branch-free flag over blocks of 4,096 (vectorized, at memory speed), then a search of the block
/// that holds one. Used on every weight at load and on a model's outputs.
long nlukit_first_non_finite(const float *values, long count);
/// Softmax of each of `rows` rows of `length` floats; row r first adds mask row
/// (first_mask_row + r) % mask_rows of `mask` when `mask` is not NULL. A row that is all -inf
/// becomes zeros.
void nlukit_softmax_rows(const float *source, float *destination, long rows, long length,
                         const float *mask, long mask_rows, long first_mask_row);
/// Log-softmax of each row.
void nlukit_log_softmax_rows(const float *source, float *destination, long rows, long length);
/// Layer normalization of each row (biased variance).
void nlukit_layer_norm_rows(const float *source, float *destination, long rows, long length,
                            const float *weight, const float *bias, float epsilon);

/// t[j * ldt + i] = a[i * lda + j] for i < rows, j < columns, or += with `accumulate` non-zero;
/// `t` must not overlap `a`.
void nlukit_transpose(const float *a, long lda, long rows, long columns, float *t, long ldt, int accumulate);

/// One Adam (or AdamW) step over `count` parameters with PyTorch's update: g = gradient + l2·p,
/// m = β1·m + (1-β1)·g, v = β2·v + (1-β2)·g², p = p·shrink - step_size·m / (√v / correction2 + ε).
void nlukit_adam_step(float *parameters, const float *gradients, float *first, float *second, long count,
                      float beta1, float beta2, float step_size, float correction2, float epsilon, float l2, float shrink);
/// Σ values² over `count` floats (float blocks of 4,096 summed in double).
double nlukit_sum_of_squares(const float *values, long count);

/// The instruction set the kernels run with: 2 = AVX-512, 1 = AVX2+FMA, 0 = portable (baseline).
/// Decided on first use: the CPU's best level, or the one NLUKIT_CPU_LEVEL names
/// (avx512 | avx2 | portable) when the CPU can run it; any other value is ignored (see
/// nlukit_parse_cpu_level, which callers use to refuse it with a message).
int nlukit_kernel_level(void);
/// The best level this CPU can run (CPUID), whatever NLUKIT_CPU_LEVEL says.
int nlukit_cpu_level(void);
/// Lowers the level used from now on by every thread without a level of its own (for the C test
/// and benchmark programs); a level above what the CPU supports is capped to it. Returns the level
/// in effect.
int nlukit_limit_kernel_level(int level);
/// Sets the level the calling thread's kernels run at, and the pool jobs it starts (capped to what
/// the CPU supports), or with -1 returns it to the process's level. Returns the thread's previous
/// setting (-1 when it had none), to be passed back when done.
int nlukit_set_thread_kernel_level(int level);

/// Runs `iterations` steps of 12 independent multiply-add chains of the current level's widest
/// vector on the calling thread and returns the floating-point operations done (2 per lane and
/// chain per step): timed, the level's peak FLOP/s of one core, which benchmarks print beside the GEMM.
double nlukit_fma_peak_probe(long iterations);

/// nlukit_parse_cpu_level's refusals.
enum { NLUKIT_CPU_LEVEL_UNKNOWN = -1, NLUKIT_CPU_LEVEL_UNSUPPORTED = -2 };
/// The level an NLUKIT_CPU_LEVEL value names ("avx512" 2, "avx2" 1, "portable" 0), or
/// NLUKIT_CPU_LEVEL_UNKNOWN for another name, or NLUKIT_CPU_LEVEL_UNSUPPORTED when it is above
/// `supported` (the CPU's level).
int nlukit_parse_cpu_level(const char *name, int supported);

#ifdef __cplusplus
}
#endif

#endif
