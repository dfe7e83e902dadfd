import ArgumentParser
import NLUKit

extension Precision: ExpressibleByArgument {}

/// `--precision f32|int8`, for the commands that run a BERT-family encoder.
struct PrecisionOption: ParsableArguments {
    @Option(help: ArgumentHelp("""
        Arithmetic of the encoder's dense layers: f32, or int8 (weights quantized per output channel \
        at load, inputs per row; faster, within a small stated error: docs/int8.md).
        """, valueName: "f32|int8"))
    var precision: Precision = .f32

    /// INT8 on a CPU level without an int8 dot product is no faster than F32: said once, on stderr, so
    /// that nobody picks it for speed there unknowingly.
    func validate() throws {
        if precision == .int8, !QuantizedMatrix.hasFastPath {
            Console.log("note: --precision int8 on this CPU level (\(CPULevel.current.name)) has no int8 dot product "
                        + "(AVX2, VNNI or arm64 SDOT): it runs about as fast as f32 or slower, and saves memory, not time")
        }
    }
}
