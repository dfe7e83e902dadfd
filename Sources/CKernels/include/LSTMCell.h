// The element-wise part of one LSTM time step and of its backward pass, each fused into one
// pass per batch row. Called by NLUCore's `LSTM`.
#ifndef NLUKIT_LSTM_CELL_H
#define NLUKIT_LSTM_CELL_H

#ifdef __cplusplus
extern "C" {
#endif

/// For each of `rows` rows: `gates` (row stride 4·hidden, pre-activation i, f, g, o) becomes
/// σ(i), σ(f), tanh(g), σ(o) in place; c1 = σ(f)·c0 + σ(i)·tanh(g); h1 = σ(o)·tanh(c1).
/// c0, c1 and h1 are rows × hidden, contiguous, and must not overlap `gates` or each other.
void nlukit_lstm_cell_forward(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden);

/// Back through one step of `nlukit_lstm_cell_forward`, for each of `rows` rows: with dh =
/// upstream + dh_next and dc = dh·o·(1 - tanh²(c1)) + dc_next, writes the pre-activation gate
/// gradients to `gate_gradients` (row stride 4·hidden) and replaces `cell_gradient` (dc_next)
/// by dc·f. `gates` holds the activated gates; all rows × hidden buffers are contiguous.
void nlukit_lstm_cell_backward(const float *gates, const float *c0, const float *c1, const float *upstream,
                               const float *dh_next, float *cell_gradient, float *gate_gradients, long rows, long hidden);

#ifdef __cplusplus
}
#endif

#endif
