#include "CKernels.h"

// The FMA peak probe, compiled per CPU level like the kernels so that each level's GEMM can be
// put beside the peak of its own instructions.

static volatile float peak_sink;  // the chains' result goes here, so the loop is not removed

// An asm operand that pins a vector to a register (where the architecture's constraint is known).
#if defined(__x86_64__)
#define NLU_VECTOR_REGISTER(v) "+x"(v)
#elif defined(__aarch64__)
#define NLU_VECTOR_REGISTER(v) "+w"(v)
#endif

#define NLU_LEVEL_BODY "fma_peak_body.h"
#include "per_level.h"

double nlukit_fma_peak_probe(long iterations) {
    double flops = 0;
    NLU_DISPATCH(fma_peak, iterations, &flops)
    return flops;
}
