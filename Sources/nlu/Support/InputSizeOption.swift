import ArgumentParser
import NLUKit

/// `--max-input-size`, for the commands that read a file or standard input: the largest whole input,
/// and the longest line of a line-oriented one, that the command reads (``InputFile/maximumBytes``).
struct InputSizeOption: ParsableArguments {
    @Option(help: ArgumentHelp("""
        The largest input file, and the longest input line, to read (default 256M, or \
        $\(InputFile.environmentVariable)): a larger one is refused before it fills the memory.
        """, valueName: "size"))
    var maxInputSize: String?

    func validate() throws {
        guard let maxInputSize else { return }
        do {
            try InputFile.setMaximum(maxInputSize, name: "--max-input-size")
        } catch let error as OutOfRangeError {
            throw ValidationError(error.description)
        }
    }
}
