// The GRU step kernels' bodies, included once per CPU level by gru_cell.c (through per_level.h).
// Same operation order as the Swift loops they replace, products rounded separately (no FMA), with
// the cells' own sigmoid and tanh (activation_functions.h: within about 1e-7 of the exact ones).

#include "activation_functions.h"

NLU_TARGET static void NLU_NAME(gru_cell_forward)(float *gates, const float *hidden_gates, const float *h0,
                                                   float *candidates, float *h1, long rows, long hidden) {
#pragma clang fp contract(off)
    for (long row = 0; row < rows; row++) {
        float *g = gates + row * 3 * hidden;
        const float *hg = hidden_gates + row * 3 * hidden;
        const float *previous = h0 + row * hidden;
        float *candidate = candidates + row * hidden, *next = h1 + row * hidden;
        // Every iteration touches only its own unit: safe to vectorize (gates is read and written in place).
#pragma clang loop vectorize(assume_safety)
        for (long u = 0; u < hidden; u++) {
            float r = NLU_NAME(sigmoid_cell1)(g[u] + hg[u]);
            float z = NLU_NAME(sigmoid_cell1)(g[hidden + u] + hg[hidden + u]);
            float c = hg[2 * hidden + u];
            float reset = r * c;
            float n = NLU_NAME(tanh_cell1)(g[2 * hidden + u] + reset);
            g[u] = r; g[hidden + u] = z; g[2 * hidden + u] = n;
            candidate[u] = c;
            float difference = previous[u] - n;
            float kept = z * difference;
            next[u] = n + kept;
        }
    }
}

NLU_TARGET static void NLU_NAME(gru_cell_backward)(const float *gates, const float *candidates, const float *h0,
                                                    const float *upstream, float *hidden_gradient,
                                                    float *input_gate_gradients, float *hidden_gate_gradients,
                                                    long rows, long hidden) {
#pragma clang fp contract(off)
    for (long row = 0; row < rows; row++) {
        const float *g = gates + row * 3 * hidden;
        const float *candidate = candidates + row * hidden, *previous = h0 + row * hidden;
        const float *up = upstream + row * hidden;
        float *dhNext = hidden_gradient + row * hidden;
        float *dInput = input_gate_gradients + row * 3 * hidden, *dHidden = hidden_gate_gradients + row * 3 * hidden;
#pragma clang loop vectorize(assume_safety)
        for (long u = 0; u < hidden; u++) {
            float r = g[u], z = g[hidden + u], n = g[2 * hidden + u];
            float dh = up[u] + dhNext[u];
            float dn = dh * (1 - z) * (1 - n * n);
            float dz = dh * (previous[u] - n) * z * (1 - z);
            float dr = dn * candidate[u] * r * (1 - r);
            dInput[u] = dr; dInput[hidden + u] = dz; dInput[2 * hidden + u] = dn;
            dHidden[u] = dr; dHidden[hidden + u] = dz; dHidden[2 * hidden + u] = dn * r;
            dhNext[u] = dh * z;
        }
    }
}
