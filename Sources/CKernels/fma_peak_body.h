// One CPU level of the FMA peak probe; included once per level through per_level.h.

// The level's native vector: 16 floats (zmm) for AVX-512, 8 (ymm) for AVX2, 4 (xmm / NEON q) for
// the portable level, where x86-64's baseline has no FMA and a·x + y is a multiply and an add.
#if NLU_LEVEL == 2
typedef float NLU_NAME(vector) __attribute__((vector_size(64)));
#elif NLU_LEVEL == 1
typedef float NLU_NAME(vector) __attribute__((vector_size(32)));
#else
typedef float NLU_NAME(vector) __attribute__((vector_size(16)));
#endif

// 12 independent chains hide the FMA latency (4-5 cycles) on two FMA pipes and fit 16 registers.
NLU_TARGET static void NLU_NAME(fma_peak)(long iterations, double *flops) {
    typedef NLU_NAME(vector) vector;
    vector chains[12];
    for (int c = 0; c < 12; c++) chains[c] = (vector){0} + (float)c;
    const vector x = (vector){0} + 0.999f, y = (vector){0} + 0.001f;
    for (long i = 0; i < iterations; i++) {
        for (int c = 0; c < 12; c++) chains[c] = chains[c] * x + y;
#ifdef NLU_VECTOR_REGISTER
        // Keeps the chains in registers and the loop from being folded.
        __asm__ volatile("" : NLU_VECTOR_REGISTER(chains[0]), NLU_VECTOR_REGISTER(chains[1]), NLU_VECTOR_REGISTER(chains[2]),
                         NLU_VECTOR_REGISTER(chains[3]), NLU_VECTOR_REGISTER(chains[4]), NLU_VECTOR_REGISTER(chains[5]),
                         NLU_VECTOR_REGISTER(chains[6]), NLU_VECTOR_REGISTER(chains[7]), NLU_VECTOR_REGISTER(chains[8]),
                         NLU_VECTOR_REGISTER(chains[9]), NLU_VECTOR_REGISTER(chains[10]), NLU_VECTOR_REGISTER(chains[11]));
#endif
    }
    float sum = 0;
    for (int c = 0; c < 12; c++) sum += chains[c][0];
    peak_sink = sum;
    *flops = 2.0 * 12 * (double)(sizeof(vector) / sizeof(float)) * (double)iterations;
}
