// The kernel pool's race between back-to-back jobs, replayed deterministically. Built by
// scripts/test-arm64-kernels.sh with Sources/CKernels/thread_pool.c and -DNLUKIT_TEST_POOL_HOOKS,
// whose hooks let this file hold a thread where losing its core would open the race.
//
// The race: a worker reads `claim` when every task of a job is taken, then loses its core. The
// caller finishes the job and returns; the next caller writes a larger job's function and task
// count. If the worker, running again before that job is published, compared its stale word with
// the new task count, it would take a task of the new job under the old generation: that task runs
// twice, and the caller, counting one finished task too many, can return while a task still runs.
// Here the worker is held right after that read until the next job is written, every time.
//
//     clang -O2 -I Sources/CKernels/include -DNLUKIT_TEST_POOL_HOOKS Sources/CKernels/thread_pool.c \
//         scripts/tests/thread-pool-race-test.c -lpthread && ./a.out
#include "ThreadPool.h"
#include <errno.h>
#include <pthread.h>
#include <semaphore.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { SMALL = 2, LARGE = 64 };

// Where the worker is in the replay; each step is taken once, by compare-and-swap.
enum Stage { IDLE, WORKER_RAN_A_TASK, WORKER_HELD, WORKER_RELEASED, WORKER_WENT_ON };
static _Atomic int stage = IDLE;
static pthread_t caller;
static sem_t held, released, went_on;
static _Atomic int small_runs[SMALL], large_runs[LARGE];

static void fail(const char *message) {
    fprintf(stderr, "thread pool race test: %s\n", message);
    exit(1);
}

// Waits for `semaphore` at most 10 s (a replay step that never comes is a failure, not a hang).
static void wait_bounded(sem_t *semaphore, const char *what) {
    struct timespec deadline;
    clock_gettime(CLOCK_REALTIME, &deadline);
    deadline.tv_sec += 10;
    while (sem_timedwait(semaphore, &deadline) != 0) {
        if (errno != EINTR) fail(what);
    }
}

static int on_caller(void) { return pthread_equal(pthread_self(), caller); }

static int advance(int from, int to) { return atomic_compare_exchange_strong(&stage, &from, to); }

void nlukit_test_hook_claim_read(uint64_t word) {
    if (on_caller()) return;
    // The worker has run a task of the small job and finds all its tasks taken: it stops here, the
    // word it read in hand, until the next job is written.
    if ((uint32_t)word == SMALL && advance(WORKER_RAN_A_TASK, WORKER_HELD)) {
        sem_post(&held);
        sem_wait(&released);
        return;
    }
    // Its next read: whatever it did with the stale word is done.
    if (advance(WORKER_RELEASED, WORKER_WENT_ON)) sem_post(&went_on);
}

void nlukit_test_hook_job_done(void) {
    // The small job stays open until the worker holds its stale word (read before the job closes).
    if (atomic_load(&stage) == WORKER_RAN_A_TASK) wait_bounded(&held, "the worker never read claim after its task");
}

void nlukit_test_hook_job_written(void) {
    if (!advance(WORKER_HELD, WORKER_RELEASED)) return;
    sem_post(&released);
    wait_bounded(&went_on, "the released worker never read claim again");
}

static void small_task(void *context, long task) {
    (void)context;
    atomic_fetch_add(&small_runs[task], 1);
    if (!on_caller()) {
        advance(IDLE, WORKER_RAN_A_TASK);
        return;
    }
    // The caller's task lasts until the worker has taken the other one, so both take part.
    struct timespec start, now;
    clock_gettime(CLOCK_MONOTONIC, &start);
    while (atomic_load(&stage) == IDLE) {
        clock_gettime(CLOCK_MONOTONIC, &now);
        if (now.tv_sec - start.tv_sec > 10) fail("the worker never took a task of the small job");
    }
}

static void large_task(void *context, long task) {
    (void)context;
    atomic_fetch_add(&large_runs[task], 1);
}

int main(void) {
    caller = pthread_self();
    sem_init(&held, 0, 0);
    sem_init(&released, 0, 0);
    sem_init(&went_on, 0, 0);
    nlukit_pool_set_threads(2);  // the caller and one worker
    nlukit_parallel_for(SMALL, small_task, NULL);
    nlukit_parallel_for(LARGE, large_task, NULL);
    if (atomic_load(&stage) != WORKER_WENT_ON) fail("the replay did not run to its end");
    int failures = 0;
    for (int task = 0; task < SMALL; task++) {
        if (small_runs[task] != 1) { fprintf(stderr, "small job task %d ran %d times\n", task, small_runs[task]); failures++; }
    }
    for (int task = 0; task < LARGE; task++) {
        if (large_runs[task] != 1) { fprintf(stderr, "large job task %d ran %d times\n", task, large_runs[task]); failures++; }
    }
    if (failures) fail("a task ran other than once");
    printf("thread pool: a worker holding a finished job's claim takes no task of the next job before it is published\n");
    return 0;
}
