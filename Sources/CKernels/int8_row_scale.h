#pragma once
#include <string.h>

/// The symmetric INT8 scale of one row of `k` floats: stores largest |x| / limit in `*scale` and returns the
/// factor that maps the row onto [-limit, limit] (0 for a row of zeros). The weight packing (limit 127 or
/// 63) and the per-row activation quantization (127) share it, so both sides of an INT8 product are
/// scaled by the same rule.
///
/// The largest magnitude is kept in 8 lanes, then across them: a plain `largest = m > largest ? m : largest`
/// is one serial chain the compiler may not split (a float max is not reassociable under NaN rules), and it
/// made quantizing a 3072-float row cost 6 % of the INT8 GEMM that follows it. Each lane keeps the same
/// rule (a NaN is never larger), and a maximum of numbers is the same in any order, so the result is too.
static inline float nlukit_int8_row_scale(const float *row, long k, float limit, float *scale) {
    typedef float lanes_f __attribute__((vector_size(32)));
    typedef int lanes_i __attribute__((vector_size(32)));
    lanes_f largest8 = {0};
    long kk = 0;
    for (; kk + 8 <= k; kk += 8) {
        lanes_f x;
        memcpy(&x, row + kk, sizeof x);
        const lanes_f magnitude = (lanes_f)((lanes_i)x & 0x7fffffff);
        const lanes_i larger = magnitude > largest8;
        largest8 = (lanes_f)((larger & (lanes_i)magnitude) | (~larger & (lanes_i)largest8));
    }
    float largest = 0;
    for (int lane = 0; lane < 8; lane++) largest = largest8[lane] > largest ? largest8[lane] : largest;
    for (; kk < k; kk++) {
        const float magnitude = row[kk] < 0 ? -row[kk] : row[kk];
        largest = magnitude > largest ? magnitude : largest;
    }
    *scale = largest / limit;
    return largest > 0 ? limit / largest : 0.0f;
}
