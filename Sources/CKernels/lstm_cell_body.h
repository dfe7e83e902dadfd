// The LSTM step kernels' bodies, included once per CPU level by lstm_cell.c (through per_level.h).
// Same operation order as the Swift loops they replaced, products rounded separately (no FMA: separate
// statements in the forward pass, contraction off in the backward one), with the cells' own sigmoid
// and tanh (activation_functions.h: within about 1e-7 of the exact ones).

#include "activation_functions.h"

NLU_TARGET static void NLU_NAME(lstm_cell_forward)(float *gates, const float *c0, float *c1, float *h1, long rows,
                                                    long hidden) {
    for (long r = 0; r < rows; r++) {
        float *g = gates + r * 4 * hidden;
        const float *cp = c0 + r * hidden;
        float *cn = c1 + r * hidden, *h = h1 + r * hidden;
        // Every iteration touches only its own unit: safe to vectorize in place.
#pragma clang loop vectorize(assume_safety)
        for (long u = 0; u < hidden; u++) {
            float i = NLU_NAME(sigmoid_cell1)(g[u]), f = NLU_NAME(sigmoid_cell1)(g[hidden + u]);
            float gg = NLU_NAME(tanh_cell1)(g[2 * hidden + u]), o = NLU_NAME(sigmoid_cell1)(g[3 * hidden + u]);
            g[u] = i; g[hidden + u] = f; g[2 * hidden + u] = gg; g[3 * hidden + u] = o;
            float forget = f * cp[u], write = i * gg;
            float c = forget + write;
            cn[u] = c;
            h[u] = o * NLU_NAME(tanh_cell1)(c);
        }
    }
}

NLU_TARGET static void NLU_NAME(lstm_cell_backward)(const float *gates, const float *c0, const float *c1,
                                                     const float *upstream, const float *dh_next, float *cell_gradient,
                                                     float *gate_gradients, long rows, long hidden) {
#pragma clang fp contract(off)
    for (long r = 0; r < rows; r++) {
        const float *g = gates + r * 4 * hidden;
        float *d = gate_gradients + r * 4 * hidden;
        const long o0 = r * hidden;
#pragma clang loop vectorize(assume_safety)
        for (long u = 0; u < hidden; u++) {
            float i = g[u], f = g[hidden + u], gg = g[2 * hidden + u], o = g[3 * hidden + u];
            float t = NLU_NAME(tanh_cell1)(c1[o0 + u]);
            float dh = upstream[o0 + u] + dh_next[o0 + u];
            float dc = dh * o * (1 - t * t) + cell_gradient[o0 + u];
            d[u] = dc * gg * i * (1 - i);
            d[hidden + u] = dc * c0[o0 + u] * f * (1 - f);
            d[2 * hidden + u] = dc * i * (1 - gg * gg);
            d[3 * hidden + u] = dh * t * o * (1 - o);
            cell_gradient[o0 + u] = dc * f;
        }
    }
}
