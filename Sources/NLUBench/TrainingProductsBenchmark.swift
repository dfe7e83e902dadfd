import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench training-products`: the dense products of one training step of an encoder layer
/// (forward `x·Wᵀ`, input gradient `dy·W`, weight gradient `dyᵀ·x`) at a batch's token rows, on
/// ``TrainingProducts`` (our packed GEMM, the operand packed at each call) beside `BLAS.sgemm` as
/// `Linear` calls it (OpenBLAS single-threaded per block, the blocks split over the pool), in the
/// same process, alternating, as JSON: the median milliseconds of each and their ratio per shape.
struct TrainingProductsBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "training-products",
        abstract: "Time training's dense products on the packed GEMM against BLAS (JSON on stdout).")

    @Option(help: "Token rows of the batch (batch size × padded length).")
    var rows = 192

    @Option(help: "Hidden size (all-MiniLM-L6-v2: 384).")
    var hidden = 384

    @Option(help: "Feed-forward size (all-MiniLM-L6-v2: 1536).")
    var intermediate = 1536

    @Option(help: "Timed rounds (each times both sides once; the median is reported).")
    var rounds = 15

    @Option(help: "Products per timed loop.")
    var calls = 20

    @Flag(help: "Time by the calling thread's CPU time (robust on a busy machine; meaningful with NLUKIT_THREADS=1 only).")
    var cpuClock = false

    struct Result: Codable {
        var product: String
        var m: Int, n: Int, k: Int
        var packedMilliseconds: Double
        var blasMilliseconds: Double
        /// BLAS's time over ours: above 1, the packed GEMM is faster.
        var speedUp: Double
    }

    func run() throws {
        guard rows > 0, hidden > 0, intermediate > 0, rounds > 0, calls > 0 else {
            throw ValidationError("--rows, --hidden, --intermediate, --rounds and --calls must be positive")
        }
        let products = TrainingProducts(smallProductLimit: 0)  // the packed path at every size, against sgemm
        var results: [Result] = []
        // (name, transposeA, transposeB, m, n, k) for each layer shape [out, in].
        for (output, input) in [(hidden, hidden), (intermediate, hidden), (hidden, intermediate)] {
            let cases: [(String, BLAS.Transpose, BLAS.Transpose, Int, Int, Int)] = [
                ("forward x·Wᵀ [\(output)x\(input)]", .none, .transpose, rows, output, input),
                ("input gradient dy·W [\(output)x\(input)]", .none, .none, rows, input, output),
                ("weight gradient dyᵀ·x [\(output)x\(input)]", .transpose, .none, output, input, rows),
            ]
            for (name, transposeA, transposeB, m, n, k) in cases {
                var random = SplitMix64(seed: 1)
                let a = (0..<(m * k)).map { _ in Float(random.next() >> 40) / Float(1 << 24) - 0.5 }
                let b = (0..<(k * n)).map { _ in Float(random.next() >> 40) / Float(1 << 24) - 0.5 }
                var c = [Float](repeating: 0, count: m * n)
                let lda = transposeA == .none ? k : m, ldb = transposeB == .none ? n : k
                var packedTimes: [Double] = [], blasTimes: [Double] = []
                a.withUnsafeBufferPointer { a in
                    b.withUnsafeBufferPointer { b in
                        c.withUnsafeMutableBufferPointer { c in
                            guard let a = a.baseAddress, let b = b.baseAddress, let c = c.baseAddress else { return }
                            for round in 0...rounds {
                                let packed = Self.seconds(calls, cpu: cpuClock) {
                                    products.multiply(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb,
                                                      c: c, ldc: n, accumulate: true)
                                }
                                let blas = Self.seconds(calls, cpu: cpuClock) {
                                    BLAS.sgemm(transposeA, transposeB, m: m, n: n, k: k, a: a, lda: lda, b: b, ldb: ldb,
                                               beta: 1, c: c, ldc: n)
                                }
                                // Round 0 warms caches and scratch.
                                if round > 0 { packedTimes.append(packed); blasTimes.append(blas) }
                            }
                        }
                    }
                }
                let packed = Self.median(packedTimes) * 1000 / Double(calls), blas = Self.median(blasTimes) * 1000 / Double(calls)
                results.append(Result(product: name, m: m, n: n, k: k, packedMilliseconds: packed, blasMilliseconds: blas,
                                      speedUp: blas / packed))
            }
        }
        let packedTotal = results.reduce(0) { $0 + $1.packedMilliseconds }, blasTotal = results.reduce(0) { $0 + $1.blasMilliseconds }
        let report: [String: Any] = [
            "blas": BLAS.coreName, "threads": BLAS.defaultThreadCount, "rows": rows,
            "products": try results.map { try JSONSerialization.jsonObject(with: JSONEncoder().encode($0)) },
            "packedMillisecondsPerLayerShapes": packedTotal, "blasMillisecondsPerLayerShapes": blasTotal,
            "speedUp": blasTotal / packedTotal,
        ]
        let data = try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys, .prettyPrinted])
        print(String(decoding: data, as: UTF8.self))
    }

    static func seconds(_ count: Int, cpu: Bool, _ body: () -> Void) -> Double {
        let start = now(cpu: cpu)
        for _ in 0..<count { body() }
        return now(cpu: cpu) - start
    }

    /// Seconds on the wall clock, or of the calling thread's CPU time.
    static func now(cpu: Bool) -> Double {
        var time = timespec()
        clock_gettime(cpu ? CLOCK_THREAD_CPUTIME_ID : CLOCK_MONOTONIC, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }
}
