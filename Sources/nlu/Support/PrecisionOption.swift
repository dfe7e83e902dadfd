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
}
