#include "LSTMCell.h"
#include "CKernels.h"

// kernels_body.h also defines the other element-wise kernels, unused here.
#pragma clang diagnostic ignored "-Wunused-function"

// The activations are kernels_body.h's tanh1/sigmoid1 (the same functions nlukit_tanh and
// nlukit_sigmoid use), compiled here per CPU level under their own names.

// The products are rounded separately, as the Swift loop this replaces did.
#define NLU_LSTM_CELL_BODY                                                                   \
    for (long r = 0; r < rows; r++) {                                                        \
        float *g = gates + r * 4 * hidden;                                                   \
        const float *cp = c0 + r * hidden;                                                   \
        float *cn = c1 + r * hidden, *h = h1 + r * hidden;                                   \
        /* Every iteration touches only its own unit: safe to vectorize in place. */         \
        _Pragma("clang loop vectorize(assume_safety)")                                       \
        for (long u = 0; u < hidden; u++) {                                                  \
            float i = NLU_NAME(sigmoid1)(g[u]), f = NLU_NAME(sigmoid1)(g[hidden + u]);       \
            float gg = NLU_NAME(tanh1)(g[2 * hidden + u]), o = NLU_NAME(sigmoid1)(g[3 * hidden + u]); \
            g[u] = i; g[hidden + u] = f; g[2 * hidden + u] = gg; g[3 * hidden + u] = o;      \
            float forget = f * cp[u], write = i * gg;                                        \
            float c = forget + write;                                                        \
            cn[u] = c;                                                                       \
            h[u] = o * NLU_NAME(tanh1)(c);                                                   \
        }                                                                                    \
    }

// Same operation order as the Swift loop it replaces, products rounded separately (no FMA), so
// the gradients are unchanged bit for bit.
#define NLU_LSTM_CELL_BACKWARD_BODY                                                          \
    _Pragma("clang fp contract(off)")                                                        \
    for (long r = 0; r < rows; r++) {                                                        \
        const float *g = gates + r * 4 * hidden;                                             \
        float *d = gate_gradients + r * 4 * hidden;                                          \
        const long o0 = r * hidden;                                                          \
        _Pragma("clang loop vectorize(assume_safety)")                                       \
        for (long u = 0; u < hidden; u++) {                                                  \
            float i = g[u], f = g[hidden + u], gg = g[2 * hidden + u], o = g[3 * hidden + u]; \
            float t = NLU_NAME(tanh1)(c1[o0 + u]);                                           \
            float dh = upstream[o0 + u] + dh_next[o0 + u];                                   \
            float dc = dh * o * (1 - t * t) + cell_gradient[o0 + u];                         \
            d[u] = dc * gg * i * (1 - i);                                                    \
            d[hidden + u] = dc * c0[o0 + u] * f * (1 - f);                                   \
            d[2 * hidden + u] = dc * i * (1 - gg * gg);                                      \
            d[3 * hidden + u] = dh * t * o * (1 - o);                                        \
            cell_gradient[o0 + u] = dc * f;                                                  \
        }                                                                                    \
    }

#define NLU_BACKWARD_SIGNATURE(name)                                                         \
    NLU_TARGET static void name(const float *gates, const float *c0, const float *c1, const float *upstream, \
                                const float *dh_next, float *cell_gradient, float *gate_gradients, long rows, long hidden)

#define NLU_NAME(name) nlu_lc_baseline_##name
#define NLU_TARGET
#include "kernels_body.h"
NLU_TARGET static void NLU_NAME(lstm_cell_forward)(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden) {
    NLU_LSTM_CELL_BODY
}
NLU_BACKWARD_SIGNATURE(NLU_NAME(lstm_cell_backward)) {
    NLU_LSTM_CELL_BACKWARD_BODY
}
#undef NLU_NAME
#undef NLU_TARGET

#if defined(__x86_64__) && (defined(__clang__) || defined(__GNUC__))
#define NLU_LC_MULTI_LEVEL 1

#define NLU_NAME(name) nlu_lc_avx2_##name
#define NLU_TARGET __attribute__((target("avx2,fma")))
#include "kernels_body.h"
NLU_TARGET static void NLU_NAME(lstm_cell_forward)(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden) {
    NLU_LSTM_CELL_BODY
}
NLU_BACKWARD_SIGNATURE(NLU_NAME(lstm_cell_backward)) {
    NLU_LSTM_CELL_BACKWARD_BODY
}
#undef NLU_NAME
#undef NLU_TARGET

#define NLU_NAME(name) nlu_lc_avx512_##name
#define NLU_TARGET __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw,avx2,fma")))
#include "kernels_body.h"
NLU_TARGET static void NLU_NAME(lstm_cell_forward)(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden) {
    NLU_LSTM_CELL_BODY
}
NLU_BACKWARD_SIGNATURE(NLU_NAME(lstm_cell_backward)) {
    NLU_LSTM_CELL_BACKWARD_BODY
}
#undef NLU_NAME
#undef NLU_TARGET
#endif

void nlukit_lstm_cell_forward(float *gates, const float *c0, float *c1, float *h1, long rows, long hidden) {
#ifdef NLU_LC_MULTI_LEVEL
    switch (nlukit_kernel_level()) {
    case 2: nlu_lc_avx512_lstm_cell_forward(gates, c0, c1, h1, rows, hidden); return;
    case 1: nlu_lc_avx2_lstm_cell_forward(gates, c0, c1, h1, rows, hidden); return;
    default: break;
    }
#endif
    nlu_lc_baseline_lstm_cell_forward(gates, c0, c1, h1, rows, hidden);
}

void nlukit_lstm_cell_backward(const float *gates, const float *c0, const float *c1, const float *upstream,
                               const float *dh_next, float *cell_gradient, float *gate_gradients, long rows, long hidden) {
#ifdef NLU_LC_MULTI_LEVEL
    switch (nlukit_kernel_level()) {
    case 2: nlu_lc_avx512_lstm_cell_backward(gates, c0, c1, upstream, dh_next, cell_gradient, gate_gradients, rows, hidden); return;
    case 1: nlu_lc_avx2_lstm_cell_backward(gates, c0, c1, upstream, dh_next, cell_gradient, gate_gradients, rows, hidden); return;
    default: break;
    }
#endif
    nlu_lc_baseline_lstm_cell_backward(gates, c0, c1, upstream, dh_next, cell_gradient, gate_gradients, rows, hidden);
}
