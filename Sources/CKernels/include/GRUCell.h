// The element-wise part of one GRU time step and of its backward pass, each fused into one
// pass per batch row. Called by NLUCore's `GRU`.
#ifndef NLUKIT_GRU_CELL_H
#define NLUKIT_GRU_CELL_H

#ifdef __cplusplus
extern "C" {
#endif

/// For each of `rows` rows, with `gates` = x·W_ihᵀ + b_ih and `hidden_gates` = h0·W_hhᵀ + b_hh
/// (row stride 3·hidden, blocks r, z, n): r = σ(gates_r + hidden_r), z = σ(gates_z + hidden_z),
/// n = tanh(gates_n + r·hidden_n), stored in `gates` in place; `candidates` = hidden_n (kept for
/// the backward pass); h1 = (1 - z)·n + z·h0, computed as n + z·(h0 - n). h0, h1 and candidates
/// are rows × hidden, contiguous, and must not overlap each other or the gate buffers.
void nlukit_gru_cell_forward(float *gates, const float *hidden_gates, const float *h0, float *candidates, float *h1,
                             long rows, long hidden);

/// Back through one step of `nlukit_gru_cell_forward`, for each of `rows` rows: with `gates` the
/// activated r, z, n, dh = upstream + hidden_gradient, dn = dh·(1 - z)·(1 - n²),
/// dz = dh·(h0 - n)·z·(1 - z), dr = dn·candidates·r·(1 - r): writes (dr, dz, dn) to
/// `input_gate_gradients` and (dr, dz, dn·r) to `hidden_gate_gradients` (row stride 3·hidden), and
/// replaces `hidden_gradient` by dh·z (the direct part of d(h0)).
void nlukit_gru_cell_backward(const float *gates, const float *candidates, const float *h0, const float *upstream,
                              float *hidden_gradient, float *input_gate_gradients, float *hidden_gate_gradients,
                              long rows, long hidden);

#ifdef __cplusplus
}
#endif

#endif
