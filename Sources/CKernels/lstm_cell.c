#include "LSTMCell.h"
#include "CKernels.h"

#define NLU_LEVEL_BODY "lstm_cell_body.h"
#include "per_level.h"

void nlukit_lstm_cell_forward(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden) {
    NLU_DISPATCH(lstm_cell_forward, gates, c0, c1, h1, rows, hidden)
}

void nlukit_lstm_cell_backward(const float *gates, const float *c0, const float *c1, const float *upstream,
                               const float *dh_next, float *cell_gradient, float *gate_gradients, long rows, long hidden) {
    NLU_DISPATCH(lstm_cell_backward, gates, c0, c1, upstream, dh_next, cell_gradient, gate_gradients, rows, hidden)
}
