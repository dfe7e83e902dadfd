#include "CKernels.h"
#include <stddef.h>

#define NLU_LEVEL_BODY "gate_gradients_body.h"
#include "per_level.h"

void nlukit_gate_gradient_rows(const float *gradients, long rows, long width, float *packed, long k, long first_row,
                               float *column_sums, const int32_t *tokens, float *token_sums) {
    NLU_DISPATCH(gate_gradient_rows, gradients, rows, width, packed, k, first_row, column_sums, tokens, token_sums)
}
