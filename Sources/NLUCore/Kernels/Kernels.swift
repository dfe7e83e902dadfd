import CKernels
import Foundation

/// The numeric kernels models are built from: GEMMs through BLAS, and fused, vectorized loops
/// over contiguous memory for everything between them (bias, softmax, layer norm, activations,
/// embedding lookup).
///
/// Each kernel has a `Tensor` form and, for hot paths that manage their own buffers, a raw-pointer
/// form. Shapes are the caller's contract (a mismatch is a programming error and traps): models
/// check the shapes of what they load and of their inputs before calling kernels.
///
///     var hidden = Kernels.linear(x, weight: w, bias: b)   // x·wᵀ + b
///     Kernels.gelu(&hidden)
///     Kernels.layerNorm(&hidden, weight: gamma, bias: beta, epsilon: 1e-12)
public enum Kernels {
    /// The number of threads kernels split large inputs over: the BLAS thread count
    /// (`NLUKIT_THREADS`, then `OPENBLAS_NUM_THREADS`, default all cores), changed by
    /// ``BLAS/configure(threads:)``.
    public static var threadCount: Int {
        _ = BLAS.threadSetup
        return Int(nlukit_pool_threads())
    }

    /// Below this many elements an element-wise kernel runs on the calling thread. Measured on 2
    /// cores with the pool's sub-microsecond start: GELU gains from two threads from about 6K
    /// elements, layer norm from about 12K; 384×768 runs 1.6-1.9× faster on two threads than on one.
    @usableFromInline static let parallelThreshold = 1 << 14

    /// Runs `body(task)` for every task in `0..<tasks` on the kernel thread pool (the calling
    /// thread and `threadCount - 1` persistent workers) and returns when all have run. Tasks are
    /// claimed in increasing order as threads become free, each at the calling thread's
    /// ``CPULevel``. A call from inside a task, or while another thread's job runs, runs its tasks on
    /// the calling thread.
    ///
    ///     Kernels.parallelFor(heads) { head in attend(head) }   // one head per task
    public static func parallelFor(_ tasks: Int, _ body: (Int) -> Void) {
        guard tasks > 1, threadCount > 1 else {
            for task in 0..<max(tasks, 0) { body(task) }
            return
        }
        // Workers run at the caller's level: a `CPULevel.with` on this thread covers its jobs too.
        let level = nlukit_kernel_level()
        withoutActuallyEscaping(body) { body in
            var job: (Int) -> Void = { task in
                let previous = nlukit_set_thread_kernel_level(level)
                body(task)
                _ = nlukit_set_thread_kernel_level(previous)
            }
            withUnsafeMutablePointer(to: &job) { job in
                nlukit_parallel_for(tasks, { context, task in
                    // The context is the `job` closure above, alive until nlukit_parallel_for returns.
                    context?.assumingMemoryBound(to: ((Int) -> Void).self).pointee(task)
                }, job)
            }
        }
    }

    /// Runs `body(rowRange)` over `rowCount` rows, split into `chunksPerThread` chunks per thread
    /// when the work (`rowCount × rowLength` elements, or multiply-adds) reaches `minimumWork`.
    /// More chunks than threads let a thread that started late or lost its core for a while (a
    /// shared VM) leave its last chunks to the others, which claim them as they finish.
    public static func forEachRowChunk(rowCount: Int, rowLength: Int, minimumWork: Int = parallelThreshold,
                                chunksPerThread: Int = 1, _ body: (Range<Int>) -> Void) {
        let threads = min(threadCount, rowCount)
        guard threads > 1, rowCount * rowLength >= minimumWork else {
            body(0..<rowCount)
            return
        }
        let chunks = min(rowCount, threads * max(1, chunksPerThread))
        // Sizes differ by one row at most, the larger first: chunks handed out in turn give each
        // thread the same work within one row. Equal chunks of the rounded-up size left a thread
        // with a whole chunk more (72 panels of a 768 × 2304 weight: 15 chunks of 5 on 2 threads).
        let size = rowCount / chunks, larger = rowCount % chunks
        // The chunks are disjoint row ranges, so the threads never touch the same memory.
        parallelFor(chunks) { index in
            let start = index * size + min(index, larger)
            body(start..<(start + size + (index < larger ? 1 : 0)))
        }
    }

    /// Runs `body(range)` over element indices `0..<count`, split like ``forEachRowChunk`` into
    /// pieces whose bounds are multiples of 16.
    static func forEachChunk(count: Int, _ body: (Range<Int>) -> Void) {
        let blocks = (count + 15) / 16
        forEachRowChunk(rowCount: blocks, rowLength: 16) { range in
            body((range.lowerBound * 16)..<min(count, range.upperBound * 16))
        }
    }

    /// Applies the element-wise C `kernel` to `x`: in place when `x` owns its storage, else from
    /// the shared storage straight into a new one.
    static func map(_ x: inout Tensor<Float>,
                    _ kernel: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void) {
        x.replaceElements { source, destination in
            map(source.baseAddress!, destination.baseAddress!, count: source.count, kernel)
        }
    }

    /// Applies the element-wise C `kernel` from `source` to `destination` (which may be equal),
    /// threaded for large inputs.
    static func map(_ source: UnsafePointer<Float>, _ destination: UnsafeMutablePointer<Float>, count: Int,
                    _ kernel: (UnsafePointer<Float>, UnsafeMutablePointer<Float>, Int) -> Void) {
        forEachChunk(count: count) { range in
            kernel(source + range.lowerBound, destination + range.lowerBound, range.count)
        }
    }
}
