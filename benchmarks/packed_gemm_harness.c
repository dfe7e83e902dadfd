// The packed GEMM alone, outside Swift: GFLOP/s and share of the FMA peak of one CPU level on the
// dense layers of BERT-base, built from Sources/CKernels by benchmarks/packed_gemm_harness.py (which
// documents the options). A kernel change can be timed here in seconds, without a release build,
// and beside the committed kernel in the same process: the script compiles a second CKernels folder
// with its packed GEMM's symbols renamed candidate_*, and the rounds alternate between the two.
//
// Times are the CPU time of the slowest thread (CLOCK_THREAD_CPUTIME_ID): on a busy machine a
// preempted thread does not count the time it waits, and the best of the rounds is the kernel's
// speed with the caches to itself. Threads split the panels as PackedMatrix.multiply does (a few
// chunks per thread, handed out in turn) and do not wait for each other between calls. Successive
// calls take their weights from COPIES packed copies in turn: in a forward pass the other layers'
// weights pass through the caches between two uses of one, so B comes from memory, not from L3.
#define _GNU_SOURCE
#include "CKernels.h"
#include "PackedGEMM.h"
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef void (*gemm_function)(const float *, long, long, long, const float *, long, long, long, float *, long, int,
                              const float *, int);
typedef void (*pack_function)(const float *, long, int, long, long, float *);

// The candidate kernel, when the script links one (weak: absent, they are NULL).
void candidate_packed_gemm(const float *, long, long, long, const float *, long, long, long, float *, long, int,
                           const float *, int) __attribute__((weak));
void candidate_pack(const float *, long, int, long, long, float *) __attribute__((weak));
long candidate_packed_size(long, long) __attribute__((weak));

struct kernel {
    const char *name;
    gemm_function gemm;
    pack_function pack;
    long (*packed_size)(long, long);
};

// BERT-base's dense layers with their epilogues (TransformerBlock): Q/K/V as one product, the
// attention output and the second feed-forward product adding into the residual.
static const struct shape {
    const char *name;
    long k, n;
    int accumulate, activation;
} shapes[] = {
    {"Q/K/V 768->2304 +bias", 768, 2304, 0, NLUKIT_ACTIVATION_NONE},
    {"attention out 768->768 +bias +residual", 768, 768, 1, NLUKIT_ACTIVATION_NONE},
    {"FFN up 768->3072 +bias, GELU", 768, 3072, 0, NLUKIT_ACTIVATION_GELU},
    {"FFN down 3072->768 +bias +residual", 3072, 768, 1, NLUKIT_ACTIVATION_NONE},
};
enum { SHAPES = sizeof shapes / sizeof shapes[0], MAX_ROUNDS = 99, MAX_THREADS = 64 };

static double thread_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

// One core's FMA peak at the current level: the best of five probes.
static double fma_peak(void) {
    double best = 0;
    for (int round = 0; round < 5; round++) {
        const double start = thread_seconds();
        const double flops = nlukit_fma_peak_probe(20000000);
        const double rate = flops / (thread_seconds() - start);
        if (rate > best) best = rate;
    }
    return best;
}

enum { MAX_COPIES = 64 };

struct work {
    const struct kernel *kernel;
    const float *a, *bias;
    float *const *copies;  // the packed weights, `copy_count` copies, used in turn
    float *c;
    long m, k, n, calls;
    int accumulate, activation, thread, threads, chunks_per_thread, copy_count, copy;
    double seconds;  // CPU time of this thread over `calls` calls
};

// This thread's share of one product: chunk i of the panels goes to thread i mod threads.
static void multiply_share(struct work *w) {
    const float *packed = w->copies[w->copy];
    w->copy = (w->copy + 1) % w->copy_count;
    const long panels = (w->n + NLUKIT_PANEL_WIDTH - 1) / NLUKIT_PANEL_WIDTH;
    const long wanted = (long)w->threads * w->chunks_per_thread, chunks = panels < wanted ? panels : wanted;
    const long size = panels / chunks, larger = panels % chunks;  // Kernels.forEachRowChunk's split
    for (long i = w->thread; i < chunks; i += w->threads) {
        const long first = i * size + (i < larger ? i : larger), end = first + size + (i < larger);
        w->kernel->gemm(w->a, w->k, w->m, w->k, packed, w->n, first, end, w->c, w->n, w->accumulate, w->bias,
                        w->activation);
    }
}

static void *timed_calls(void *argument) {
    struct work *w = argument;
    const double start = thread_seconds();
    for (long call = 0; call < w->calls; call++) multiply_share(w);
    w->seconds = thread_seconds() - start;
    return NULL;
}

// Seconds per product: the slowest thread's CPU time over `calls` products, divided by `calls`.
static double time_round(const struct work *base) {
    struct work works[MAX_THREADS];
    pthread_t threads[MAX_THREADS];
    for (int t = 0; t < base->threads; t++) {
        works[t] = *base;
        works[t].thread = t;
        if (pthread_create(&threads[t], NULL, timed_calls, &works[t]) != 0) {
            fprintf(stderr, "packed_gemm_harness: cannot start thread %d\n", t);
            exit(1);
        }
    }
    double slowest = 0;
    for (int t = 0; t < base->threads; t++) {
        pthread_join(threads[t], NULL);
        if (works[t].seconds > slowest) slowest = works[t].seconds;
    }
    return slowest / (double)base->calls;
}

static float next_value(unsigned *state) {  // uniform in [-0.5, 0.5), reproducible
    *state = *state * 1664525u + 1013904223u;
    return (float)(*state >> 8) / 16777216.0f - 0.5f;
}

static int compare_doubles(const void *x, const void *y) {
    const double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static long parse_number(const char *text, const char *option, long low, long high) {
    char *end;
    const long value = strtol(text, &end, 10);
    if (*text == 0 || *end != 0 || value < low || value > high) {
        fprintf(stderr, "packed_gemm_harness: %s expects a whole number in [%ld, %ld], got \"%s\"\n", option, low, high, text);
        exit(2);
    }
    return value;
}

// usage: packed_gemm_harness LEVEL THREADS ROWS ROUNDS MILLISECONDS COPIES
// LEVEL 0 portable, 1 AVX2, 2 AVX-512 (at most the CPU's own); ROWS the M of every product.
int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: packed_gemm_harness LEVEL THREADS ROWS ROUNDS MILLISECONDS COPIES\n");
        return 2;
    }
    const int level = (int)parse_number(argv[1], "LEVEL", 0, 2);
    const int threads = (int)parse_number(argv[2], "THREADS", 1, MAX_THREADS);
    const long m = parse_number(argv[3], "ROWS", 1, 65536);
    const int rounds = (int)parse_number(argv[4], "ROUNDS", 1, MAX_ROUNDS);
    const double seconds = 1e-3 * (double)parse_number(argv[5], "MILLISECONDS", 1, 60000);
    const int copy_count = (int)parse_number(argv[6], "COPIES", 1, MAX_COPIES);
    if (level > nlukit_cpu_level()) {
        fprintf(stderr, "packed_gemm_harness: this CPU runs levels up to %d, not %d\n", nlukit_cpu_level(), level);
        return 2;
    }
    nlukit_limit_kernel_level(level);
    // PackedMatrix.chunksPerThread: 2 at x86-64's portable level (its SSE2 block shares one broadcast
    // copy of A over a chunk's panels), 8 elsewhere.
#if defined(__x86_64__)
    const int chunks_per_thread = level == 0 ? 2 : 8;
#else
    const int chunks_per_thread = 8;
#endif
    const struct kernel kernels[2] = {{"committed", nlukit_packed_gemm, nlukit_pack, nlukit_packed_size},
                                      {"candidate", candidate_packed_gemm, candidate_pack, candidate_packed_size}};
    const int kernel_count = candidate_packed_gemm && candidate_pack && candidate_packed_size ? 2 : 1;

    // The peak is probed before and after the products, and the higher kept: a probe disturbed by
    // another process would make every share look better than it is.
    const double peak_before = fma_peak();
    printf("level %d, %d thread%s, M = %ld, weights from %d cop%s in turn\n", level, threads, threads > 1 ? "s" : "", m,
           copy_count, copy_count > 1 ? "ies" : "y");
    double flops_total = 0, best_total[2] = {0, 0}, median_total[2] = {0, 0};
    double shape_flops[SHAPES], best_seconds[SHAPES][2], median_seconds[SHAPES][2];
    int failed = 0;
    for (int s = 0; s < SHAPES; s++) {
        const struct shape *shape = &shapes[s];
        const long k = shape->k, n = shape->n;
        float *a = malloc(sizeof(float) * m * k), *weight = malloc(sizeof(float) * n * k), *bias = malloc(sizeof(float) * n);
        float *start = malloc(sizeof(float) * m * n), *c = malloc(sizeof(float) * m * n);
        double *expected = malloc(sizeof(double) * m * n);
        if (!a || !weight || !bias || !start || !c || !expected) {
            fprintf(stderr, "packed_gemm_harness: out of memory for M = %ld\n", m);
            return 1;
        }
        unsigned state = 12345;
        for (long i = 0; i < m * k; i++) a[i] = next_value(&state);
        for (long i = 0; i < n * k; i++) weight[i] = 0.1f * next_value(&state);  // nn.Linear: [n, k]
        for (long i = 0; i < n; i++) bias[i] = next_value(&state);
        for (long i = 0; i < m * n; i++) start[i] = next_value(&state);
        for (long i = 0; i < m; i++)
            for (long j = 0; j < n; j++) {
                double sum = bias[j] + (shape->accumulate ? start[i * n + j] : 0);
                for (long kk = 0; kk < k; kk++) sum += (double)a[i * k + kk] * weight[j * k + kk];
                if (shape->activation == NLUKIT_ACTIVATION_GELU) sum = 0.5 * sum * (1 + erf(sum / sqrt(2.0)));
                expected[i * n + j] = sum;
            }
        const double flops = 2.0 * (double)m * (double)k * (double)n;
        shape_flops[s] = flops;
        flops_total += flops;

        struct work works[2];
        float *packed[2][MAX_COPIES];
        double samples[2][MAX_ROUNDS];
        for (int v = 0; v < kernel_count; v++) {
            const struct kernel *kernel = &kernels[v];
            for (int copy = 0; copy < copy_count; copy++) {
                packed[v][copy] = aligned_alloc(64, sizeof(float) * (size_t)((kernel->packed_size(k, n) + 15) / 16 * 16));
                if (!packed[v][copy]) {
                    fprintf(stderr, "packed_gemm_harness: out of memory for %d copies of the weights\n", copy_count);
                    return 1;
                }
                kernel->pack(weight, k, 1, k, n, packed[v][copy]);
            }
            works[v] = (struct work){kernel, a, bias, packed[v], c, m, k, n, 1, shape->accumulate, shape->activation, 0, 1,
                                     chunks_per_thread, copy_count, 0, 0};
            // Checked against the double-precision product before it is timed; the tolerance is the
            // kernel tests' float accumulation over K, scaled by the output's size.
            memcpy(c, start, sizeof(float) * m * n);
            multiply_share(&works[v]);
            double worst = 0;
            for (long i = 0; i < m * n; i++) {
                const double error = fabs(c[i] - expected[i]) / (1 + fabs(expected[i]));
                if (error > worst) worst = error;
            }
            if (worst > 1e-4) {
                printf("  %s, %s kernel: WRONG, largest error %.2e (tolerance 1e-4)\n", shape->name, kernel->name, worst);
                failed = 1;
            }
            works[v].threads = threads;
            const double probe = time_round(&works[v]);
            works[v].calls = (long)(seconds / (probe > 1e-9 ? probe : 1e-9)) + 1;
        }
        // The rounds alternate between the kernels, so both see the same load.
        for (int round = 0; round < rounds; round++)
            for (int v = 0; v < kernel_count; v++) samples[v][round] = time_round(&works[v]);
        for (int v = 0; v < kernel_count; v++) {
            qsort(samples[v], (size_t)rounds, sizeof(double), compare_doubles);
            best_seconds[s][v] = samples[v][0];
            median_seconds[s][v] = samples[v][rounds / 2];
            best_total[v] += best_seconds[s][v];
            median_total[v] += median_seconds[s][v];
            for (int copy = 0; copy < copy_count; copy++) free(packed[v][copy]);
        }
        free(a); free(weight); free(bias); free(start); free(c); free(expected);
    }
    const double peak_after = fma_peak(), peak = (peak_after > peak_before ? peak_after : peak_before) * threads;
    printf("  FMA peak %.1f GFLOP/s (%d × one core's)\n", peak / 1e9, threads);
    for (int s = 0; s <= SHAPES; s++)
        for (int v = 0; v < kernel_count; v++) {
            const double flops = s < SHAPES ? shape_flops[s] : flops_total;
            const double best = s < SHAPES ? best_seconds[s][v] : best_total[v];
            const double median = s < SHAPES ? median_seconds[s][v] : median_total[v];
            printf("  %-40s %-9s best %6.1f GFLOP/s %5.1f %%   median %6.1f GFLOP/s %5.1f %%\n",
                   s < SHAPES ? shapes[s].name : "all four (time-weighted)", kernels[v].name, flops / best / 1e9,
                   100 * flops / best / peak, flops / median / 1e9, 100 * flops / median / peak);
        }
    return failed;
}
