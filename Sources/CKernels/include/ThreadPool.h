// A small fork-join pool for the kernels: the calling thread and (threads - 1) persistent workers
// run the tasks of one job, then the caller returns. Workers wait for the next job spinning for a
// short while, then yielding, then asleep, so back-to-back kernels of a model's forward pass start in
// well under a microsecond (a Dispatch concurrentPerform costs tens), while an idle process sleeps.
// Called through NLUCore's `Kernels.parallelFor`; not a public API of its own.
#ifndef NLUKIT_THREAD_POOL_H
#define NLUKIT_THREAD_POOL_H

#ifdef __cplusplus
extern "C" {
#endif

/// One task of a job: `task` is in [0, tasks).
typedef void (*nlukit_task_function)(void *context, long task);

/// Runs `function(context, t)` for every t in [0, tasks), on the calling thread and the pool's
/// workers, and returns when all have finished. Tasks are claimed dynamically, in increasing order.
/// A call made while another job runs (from a task, or from a second thread) runs its tasks on the
/// calling thread alone, so nesting and concurrent callers are safe.
void nlukit_parallel_for(long tasks, nlukit_task_function function, void *context);

/// Sets the number of threads jobs use, the caller included (at least 1); takes effect at the next
/// job. Workers are started on first need and never exceed the largest count asked for.
void nlukit_pool_set_threads(int threads);

/// The number of threads jobs use, the caller included.
int nlukit_pool_threads(void);

/// A step counter through which one task of a job hands work to a later task of the same job (a
/// pipeline): the producer stores how many steps it has finished (release), the consumer waits until
/// the count reaches its target (acquire). The consumer must be the later task: a job run on one
/// thread runs task 0 before task 1, so the count is already there and nothing waits forever.
void nlukit_progress_store(long *counter, long value);

/// Waits until `*counter >= target`: spinning, then yielding the core (the producer is running, so
/// the wait is short unless the machine is oversubscribed).
void nlukit_progress_wait(const long *counter, long target);

#ifdef __cplusplus
}
#endif

#endif
