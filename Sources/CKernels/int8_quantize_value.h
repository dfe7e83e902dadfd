// One value onto the INT8 grid, for one CPU level (included by a body header, with NLU_TARGET and
// NLU_NAME defined): the rule every packer and quantizer shares, so that the weights, the
// activations and attention's operands round the same way at every level.

// Rounds to the nearest integer, ties to even, for |v| ≤ 2^22: the same result at every level
// (rintf is a library call at the x86-64 baseline, which has no vector round instruction).
#ifndef NLU_INT8_ROUND
#define NLU_INT8_ROUND(v) (((v) + 12582912.0f) - 12582912.0f)
#endif

// v (already multiplied by the inverse scale) clamped to [-limit, limit] and rounded; NaN maps to
// -limit, never to an undefined conversion. Written as `a > b ? a : b`, the form of maxps/minps (which
// return the second operand for NaN): with `>=` clang kept a compare and a blend per clamp.
static inline NLU_TARGET int NLU_NAME(int8_quantize_value)(float v, float limit) {
    v = v > -limit ? v : -limit;
    v = v < limit ? v : limit;
    return (int)NLU_INT8_ROUND(v);
}

// 32 values at once, by the same rule, as bytes (+ offset: 128 for unsigned activations, else 0): the
// float's bits after adding 1.5 · 2^23 hold the rounded integer in their low byte, and one narrowing
// of 32 lanes replaces clang's 8-lane shuffles of the scalar loop (half the time of a quantizing
// loop on AVX2). The same bytes as int8_quantize_value, NaN included.
static inline NLU_TARGET void NLU_NAME(int8_quantize32)(const float *x, float inverse, float limit, int offset,
                                                        uint8_t *out) {
    typedef float f32x32 __attribute__((vector_size(128)));
    typedef int32_t i32x32 __attribute__((vector_size(128)));
    typedef uint8_t u8x32 __attribute__((vector_size(32)));
    f32x32 v;
    memcpy(&v, x, sizeof v);
    v = v * inverse;
    const f32x32 upper = (f32x32){0} + limit, lower = (f32x32){0} - limit;
    const i32x32 above = v > lower;  // false for NaN, which becomes -limit
    v = (f32x32)((above & (i32x32)v) | (~above & (i32x32)lower));
    const i32x32 below = v < upper;
    v = (f32x32)((below & (i32x32)v) | (~below & (i32x32)upper));
    const u8x32 bytes = __builtin_convertvector((i32x32)(v + 12582912.0f) + offset, u8x32);
    memcpy(out, &bytes, sizeof bytes);
}

// `count` values of `x` by the same rule as bytes (+ offset), 32 at a time and the rest one by one: what
// the row quantizer, the weights' packer and the quantized softmax each write.
static inline NLU_TARGET void NLU_NAME(int8_quantize_span)(const float *x, long count, float inverse, float limit,
                                                           int offset, uint8_t *out) {
    long i = 0;
    for (; i + 32 <= count; i += 32) NLU_NAME(int8_quantize32)(x + i, inverse, limit, offset, out + i);
    for (; i < count; i++) out[i] = (uint8_t)(NLU_NAME(int8_quantize_value)(x[i] * inverse, limit) + offset);
}
