#include "ThreadPool.h"
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <time.h>

// A job is published by storing (generation << 32 | 0) into `claim`; participants take task
// indices by compare-and-swap on the whole word, so a worker that wakes late, after its job was
// finished and another published, can never run a task of the new job with the old job's function.
// When its job is done the caller closes it (index CLOSED) before the pool is free again: the next
// caller writes its function, context and task count while `claim` still holds the old generation,
// and a worker that read the old word (all tasks taken) together with the new, larger task count
// would otherwise win its compare-and-swap and run a task of a job not yet published, which then
// runs twice and counts one finished task too many.

enum { MAX_WORKERS = 63 };
static const uint32_t CLOSED = UINT32_MAX;  // a task index no job reaches
// A waiting worker spins this long, then yields this long, before sleeping. A transformer layer
// runs a dozen kernels within a few milliseconds: spinning keeps their start-up at a fraction of a
// microsecond, and yielding leaves the core to other runnable threads (OpenBLAS's workers spin the
// same way after a GEMM) while staying quick to wake.
static const uint64_t SPIN_NANOSECONDS = 50 * 1000;
static const uint64_t YIELD_NANOSECONDS = 2 * 1000 * 1000;

static _Atomic uint64_t claim;          // generation << 32 | next task index
static _Atomic long finished;           // tasks of the current job that have returned
static _Atomic(nlukit_task_function) job_function;
static _Atomic(void *) job_context;
static _Atomic long job_tasks;
static _Atomic int job_workers;         // workers (not counting the caller) that take part
static _Atomic int busy;                // a job is running
static _Atomic int requested_threads;   // 0 until set: then the caller plus workers
static _Atomic int sleepers;

static pthread_mutex_t state_lock = PTHREAD_MUTEX_INITIALIZER;  // guards worker start and sleep
static pthread_cond_t job_posted = PTHREAD_COND_INITIALIZER;
static _Atomic int started_workers;  // only grows, under state_lock

static inline void cpu_relax(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__)
    __asm__ __volatile__("yield");
#endif
}

// One round of waiting for another thread that is running: spin at first, then leave the core to
// it (on an oversubscribed machine it may have lost its own).
static inline void back_off(unsigned spin) {
    if (spin < 4096) cpu_relax();
    else sched_yield();
}

static uint64_t now_nanoseconds(void) {
    struct timespec time;
    clock_gettime(CLOCK_MONOTONIC, &time);
    return (uint64_t)time.tv_sec * 1000000000u + (uint64_t)time.tv_nsec;
}

static inline uint32_t generation_of(uint64_t word) { return (uint32_t)(word >> 32); }

#ifdef NLUKIT_TEST_POOL_HOOKS
// scripts/tests/thread-pool-race-test.c only (the package never defines this): called where a thread
// losing its core opens a race between jobs, so that the test can hold a thread there and replay the
// interleaving deterministically.
void nlukit_test_hook_claim_read(uint64_t word);  // any thread, in run_tasks, having read `claim`
void nlukit_test_hook_job_done(void);             // the caller, all tasks finished, before closing
void nlukit_test_hook_job_written(void);          // the caller, the next job written, before publishing
#define TEST_HOOK(call) call
#else
#define TEST_HOOK(call)
#endif

// Claims and runs tasks of job `generation` until none is left (or a newer job is out).
static void run_tasks(uint32_t generation) {
    for (;;) {
        uint64_t word = atomic_load_explicit(&claim, memory_order_acquire);
        TEST_HOOK(nlukit_test_hook_claim_read(word));
        if (generation_of(word) != generation) return;
        const long task = (long)(uint32_t)word;
        const nlukit_task_function function = atomic_load_explicit(&job_function, memory_order_relaxed);
        void *const context = atomic_load_explicit(&job_context, memory_order_relaxed);
        if (task >= atomic_load_explicit(&job_tasks, memory_order_relaxed)) return;
        // Success means `claim` did not move since it was read, so the job was still open and the
        // function and context read above are this job's.
        if (!atomic_compare_exchange_weak_explicit(&claim, &word, word + 1, memory_order_acq_rel,
                                                   memory_order_acquire)) continue;
        function(context, task);
        atomic_fetch_add_explicit(&finished, 1, memory_order_release);
    }
}

// Waits until a job newer than `seen` is published and returns its generation.
static uint32_t wait_for_job(uint32_t seen) {
    const uint64_t start = now_nanoseconds();
    for (unsigned spin = 1;; spin++) {
        const uint32_t generation = generation_of(atomic_load_explicit(&claim, memory_order_acquire));
        if (generation != seen) return generation;
        cpu_relax();
        if ((spin & 63) == 0) {
            const uint64_t waited = now_nanoseconds() - start;
            if (waited > YIELD_NANOSECONDS) break;
            if (waited > SPIN_NANOSECONDS) sched_yield();
        }
    }
    pthread_mutex_lock(&state_lock);
    atomic_fetch_add(&sleepers, 1);  // sequentially consistent: pairs with the poster's check
    uint32_t generation;
    while ((generation = generation_of(atomic_load(&claim))) == seen) pthread_cond_wait(&job_posted, &state_lock);
    atomic_fetch_sub(&sleepers, 1);
    pthread_mutex_unlock(&state_lock);
    return generation;
}

// The generation that was current when each worker was started, just before the job that needed it
// is published (written under state_lock before pthread_create, which orders it for the thread).
static uint32_t start_generation[MAX_WORKERS];

static void *worker_main(void *argument) {
    const int index = (int)(intptr_t)argument;
    // Waiting for a job newer than the one current at its start, the worker takes part in the job
    // it was started for. (Reading `claim` here instead missed that job whenever the thread began
    // after the publish: a first job of whole batches as tasks, every kernel inside them inline,
    // then ran on the caller alone.)
    uint32_t seen = start_generation[index];
    for (;;) {
        seen = wait_for_job(seen);
        if (index < atomic_load_explicit(&job_workers, memory_order_acquire)) run_tasks(seen);
    }
    return NULL;
}

// Starts workers up to `count` (under state_lock); returns how many are running. Once they are
// all started, every job takes the lock-free path.
static int ensure_workers(int count) {
    if (count > MAX_WORKERS) count = MAX_WORKERS;
    int running = atomic_load(&started_workers);
    if (running >= count) return running;
    pthread_mutex_lock(&state_lock);
    while ((running = atomic_load(&started_workers)) < count) {
        pthread_t thread;
        pthread_attr_t attributes;
        pthread_attr_init(&attributes);
        pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
        start_generation[running] = generation_of(atomic_load(&claim));  // the new job is not yet published
        const int failed = pthread_create(&thread, &attributes, worker_main, (void *)(intptr_t)running);
        pthread_attr_destroy(&attributes);
        if (failed) break;  // run with the workers there are
        atomic_store(&started_workers, running + 1);
    }
    pthread_mutex_unlock(&state_lock);
    return running;
}

void nlukit_pool_set_threads(int threads) {
    atomic_store(&requested_threads, threads < 1 ? 1 : threads);
}

int nlukit_pool_threads(void) {
    const int threads = atomic_load(&requested_threads);
    return threads < 1 ? 1 : threads;
}

void nlukit_parallel_for(long tasks, nlukit_task_function function, void *context) {
    if (tasks <= 0) return;
    const int threads = nlukit_pool_threads();
    int expected = 0;
    if (tasks == 1 || threads == 1 || tasks >= (long)CLOSED ||
        !atomic_compare_exchange_strong(&busy, &expected, 1)) {
        for (long task = 0; task < tasks; task++) function(context, task);
        return;
    }
    int workers = ensure_workers(threads - 1);
    if (workers > threads - 1) workers = threads - 1;
    if (workers > tasks - 1) workers = (int)(tasks - 1);

    atomic_store_explicit(&job_function, function, memory_order_relaxed);
    atomic_store_explicit(&job_context, context, memory_order_relaxed);
    atomic_store_explicit(&job_tasks, tasks, memory_order_relaxed);
    atomic_store_explicit(&job_workers, workers, memory_order_relaxed);
    atomic_store_explicit(&finished, 0, memory_order_relaxed);
    TEST_HOOK(nlukit_test_hook_job_written());
    const uint32_t generation = generation_of(atomic_load(&claim)) + 1;
    atomic_store(&claim, (uint64_t)generation << 32);  // publishes the job (sequentially consistent)
    if (atomic_load(&sleepers) > 0) {
        pthread_mutex_lock(&state_lock);
        pthread_cond_broadcast(&job_posted);
        pthread_mutex_unlock(&state_lock);
    }

    run_tasks(generation);
    // A worker still in a task is normally microseconds from done; on an oversubscribed machine it
    // may have lost its core, so after a short spin the caller yields rather than compete for it.
    for (unsigned spin = 0; atomic_load_explicit(&finished, memory_order_acquire) < tasks; spin++) back_off(spin);
    TEST_HOOK(nlukit_test_hook_job_done());
    atomic_store(&claim, (uint64_t)generation << 32 | CLOSED);
    atomic_store_explicit(&busy, 0, memory_order_release);
}

void nlukit_progress_store(long *counter, long value) {
    __atomic_store_n(counter, value, __ATOMIC_RELEASE);
}

void nlukit_progress_wait(const long *counter, long target) {
    for (unsigned spin = 0; __atomic_load_n(counter, __ATOMIC_ACQUIRE) < target; spin++) back_off(spin);
}
