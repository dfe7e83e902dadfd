import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench kernels`: GEMM GFLOP/s on the BERT-base shapes (OpenBLAS, and our packed GEMM at
/// every CPU level this machine runs, beside the FMA peak of that level) and the throughput of the
/// element-wise kernels, as JSON on stdout (driven by `benchmarks/kernels.py`, which measures
/// NumPy and PyTorch on the same shapes in the same run).
struct KernelsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kernels",
        abstract: "GEMM and element-wise kernel throughput on BERT-base shapes (JSON on stdout).",
        discussion: """
        Threads follow NLUKIT_THREADS / OPENBLAS_NUM_THREADS; set OPENBLAS_CORETYPE to the CPU's \
        kernel family (scripts/blas-env.sh) as benchmarks/kernels.py does. Each figure is the median \
        of --repeats timed loops of about --seconds each. The packed GEMM is timed at every level \
        the CPU runs (--levels to choose), each beside that level's FMA peak (independent \
        multiply-add chains on every thread, timed like the rest).
        """
    )

    @Option(help: "Timed loops per measurement (the median is reported).")
    var repeats = 7

    @Option(help: "Approximate duration of one timed loop, in seconds.")
    var seconds = 0.2

    /// What a timed loop measures.
    enum Clock: String, ExpressibleByArgument {
        case wall, cpu
    }

    @Option(help: """
        wall: elapsed time; cpu: CPU time of the calling thread, robust on a busy machine but         meaningful only with one thread (NLUKIT_THREADS=1 OPENBLAS_NUM_THREADS=1).
        """)
    var clock: Clock = .wall

    @Option(help: "CPU levels to time the packed GEMM at, comma-separated (avx512,avx2,portable; default: all this CPU runs).")
    var levels: String?

    struct GEMMResult: Codable {
        var m: Int, k: Int, n: Int
        var milliseconds: Double
        /// Through `Kernels.matmul` (tensors in, a new tensor out).
        var gflops: Double
        /// `BLAS.sgemm` alone into a preallocated buffer: what the library itself does.
        var blasGflops: Double
    }

    /// Our packed GEMM (`PackedMatrix.multiply`, B packed beforehand) at one CPU level.
    struct PackedGEMMResult: Codable {
        var level: String
        var m: Int, k: Int, n: Int
        var gflops: Double
        /// Share of the level's FMA peak, in percent.
        var percentOfPeak: Double
        /// Our GFLOP/s over OpenBLAS's (`blasGflops` of the same shape, same run).
        var ratioToOpenBLAS: Double
    }

    /// Our INT8 GEMM (`QuantizedMatrix.multiply`, weight quantized beforehand, rows quantized in
    /// the timed call) at one CPU level, beside the F32 packed GEMM of the same shape and level.
    struct Int8GEMMResult: Codable {
        var level: String
        var m: Int, k: Int, n: Int
        /// Multiply-adds × 2 per second, in billions (as GFLOP/s for F32).
        var gops: Double
        /// Over the F32 packed GEMM's GFLOP/s at the same level, same run.
        var ratioToF32: Double
        /// Largest |q| of the quantized weights the level chose (127, or 63 on AVX2 without VNNI).
        var weightLimit: Int
    }

    /// The FMA peak of all threads at one level.
    struct PeakResult: Codable {
        var level: String
        var gflops: Double
    }

    struct ElementwiseResult: Codable {
        var kernel: String
        var shape: [Int]
        var microseconds: Double
        /// Elements processed per second, in billions.
        var gigaElementsPerSecond: Double
    }

    struct Report: Codable {
        var blas: String
        /// The instruction set of the element-wise kernels ("AVX-512", "AVX2", "baseline").
        var kernels: String
        var threads: Int
        var clock: String
        var gemm: [GEMMResult]
        var peaks: [PeakResult]
        var packed: [PackedGEMMResult]
        var int8: [Int8GEMMResult]
        var elementwise: [ElementwiseResult]
    }

    /// The levels named by --levels, highest first.
    func chosenLevels() throws -> [CPULevel] {
        guard let levels else { return CPULevel.runnable.reversed() }
        return try levels.split(separator: ",").map { name in
            let name = name.trimmingCharacters(in: .whitespaces)
            if let problem = CPULevel.problem(with: name, supported: .supported) {
                throw ValidationError("--levels: \(problem.replacingOccurrences(of: "NLUKIT_CPU_LEVEL=", with: ""))")
            }
            return CPULevel.allCases.first { $0.name == name } ?? .portable
        }
    }

    func run() throws {
        guard repeats > 0, seconds > 0 else { throw ValidationError("--repeats and --seconds must be positive") }
        let levels = try chosenLevels()
        var generator = SplitMix64(seed: 1)
        func random(_ shape: [Int]) -> Tensor<Float> {
            Tensor(shape: shape, scalars: (0..<shape.reduce(1, *)).map { _ in Float.random(in: -1...1, using: &generator) })
        }

        var gemm: [GEMMResult] = []
        for (m, k, n) in [(384, 768, 768), (384, 768, 3072), (384, 3072, 768)] {
            let a = random([m, k]), b = random([k, n])
            let time = measure { blackHole(Kernels.matmul(a, b)) }
            var output = Tensor<Float>(shape: [m, n])
            let blasTime = a.withUnsafeBufferPointer { a in
                b.withUnsafeBufferPointer { b in
                    output.withUnsafeMutableBufferPointer { c in
                        measure {
                            BLAS.sgemm(.none, .none, m: m, n: n, k: k, a: a.baseAddress!, lda: k,
                                       b: b.baseAddress!, ldb: n, c: c.baseAddress!, ldc: n)
                        }
                    }
                }
            }
            let flops = 2 * Double(m * n * k)
            gemm.append(GEMMResult(m: m, k: k, n: n, milliseconds: time * 1e3, gflops: flops / time / 1e9,
                                   blasGflops: flops / blasTime / 1e9))
        }

        // Our packed GEMM per level, B packed once as a model's weight is at load.
        var peaks: [PeakResult] = []
        var packed: [PackedGEMMResult] = []
        var int8: [Int8GEMMResult] = []
        for level in levels {
            CPULevel.with(level) {
                // The peak on the benchmark's own clock (CPU time with --clock cpu and one thread).
                let peakIterations = 1 << 18
                let peakFlops = FMAPeak.run(iterations: peakIterations)
                let peak = peakFlops / measure { FMAPeak.run(iterations: peakIterations) } / 1e9
                peaks.append(PeakResult(level: level.name, gflops: peak))
                for (index, (m, k, n)) in [(384, 768, 768), (384, 768, 3072), (384, 3072, 768)].enumerated() {
                    let a = random([m, k]), b = random([k, n])
                    let matrix = b.withUnsafeBufferPointer { PackedMatrix(weight: $0.baseAddress!, rows: k, columns: n, transposed: false) }
                    var output = Tensor<Float>(shape: [m, n])
                    let time = a.withUnsafeBufferPointer { a in
                        output.withUnsafeMutableBufferPointer { c in
                            measure { matrix.multiply(a.baseAddress!, rows: m, into: c.baseAddress!) }
                        }
                    }
                    let gflops = 2 * Double(m * n * k) / time / 1e9
                    packed.append(PackedGEMMResult(level: level.name, m: m, k: k, n: n, gflops: gflops,
                                                   percentOfPeak: 100 * gflops / peak,
                                                   ratioToOpenBLAS: gflops / gemm[index].blasGflops))
                    let weight = b.transposed().contiguous()   // nn.Linear layout [n, k]
                    let quantized = weight.withUnsafeBufferPointer {
                        QuantizedMatrix(linearWeight: $0.baseAddress!, outputs: n, inputs: k)
                    }
                    let int8Time = a.withUnsafeBufferPointer { a in
                        output.withUnsafeMutableBufferPointer { c in
                            measure { quantized.multiply(a.baseAddress!, rows: m, into: c.baseAddress!) }
                        }
                    }
                    let gops = 2 * Double(m * n * k) / int8Time / 1e9
                    int8.append(Int8GEMMResult(level: level.name, m: m, k: k, n: n, gops: gops, ratioToF32: gops / gflops,
                                               weightLimit: quantized.weightLimit))
                }
            }
        }

        // Out-of-place as PyTorch's functional forms are: `var y = x` then the in-place kernel
        // (the copy-on-write copy is part of the measured time).
        let hidden = random([384, 768]), scores = random([12, 384, 384])
        let gamma = random([768]), beta = random([768])
        let cases: [(String, Tensor<Float>, (inout Tensor<Float>) -> Void)] = [
            ("softmax", hidden, { Kernels.softmax(&$0) }),
            ("softmax", scores, { Kernels.softmax(&$0) }),
            ("layerNorm", hidden, { Kernels.layerNorm(&$0, weight: gamma, bias: beta, epsilon: 1e-12) }),
            ("gelu", hidden, { Kernels.gelu(&$0) }),
            ("geluTanh", hidden, { Kernels.geluTanh(&$0) }),
        ]
        var elementwise: [ElementwiseResult] = []
        for (name, input, kernel) in cases {
            let time = measure {
                var output = input
                kernel(&output)
                blackHole(output)
            }
            elementwise.append(ElementwiseResult(kernel: name, shape: input.shape, microseconds: time * 1e6,
                                                 gigaElementsPerSecond: Double(input.count) / time / 1e9))
        }

        let report = Report(blas: BLAS.configuration, kernels: Kernels.instructionSet, threads: BLAS.defaultThreadCount, clock: clock.rawValue, gemm: gemm, peaks: peaks, packed: packed, int8: int8, elementwise: elementwise)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        print(String(decoding: try encoder.encode(report), as: UTF8.self))
    }

    /// Median seconds per call of `body` over `repeats` loops sized to last about `seconds` each.
    func measure(_ body: () -> Void) -> Double {
        for _ in 0..<3 { body() }  // warm up caches, BLAS threads and the allocator
        let probeStart = now()
        body()
        let probe = max(now() - probeStart, 1e-7)
        let iterations = max(1, Int(seconds / probe))
        var times: [Double] = []
        for _ in 0..<repeats {
            let start = now()
            for _ in 0..<iterations { body() }
            times.append((now() - start) / Double(iterations))
        }
        return times.sorted()[times.count / 2]
    }

    /// Seconds on the chosen clock.
    func now() -> Double {
        switch clock {
        case .wall:
            return Double(DispatchTime.now().uptimeNanoseconds) / 1e9
        case .cpu:
            var time = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
            return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
        }
    }
}

/// Keeps the optimizer from discarding a computed value.
@inline(never)
func blackHole<T>(_ value: T) {
    withExtendedLifetime(value) {}
}
