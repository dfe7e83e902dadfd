// Checks NLUKit's C kernels (Sources/CKernels) against scalar double-precision references written
// here, at every CPU level the machine runs: the packed GEMM (edge shapes, both packings,
// accumulate, bias, every activation), the INT8 GEMM's exact integer sums (8-bit and 7-bit
// weights), INT8 attention's column packing and quantized softmax, the element-wise functions and the row kernels (softmax with mask, log-softmax,
// layer norm), the transpose and the recurrent layers' gate-gradient gathering (both exact), Adam's
// step and the sum of squares of gradient clipping. Built and run by scripts/test-arm64-kernels.sh natively
// and for aarch64 under qemu-aarch64, where the NEON block and the compiler's NEON code of the
// vector-extension kernels are what runs. Tolerances are stated beside each check.
#include "CKernels.h"
#include "Int8GEMM.h"
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int passed, failed;

static void check(int ok, const char *what, int level, double error, double tolerance) {
    if (ok) { passed++; return; }
    failed++;
    if (failed <= 20) fprintf(stderr, "FAIL level %d: %s (error %.3g > tolerance %.3g)\n", level, what, error, tolerance);
}

static unsigned long long state = 0x9E3779B97F4A7C15ull;
static float uniform(float low, float high) {  // SplitMix64: the same inputs on every machine
    unsigned long long z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return low + (high - low) * (float)((z >> 40) * (1.0 / 16777216.0));
}

static double activate(double x, int activation) {
    switch (activation) {
    case NLUKIT_ACTIVATION_GELU: return 0.5 * x * (1 + erf(x / sqrt(2.0)));
    case NLUKIT_ACTIVATION_GELU_TANH: return 0.5 * x * (1 + tanh(sqrt(2 / M_PI) * (x + 0.044715 * x * x * x)));
    case NLUKIT_ACTIVATION_RELU: return x > 0 ? x : 0;
    default: return x;
    }
}

// Packed GEMM: tolerance 1e-6 · Σ|a·b| + 1e-5 per element (float accumulation in another order;
// the activations' polynomial approximations are within 1e-6 relative).
static void test_packed_gemm(int level) {
    const long ms[] = {1, 2, 3, 4, 5, 7, 9, 13, 17, 40}, ks[] = {1, 3, 4, 5, 17, 64, 130, 1100}, ns[] = {1, 16, 31, 32, 33, 70};
    for (size_t im = 0; im < sizeof ms / sizeof *ms; im++)
        for (size_t ik = 0; ik < sizeof ks / sizeof *ks; ik++)
            for (size_t in = 0; in < sizeof ns / sizeof *ns; in++) {
                const long m = ms[im], k = ks[ik], n = ns[in], lda = k + 3, ldc = n + 5;
                const int transposed = (int)((im + ik + in) % 2), accumulate = (int)((im + in) % 2);
                const int activation = (int)((ik + in) % 4), with_bias = (int)(im % 2 == 0);
                float *a = malloc(sizeof(float) * m * lda), *b = malloc(sizeof(float) * k * n);
                float *bias = malloc(sizeof(float) * n), *c = malloc(sizeof(float) * m * ldc);
                float *packed = aligned_alloc(64, sizeof(float) * (size_t)(nlukit_packed_size(k, n) + 16));
                for (long i = 0; i < m * lda; i++) a[i] = uniform(-1, 1);
                for (long i = 0; i < k * n; i++) b[i] = uniform(-1, 1);
                for (long i = 0; i < n; i++) bias[i] = uniform(-1, 1);
                for (long i = 0; i < m * ldc; i++) c[i] = uniform(-1, 1);
                float *old = malloc(sizeof(float) * m * ldc);
                memcpy(old, c, sizeof(float) * m * ldc);
                // transposed: b holds Bᵀ (n × k, row stride k); else B (k × n, row stride n)
                nlukit_pack(b, transposed ? k : n, transposed, k, n, packed);
                nlukit_packed_gemm(a, lda, m, k, packed, n, 0, (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH, c, ldc,
                                   accumulate, with_bias ? bias : NULL, activation);
                double worst = 0, worst_tolerance = 0;
                int ok = 1;
                for (long i = 0; i < m; i++) {
                    for (long j = 0; j < n; j++) {
                        double sum = accumulate ? old[i * ldc + j] : 0, magnitude = fabs(sum);
                        for (long kk = 0; kk < k; kk++) {
                            const double bv = transposed ? b[j * k + kk] : b[kk * n + j];
                            sum += (double)a[i * lda + kk] * bv;
                            magnitude += fabs((double)a[i * lda + kk] * bv);
                        }
                        if (with_bias) { sum += bias[j]; magnitude += fabs(bias[j]); }
                        const double expected = activate(sum, activation), error = fabs(c[i * ldc + j] - expected);
                        const double tolerance = 1e-6 * magnitude + 1e-5;
                        if (error > tolerance || error != error) { ok = 0; if (error > worst) { worst = error; worst_tolerance = tolerance; } }
                    }
                    for (long j = n; j < ldc; j++) ok &= c[i * ldc + j] == old[i * ldc + j];  // columns past n untouched
                }
                char what[160];
                snprintf(what, sizeof what, "packed GEMM m=%ld k=%ld n=%ld transposed=%d accumulate=%d bias=%d activation=%d",
                         m, k, n, transposed, accumulate, with_bias, activation);
                check(ok, what, level, worst, worst_tolerance);
                free(a); free(b); free(bias); free(c); free(old); free(packed);
            }
}

typedef void (*elementwise)(const float *, float *, long);
// INT8 GEMM: the int32 sums must equal Σ qx·qw over the quantized bytes exactly, for weights packed
// at limit 127 and 63, with the activations in every form (signed, +128, 7-bit +64; the level's own
// among them). The last row sits at the form's limit and channel 0 at the weight limit: the largest
// products, where a saturating int16 pair sum would show.
static void test_int8(int level) {
    static const long shapes[][3] = {{1, 1, 1}, {3, 18, 40}, {7, 37, 70}, {13, 128, 64}, {4, 200, 33}};
    for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        const long m = shapes[s][0], k = shapes[s][1], n = shapes[s][2];
        for (int form_and_limit = 0; form_and_limit < 6; form_and_limit++) {
            const int form = form_and_limit / 2, limit = form_and_limit % 2 ? 127 : 63;
            const int offset = form == NLUKIT_INT8_UNSIGNED ? 128 : form == NLUKIT_INT8_UNSIGNED_7BIT ? 64 : 0;
            const int row_limit = nlukit_int8_activation_limit(form);
            const long padded = nlukit_int8_padded_inner(k), panels = (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH;
            float *w = malloc(sizeof(float) * n * k), *x = malloc(sizeof(float) * m * k), *scales = malloc(sizeof(float) * m);
            float *w_scales = malloc(sizeof(float) * panels * NLUKIT_PANEL_WIDTH);
            int32_t *column_sums = malloc(sizeof(int32_t) * panels * NLUKIT_PANEL_WIDTH), *sums = malloc(sizeof(int32_t) * m * n);
            int8_t *packed = aligned_alloc(64, (size_t)(nlukit_int8_packed_size(k, n) + 63) / 64 * 64);
            int8_t *q = malloc((size_t)(m * padded));
            for (long i = 0; i < n * k; i++) w[i] = i < k ? 1.0f : uniform(-1, 1);
            for (long i = 0; i < m * k; i++) x[i] = i >= (m - 1) * k ? 3.0f : uniform(-3, 3);
            nlukit_int8_pack(w, k, k, n, limit, packed, w_scales, column_sums);
            nlukit_int8_quantize_rows(x, k, m, k, q, padded, scales, form);
            nlukit_int8_gemm(q, padded, scales, form, m, k, packed, limit, w_scales, column_sums, n, 0,
                             panels, NULL, n, 0, NULL, NLUKIT_ACTIVATION_NONE, sums);
            long mismatches = 0, out_of_range = 0;
            for (long j = 0; j < n; j++) {
                const int8_t *panel = packed + (j / NLUKIT_PANEL_WIDTH) * padded * NLUKIT_PANEL_WIDTH;
                for (long kk = 0; kk < k; kk++) {
                    const int v = panel[(kk / NLUKIT_INT8_K_GROUP) * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP +
                                        (j % NLUKIT_PANEL_WIDTH) * NLUKIT_INT8_K_GROUP + kk % NLUKIT_INT8_K_GROUP];
                    if (v < -limit || v > limit || (j == 0 && v != limit)) out_of_range++;
                }
                for (long i = 0; i < m; i++) {
                    long long exact = 0;
                    for (long kk = 0; kk < k; kk++) {
                        const int qx = offset ? (int)(uint8_t)q[i * padded + kk] - offset : q[i * padded + kk];
                        if (qx < -row_limit || qx > row_limit || (i == m - 1 && qx != row_limit)) out_of_range++;
                        const int qw = panel[(kk / NLUKIT_INT8_K_GROUP) * NLUKIT_PANEL_WIDTH * NLUKIT_INT8_K_GROUP +
                                             (j % NLUKIT_PANEL_WIDTH) * NLUKIT_INT8_K_GROUP + kk % NLUKIT_INT8_K_GROUP];
                        exact += (long long)qx * qw;
                    }
                    if (sums[i * n + j] != exact) mismatches++;
                }
            }
            char what[96];
            snprintf(what, sizeof what, "int8 sums %ldx%ldx%ld, activation form %d, weight limit %d", m, k, n, form, limit);
            check(mismatches == 0 && out_of_range == 0, what, level, (double)(mismatches + out_of_range), 0);
            free(w); free(x); free(scales); free(w_scales); free(column_sums); free(sums); free(packed); free(q);
        }
    }
}

// INT8 attention's own operands: the values packed per column must be the packing of their
// transpose byte for byte (scales and column sums too), and each quantized probability must be
// round(L · exp(x - max)) within the coarse exp's 7.5e-5 (0.52 of a step), with a masked key 0.
static void test_int8_attention(int level) {
    static const long shapes[][2] = {{1, 1}, {37, 64}, {70, 33}, {384, 96}};
    for (int s = 0; s < (int)(sizeof shapes / sizeof shapes[0]); s++) {
        const long k = shapes[s][0], n = shapes[s][1], stride = n + 3, columns = (n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH * NLUKIT_PANEL_WIDTH;
        for (int limit = 63; limit <= 127; limit += 64) {
            float *b = malloc(sizeof(float) * k * stride), *t = malloc(sizeof(float) * n * k);
            for (long i = 0; i < k * stride; i++) b[i] = uniform(-2, 2);
            for (long kk = 0; kk < k; kk++) for (long j = 0; j < n; j++) t[j * k + kk] = b[kk * stride + j];
            const long size = nlukit_int8_packed_size(k, n);
            int8_t *expected = aligned_alloc(64, (size_t)(size + 63) / 64 * 64), *got = aligned_alloc(64, (size_t)(size + 63) / 64 * 64);
            float *expected_scales = malloc(sizeof(float) * columns), *got_scales = malloc(sizeof(float) * columns);
            int32_t *expected_sums = malloc(sizeof(int32_t) * columns), *got_sums = malloc(sizeof(int32_t) * columns);
            nlukit_int8_pack(t, k, k, n, limit, expected, expected_scales, expected_sums);
            nlukit_int8_pack_columns(b, stride, k, n, limit, got, got_scales, got_sums);
            const int same = memcmp(expected, got, (size_t)size) == 0 && memcmp(expected_scales, got_scales, sizeof(float) * columns) == 0
                             && memcmp(expected_sums, got_sums, sizeof(int32_t) * columns) == 0;
            char what[96];
            snprintf(what, sizeof what, "int8 column packing %ldx%ld, weight limit %d", k, n, limit);
            check(same, what, level, same ? 0 : 1, 0);
            free(b); free(t); free(expected); free(got); free(expected_scales); free(got_scales); free(expected_sums); free(got_sums);
        }
    }
    const long rows = 3, length = 77, ldq = 80;
    float scores[3 * 77], work[3 * 77], mask[77], scales[3];
    int8_t q[3 * 80];
    for (long i = 0; i < rows * length; i++) scores[i] = uniform(-8, 8);
    for (long i = 0; i < length; i++) mask[i] = i % 4 == 3 ? -INFINITY : 0;
    for (int form = NLUKIT_INT8_SIGNED; form <= NLUKIT_INT8_UNSIGNED_7BIT; form++) {
        memcpy(work, scores, sizeof scores);
        nlukit_int8_softmax_rows(work, rows, length, mask, q, ldq, scales, form);
        const double limit = form == NLUKIT_INT8_UNSIGNED ? 255 : 127;
        double worst = 0;
        for (long r = 0; r < rows; r++) {
            double top = -INFINITY;
            for (long i = 0; i < length; i++) if (mask[i] == 0 && scores[r * length + i] > top) top = scores[r * length + i];
            for (long i = 0; i < ldq; i++) {
                const double code = form != NLUKIT_INT8_SIGNED ? (uint8_t)q[r * ldq + i] : q[r * ldq + i];
                const double want = i < length && mask[i] == 0 ? limit * exp(scores[r * length + i] - top) : 0;
                const double error = fabs(code - want);
                if (!(error <= worst)) worst = error;
            }
        }
        char what[96];
        snprintf(what, sizeof what, "int8 softmax rows, activation form %d", form);
        check(worst <= 0.52, what, level, worst, 0.52);
    }
}

static double ref_sigmoid(double x) { return 1 / (1 + exp(-x)); }
static double ref_relu(double x) { return x > 0 ? x : 0; }
static double ref_gelu(double x) { return activate(x, NLUKIT_ACTIVATION_GELU); }
static double ref_gelu_tanh(double x) { return activate(x, NLUKIT_ACTIVATION_GELU_TANH); }

// Element-wise: |error| ≤ 4e-6·|expected| + 1e-6 on 1,003 inputs in [-12, 12] (odd count: the
// vector loops' scalar tails run too), plus the in-place form.
static void test_elementwise(int level) {
    struct { const char *name; elementwise kernel; double (*reference)(double); float low, high; } cases[] = {
        {"exp", nlukit_exp, exp, -80, 80}, {"erf", nlukit_erf, erf, -6, 6}, {"tanh", nlukit_tanh, tanh, -12, 12},
        {"sigmoid", nlukit_sigmoid, ref_sigmoid, -30, 30}, {"relu", nlukit_relu, ref_relu, -12, 12},
        {"gelu", nlukit_gelu, ref_gelu, -12, 12}, {"gelu_tanh", nlukit_gelu_tanh, ref_gelu_tanh, -12, 12},
    };
    enum { COUNT = 1003 };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        float x[COUNT], y[COUNT], z[COUNT];
        for (int i = 0; i < COUNT; i++) x[i] = uniform(cases[c].low, cases[c].high);
        x[0] = 0; x[1] = -0.0f; x[2] = 1e-7f;
        cases[c].kernel(x, y, COUNT);
        memcpy(z, x, sizeof z);
        cases[c].kernel(z, z, COUNT);
        double worst = 0, tolerance_at_worst = 0;
        int ok = 1;
        for (int i = 0; i < COUNT; i++) {
            const double expected = cases[c].reference(x[i]), error = fabs(y[i] - expected);
            const double tolerance = 4e-6 * fabs(expected) + 1e-6;
            if (!(error <= tolerance) || y[i] != z[i]) { ok = 0; if (!(error <= worst)) { worst = error; tolerance_at_worst = tolerance; } }
        }
        check(ok, cases[c].name, level, worst, tolerance_at_worst);
    }
}

// Row kernels over rows of 1, 7, 64 and 771 floats: softmax (with an additive mask of 2 rows, one
// entry -inf) and log-softmax within 2e-6 absolute, layer norm within 2e-5 absolute.
static void test_rows(int level) {
    const long lengths[] = {1, 7, 64, 771};
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++) {
        const long rows = 3, length = lengths[l];
        float *x = malloc(sizeof(float) * rows * length), *y = malloc(sizeof(float) * rows * length);
        float *mask = malloc(sizeof(float) * 2 * length), *weight = malloc(sizeof(float) * length),
              *bias = malloc(sizeof(float) * length);
        for (long i = 0; i < rows * length; i++) x[i] = uniform(-8, 8);
        for (long i = 0; i < 2 * length; i++) mask[i] = uniform(-2, 0);
        if (length > 1) mask[length + 1] = -INFINITY;
        for (long i = 0; i < length; i++) { weight[i] = uniform(0.5f, 1.5f); bias[i] = uniform(-1, 1); }
        char what[96];

        nlukit_softmax_rows(x, y, rows, length, mask, 2, 1);
        double worst = 0;
        for (long r = 0; r < rows; r++) {
            const float *m = mask + ((1 + r) % 2) * length;
            double top = -INFINITY, total = 0;
            for (long j = 0; j < length; j++) if (x[r * length + j] + (double)m[j] > top) top = x[r * length + j] + (double)m[j];
            for (long j = 0; j < length; j++) total += exp(x[r * length + j] + (double)m[j] - top);
            for (long j = 0; j < length; j++) {
                const double error = fabs(y[r * length + j] - exp(x[r * length + j] + (double)m[j] - top) / total);
                if (!(error <= worst)) worst = error;
            }
        }
        snprintf(what, sizeof what, "softmax_rows length %ld", length);
        check(worst <= 2e-6, what, level, worst, 2e-6);

        nlukit_log_softmax_rows(x, y, rows, length);
        worst = 0;
        for (long r = 0; r < rows; r++) {
            double top = -INFINITY, total = 0;
            for (long j = 0; j < length; j++) if (x[r * length + j] > top) top = x[r * length + j];
            for (long j = 0; j < length; j++) total += exp(x[r * length + j] - top);
            for (long j = 0; j < length; j++) {
                const double error = fabs(y[r * length + j] - (x[r * length + j] - top - log(total)));
                if (!(error <= worst)) worst = error;
            }
        }
        snprintf(what, sizeof what, "log_softmax_rows length %ld", length);
        check(worst <= 2e-6, what, level, worst, 2e-6);

        nlukit_layer_norm_rows(x, y, rows, length, weight, bias, 1e-5f);
        worst = 0;
        for (long r = 0; r < rows; r++) {
            double mean = 0, variance = 0;
            for (long j = 0; j < length; j++) mean += x[r * length + j];
            mean /= length;
            for (long j = 0; j < length; j++) variance += (x[r * length + j] - mean) * (x[r * length + j] - mean);
            variance /= length;
            for (long j = 0; j < length; j++) {
                const double expected = (x[r * length + j] - mean) / sqrt(variance + 1e-5) * weight[j] + bias[j];
                const double error = fabs(y[r * length + j] - expected);
                if (!(error <= worst)) worst = error;
            }
        }
        snprintf(what, sizeof what, "layer_norm_rows length %ld", length);
        check(worst <= 2e-5, what, level, worst, 2e-5);
        free(x); free(y); free(mask); free(weight); free(bias);
    }
}

// Transpose: exact, plain and accumulating, strided, every edge of the 8 × 8 blocks. Gate-gradient
// gathering: step by step (last first) it packs exactly as nlukit_pack packs the whole matrix, and
// its column and token sums equal the same float additions in the same order.
static void test_transpose_and_gathering(int level) {
    const long sizes[][2] = {{1, 1}, {8, 8}, {13, 29}, {40, 70}, {65, 33}};
    for (size_t c = 0; c < sizeof sizes / sizeof *sizes; c++) {
        const long rows = sizes[c][0], columns = sizes[c][1], lda = columns + 3, ldt = rows + 5;
        float *a = malloc(sizeof(float) * rows * lda), *t = malloc(sizeof(float) * columns * ldt),
              *start = malloc(sizeof(float) * columns * ldt);
        for (long i = 0; i < rows * lda; i++) a[i] = uniform(-1, 1);
        for (int accumulate = 0; accumulate <= 1; accumulate++) {
            for (long i = 0; i < columns * ldt; i++) t[i] = start[i] = uniform(-1, 1);
            nlukit_transpose(a, lda, rows, columns, t, ldt, accumulate);
            long wrong = 0;
            for (long j = 0; j < columns; j++)
                for (long i = 0; i < ldt; i++) {
                    const float expected = i >= rows ? start[j * ldt + i]
                                         : accumulate ? start[j * ldt + i] + a[i * lda + j] : a[i * lda + j];
                    wrong += memcmp(&expected, t + j * ldt + i, sizeof expected) != 0;
                }
            char what[96];
            snprintf(what, sizeof what, "transpose %ld x %ld accumulate %d", rows, columns, accumulate);
            check(wrong == 0, what, level, (double)wrong, 0);
        }
        free(a); free(t); free(start);
    }
    enum { STEPS = 4, BATCH = 3, WIDTH = 40, VOCABULARY = 5, ROWS = STEPS * BATCH };
    // 64-byte aligned, as PackedMatrix's storage: the whole panels take the non-temporal stores
    // (GateGradientKernelTests covers a misaligned buffer).
    static float g[ROWS * WIDTH], gathered[2 * ROWS * 32] __attribute__((aligned(64))), whole[2 * ROWS * 32];
    float sums[WIDTH] = {0}, token_sums[VOCABULARY * WIDTH] = {0}, expected_sums[WIDTH] = {0},
          expected_tokens[VOCABULARY * WIDTH] = {0};
    int32_t tokens[ROWS];
    for (long i = 0; i < ROWS * WIDTH; i++) g[i] = uniform(-1, 1);
    for (long r = 0; r < ROWS; r++) tokens[r] = (int32_t)(uniform(0, VOCABULARY - 0.01f));
    memset(gathered, 0xFF, sizeof gathered);  // NaN: a float left unwritten fails the comparison
    for (long step = STEPS - 1; step >= 0; step--) {
        nlukit_gate_gradient_rows(g + step * BATCH * WIDTH, BATCH, WIDTH, gathered, ROWS, step * BATCH, sums,
                                  tokens + step * BATCH, token_sums);
        for (long r = step * BATCH; r < (step + 1) * BATCH; r++)
            for (long j = 0; j < WIDTH; j++) {
                expected_sums[j] += g[r * WIDTH + j];
                expected_tokens[tokens[r] * WIDTH + j] += g[r * WIDTH + j];
            }
    }
    nlukit_pack(g, WIDTH, 0, ROWS, WIDTH, whole);
    check(nlukit_packed_size(ROWS, WIDTH) == 2 * ROWS * 32 && memcmp(gathered, whole, sizeof whole) == 0,
          "gate_gradient_rows packing", level, 0, 0);
    check(memcmp(sums, expected_sums, sizeof sums) == 0, "gate_gradient_rows column sums", level, 0, 0);
    check(memcmp(token_sums, expected_tokens, sizeof token_sums) == 0, "gate_gradient_rows token sums", level, 0, 0);
}

// Adam: against the update in double, within the bound of its float roundings; the sum of squares against double (relative 1e-6).
static void test_training(int level) {
    enum { COUNT = 1000 };
    static float p[COUNT], g[COUNT], m[COUNT], v[COUNT];
    static double pd[COUNT], md[COUNT], vd[COUNT];
    for (long i = 0; i < COUNT; i++) {
        pd[i] = p[i] = uniform(-1, 1); g[i] = uniform(-1, 1);
        md[i] = m[i] = uniform(-0.1f, 0.1f); vd[i] = v[i] = uniform(0, 0.01f);
    }
    const float beta1 = 0.9f, beta2 = 0.999f, step_size = 0.01f, correction2 = 0.3f, epsilon = 1e-8f, l2 = 0.01f, shrink = 0.99f;
    nlukit_adam_step(p, g, m, v, COUNT - 3, beta1, beta2, step_size, correction2, epsilon, l2, shrink);  // 3 left untouched
    double worst = 0;
    long untouched = 0;
    for (long i = 0; i < COUNT - 3; i++) {
        const double gradient = g[i] + (double)l2 * pd[i];
        md[i] = beta1 * md[i] + (1 - (double)beta1) * gradient;
        vd[i] = beta2 * vd[i] + (1 - (double)beta2) * gradient * gradient;
        const double step = step_size * md[i] / (sqrt(vd[i]) / correction2 + epsilon);
        const double expected = pd[i] * shrink - step;
        // Float roundings: p·shrink and the final difference (half an ulp of p each), the step's few
        // operations (a few ulps of the step): the error as a multiple of that bound.
        const double error = fabs(p[i] - expected) / (2.4e-7 * fabs(expected) + 2e-6 * fabs(step));
        if (error > worst) worst = error;
    }
    for (long i = COUNT - 3; i < COUNT; i++) untouched += p[i] == (float)pd[i];
    check(worst <= 1 && untouched == 3, "adam_step", level, worst, 1);
    double expected = 0;
    for (long i = 0; i < COUNT; i++) expected += (double)g[i] * g[i];
    const double sum = nlukit_sum_of_squares(g, COUNT), error = fabs(sum - expected) / expected;
    check(error <= 1e-6, "sum_of_squares", level, error, 1e-6);
}

int main(void) {
    const int best = nlukit_cpu_level();
    for (int level = 0; level <= best; level++) {
        if (nlukit_limit_kernel_level(level) != level) { fprintf(stderr, "could not select level %d\n", level); return 1; }
        const int before = failed;
        test_packed_gemm(level);
        test_int8(level);
        test_int8_attention(level);
        test_elementwise(level);
        test_rows(level);
        test_transpose_and_gathering(level);
        test_training(level);
        printf("level %d (%s): %s\n", level, level == 2 ? "avx512" : level == 1 ? "avx2" : "portable",
               failed == before ? "all checks within tolerance" : "FAILURES");
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
