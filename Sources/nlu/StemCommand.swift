import ArgumentParser
import Foundation
import NLUKit

/// `nlu stem`: the Snowball stems of words, one per line, in any supported language.
struct StemCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stem",
        abstract: "Stem words with the Snowball stemmer of a language (what intents and keyword search use).",
        discussion: """
        Inputs are the WORD arguments, or else the lines of --file or of standard input (one word per \
        line). Each stem is printed on its own line, in input order. Words are stemmed as given: \
        lowercase them first (the stemmers expect lowercase, as the featurizers give them). With --json \
        each line is {"stem": ..., "word": ...}.

        --language takes an ISO 639-1 code (fr), a culture code (fr-FR, pt_BR) or an algorithm name \
        (french, porter, dutch_porter); an unsupported one is an error listing the supported codes.

        Example: nlu stem --language fr continuellement   (prints: continuel)
        """)

    @Option(help: ArgumentHelp("The language: fr, fr-FR, pt_BR, german, porter...", valueName: "code"))
    var language: String = "en"

    @Option(help: ArgumentHelp("Read words from this file (one per line) instead of standard input.", valueName: "file"))
    var file: String?

    @Flag(help: "Print one JSON object {\"stem\", \"word\"} per input on stdout.")
    var json = false

    @Flag(help: "Print on stderr how many words were stemmed per second (stemming alone, input and output excluded).")
    var timing = false

    @Argument(help: "Words to stem (each argument is one word).")
    var words: [String] = []

    @OptionGroup var inputSize: InputSizeOption

    struct Output: Encodable {
        var stem: String
        var word: String
    }

    func validate() throws {
        guard file == nil || words.isEmpty else { throw ValidationError("give WORD arguments or --file, not both") }
    }

    func run() throws {
        let stemmer: Stemmer
        do {
            stemmer = try Stemmer(language: language)
        } catch {
            throw ValidationError("--language: \(error)")
        }
        var inputs = words
        if inputs.isEmpty {
            try Console.forEachLine(path: file) { inputs.append($0) }
        }
        let start = ContinuousClock.now
        let stems = inputs.map(stemmer.stem)
        let elapsed = ContinuousClock.now - start
        var output = ""
        for (word, stem) in zip(inputs, stems) {
            output += json ? try Console.json(Output(stem: stem, word: word)) : stem
            output += "\n"
            // In pieces: a vocabulary of a million words need not be held twice.
            if output.utf8.count > 1 << 16 {
                Console.write(output)
                output = ""
            }
        }
        Console.write(output)
        if timing {
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
            let rate = seconds > 0 ? Int(Double(stems.count) / seconds) : 0
            Console.log("\(Console.count(stems.count, "word")) in \(String(format: "%.3f", seconds)) s: \(rate) words/s")
        }
    }
}
