// What a recurrent layer's backward pass keeps of each step's gate gradients for the weight and
// bias gradients after the last step, gathered while the step's rows are still in cache. Called
// through NLUCore's `GateGradientPanels`; not a public API of its own.
#ifndef NLUKIT_GATE_GRADIENTS_H
#define NLUKIT_GATE_GRADIENTS_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// For `rows` rows of `gradients` (row stride `width`): packs them as rows [first_row, first_row +
/// rows) of the packed k × width matrix `packed` (nlukit_packed_gemm's B layout), adds each row to
/// `column_sums` (width floats), and when `tokens` is not NULL adds row r to row tokens[r] of
/// `token_sums` (ids already checked against its rows). No buffer may overlap another. Whole panels
/// go to `packed` with non-temporal stores when it is 64-byte aligned (it is read much later).
void nlukit_gate_gradient_rows(const float *gradients, long rows, long width, float *packed, long k, long first_row,
                               float *column_sums, const int32_t *tokens, float *token_sums);

#ifdef __cplusplus
}
#endif

#endif
