#include "Int8GEMM.h"
#include "CKernels.h"
#include <string.h>

// INT8 attention's operands per CPU level (int8_attention_body.h). Every level computes the same
// bytes and scales: the same rounding rule, and reductions whose order does not change the result
// (maxima) or is the same at every level (the softmax's 16 partial sums).

#define NLU_LEVEL_BODY "int8_attention_body.h"
#include "per_level.h"

void nlukit_int8_pack_columns(const float *b, long ldb, long k, long n, int weight_limit, int8_t *packed,
                              float *scales, int32_t *column_sums) {
    const float limit = weight_limit == 63 ? 63.0f : 127.0f;
    NLU_DISPATCH(int8_pack_columns, b, ldb, k, n, limit, packed, scales, column_sums)
}

void nlukit_int8_softmax_rows(float *scores, long rows, long length, const float *mask, int8_t *q, long ldq,
                              float *scales, int activation_form) {
    NLU_DISPATCH(int8_softmax_rows, scores, rows, length, mask, q, ldq, scales, activation_form)
}
