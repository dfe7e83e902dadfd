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
