#pragma once

/// The symmetric INT8 scale of one row of `k` floats: stores largest |x| / 127 in `*scale` and returns the
/// factor that maps the row onto [-127, 127] (0 for a row of zeros). The weight packing and the per-row
/// activation quantization share it, so both sides of an INT8 product are scaled by the same rule.
static inline float nlukit_int8_row_scale(const float *row, long k, float *scale) {
    float largest = 0;
    for (long kk = 0; kk < k; kk++) {
        const float magnitude = row[kk] < 0 ? -row[kk] : row[kk];
        largest = magnitude > largest ? magnitude : largest;
    }
    *scale = largest / 127.0f;
    return largest > 0 ? 127.0f / largest : 0.0f;
}
