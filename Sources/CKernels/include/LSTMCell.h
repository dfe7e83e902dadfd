// The element-wise part of one LSTM time step, fused into one pass per batch row: the gate
// activations, the cell update and the new hidden state. Called by NLUCore's `LSTM`.
#ifndef NLUKIT_LSTM_CELL_H
#define NLUKIT_LSTM_CELL_H

#ifdef __cplusplus
extern "C" {
#endif

/// For each of `rows` rows: `gates` (row stride 4·hidden, pre-activation i, f, g, o) becomes
/// σ(i), σ(f), tanh(g), σ(o) in place; c1 = σ(f)·c0 + σ(i)·tanh(g); h1 = σ(o)·tanh(c1).
/// c0, c1 and h1 are rows × hidden, contiguous, and must not overlap `gates` or each other.
void nlukit_lstm_cell_forward(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden);

#ifdef __cplusplus
}
#endif

#endif
