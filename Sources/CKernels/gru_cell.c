#include "GRUCell.h"
#include "CKernels.h"

#define NLU_LEVEL_BODY "gru_cell_body.h"
#include "per_level.h"

void nlukit_gru_cell_forward(float *gates, const float *hidden_gates, const float *h0, float *candidates, float *h1,
                             long rows, long hidden) {
    NLU_DISPATCH(gru_cell_forward, gates, hidden_gates, h0, candidates, h1, rows, hidden)
}

void nlukit_gru_cell_backward(const float *gates, const float *candidates, const float *h0, const float *upstream,
                              float *hidden_gradient, float *input_gate_gradients, float *hidden_gate_gradients,
                              long rows, long hidden) {
    NLU_DISPATCH(gru_cell_backward, gates, candidates, h0, upstream, hidden_gradient, input_gate_gradients,
                 hidden_gate_gradients, rows, hidden)
}
