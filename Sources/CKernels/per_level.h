// Compiles one kernel body once per CPU level (baseline, AVX2+FMA, AVX-512) and defines
// NLU_DISPATCH to call the best level the CPU supports (nlukit_kernel_level()); NLU_MULTI_LEVEL is
// defined where there is more than the baseline.
// Before including, define NLU_LEVEL_BODY as the body header's name in quotes; the body defines
// its functions with NLU_TARGET (the level's target attribute) and NLU_NAME(name) (the level's
// name, nlu_<level>_<name>), and may read NLU_LEVEL (0 baseline, 1 AVX2, 2 AVX-512) for sizes that
// depend on the register file. Static functions: each .c file includes this once, for its own body.

#define NLU_NAME(name) nlu_baseline_##name
#define NLU_TARGET
#define NLU_LEVEL 0
#include NLU_LEVEL_BODY
#undef NLU_NAME
#undef NLU_TARGET
#undef NLU_LEVEL

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define NLU_MULTI_LEVEL 1

#define NLU_NAME(name) nlu_avx2_##name
#define NLU_TARGET __attribute__((target("avx2,fma")))
#define NLU_LEVEL 1
#include NLU_LEVEL_BODY
#undef NLU_NAME
#undef NLU_TARGET
#undef NLU_LEVEL

#define NLU_NAME(name) nlu_avx512_##name
#define NLU_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#define NLU_LEVEL 2
#include NLU_LEVEL_BODY
#undef NLU_NAME
#undef NLU_TARGET
#undef NLU_LEVEL

#define NLU_DISPATCH(name, ...)                                              \
    switch (nlukit_kernel_level()) {                                         \
    case 2: nlu_avx512_##name(__VA_ARGS__); break;                           \
    case 1: nlu_avx2_##name(__VA_ARGS__); break;                             \
    default: nlu_baseline_##name(__VA_ARGS__); break;                        \
    }
#else
#define NLU_DISPATCH(name, ...) nlu_baseline_##name(__VA_ARGS__);
#endif
