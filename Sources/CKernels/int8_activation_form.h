#pragma once
#include "Int8GEMM.h"

// What each activation form of the INT8 GEMM (Int8GEMM.h) means for the bytes: the offset they are
// stored with, the largest |q| of a quantized row, and the largest code of a quantized probability
// (never negative, stored without offset). An unknown form reads as NLUKIT_INT8_SIGNED.
static inline int nlukit_int8_form_offset(int form) {
    return form == NLUKIT_INT8_UNSIGNED ? 128 : form == NLUKIT_INT8_UNSIGNED_7BIT ? 64 : 0;
}
static inline float nlukit_int8_form_limit(int form) { return form == NLUKIT_INT8_UNSIGNED_7BIT ? 63.0f : 127.0f; }
static inline float nlukit_int8_form_probability_limit(int form) {
    return form == NLUKIT_INT8_UNSIGNED ? 255.0f : 127.0f;
}
