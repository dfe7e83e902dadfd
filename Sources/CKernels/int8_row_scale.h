#pragma once

/// The symmetric INT8 scale of one row of `k` floats: stores largest |x| / limit in `*scale` and returns the
/// factor that maps the row onto [-limit, limit] (0 for a row of zeros). The weight packing (limit 127 or
/// 63) and the per-row activation quantization (127) share it, so both sides of an INT8 product are
/// scaled by the same rule.
static inline float nlukit_int8_row_scale(const float *row, long k, float limit, float *scale) {
    float largest = 0;
    for (long kk = 0; kk < k; kk++) {
        const float magnitude = row[kk] < 0 ? -row[kk] : row[kk];
        largest = magnitude > largest ? magnitude : largest;
    }
    *scale = largest / limit;
    return largest > 0 ? limit / largest : 0.0f;
}
