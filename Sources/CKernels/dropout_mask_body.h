// Dropout masks, included once per CPU level by kernels_body.h. SplitMix64's n-th draw is a
// function of its seed and n alone (state + n·γ, then the output mix), so a mask of any length can be
// drawn in independent pieces, split over the thread pool by the caller, with the values Swift's
// `SplitMix64.next()` gives called once per element (the encoder's training step drew ~7 million of
// them one after another on one core). Vectorized on AVX2, 1.4x a scalar loop (clang emulates the
// 64-bit products, which AVX-512 has).

// mask[i] = scale when the draw state + (i + 1)·γ, as 24 bits in [0, 1), is ≥ probability, else 0.
NLU_TARGET static void NLU_NAME(dropout_mask)(float *mask, long count, unsigned long long state, float probability,
                                               float scale) {
#if NLU_LEVEL == 0
#pragma clang loop vectorize(disable)  // SSE2 emulates the 64-bit products worse than scalar code
#endif
    for (long i = 0; i < count; i++) {
        unsigned long long z = state + (unsigned long long)(i + 1) * 0x9E3779B97F4A7C15ull;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        z ^= z >> 31;
        mask[i] = (float)(z >> 40) * 0x1p-24f >= probability ? scale : 0.0f;
    }
}
