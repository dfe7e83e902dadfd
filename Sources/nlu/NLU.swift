import ArgumentParser
import Foundation
import NLUKit

/// The `nlu` command: natural-language understanding on your own machine.
@main
struct NLU: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "nlu",
        abstract: "Offline natural-language understanding: question answering, intents, language models, built-in entities, sentence embeddings, Core ML models, an HTTP server.",
        discussion: """
        Output for scripts: --json prints machine-readable results on stdout; logs and progress \
        go to stderr. Exit codes: 0 success, 1 runtime failure, 2 usage error. Names: -m/--model the model, \
        -o/--output the file written, -k/--top-k how many results; text output shows a span as [start..<end] \
        (Unicode scalars, end excluded). \
        NLUKIT_CPU_LEVEL=avx512|avx2|portable forces the level of NLUKit's kernels (one the CPU runs); \
        NLUKIT_THREADS=1..1024 sets their threads (default: all cores). Inputs are read up to 256M a \
        file or line; NLUKIT_MAX_INPUT_SIZE (or --max-input-size) raises that.
        """,
        version: NLUKitVersion.string,
        subcommands: [
            SelfCheckCommand.self,
            IntentsCommand.self,
            DialogueCommand.self,
            QACommand.self,
            IndexCommand.self,
            TokenizerCommand.self,
            StemCommand.self,
            EntitiesCommand.self,
            EmbedCommand.self,
            ModelsCommand.self,
            LanguageModelCommand.self,
            CoreMLCommand.self,
            ServeCommand.self,
            // Hidden: the spellings from before `nlu <capability> <verb>`, still accepted.
            SimilarityFormerSpelling.self,
            TokenizeFormerSpelling.self,
        ]
    )

    static func main() {
        BLASRelaunch.relaunchIfNeeded()
        // An OpenBLAS core the CPU cannot run would die of SIGILL at the first product: say so instead.
        if let problem = BLASCoreCheck.overrideProblem {
            Console.log("Error: \(problem)")
            Foundation.exit(2)
        }
        // A thread count that is no whole number from 1 to 1024 is refused like a forced kernel level, before
        // any thread starts: the user asked for that many threads, not for the default.
        if let problem = ThreadCountOverride.overrideProblem {
            Console.log("Error: \(problem)")
            Foundation.exit(2)
        }
        InputFile.limitAdvice = "--max-input-size or \(InputFile.environmentVariable) (for example 2G)"
        do {
            try InputFile.setMaximumFromEnvironment()
        } catch {
            Console.log("Error: \(error)")
            Foundation.exit(2)
        }
        BLAS.prepare()  // OpenBLAS's own idle workers stopped before they spin (see BLAS.prepare)
        StreamOutput.reportClosedPipesAsErrors()
        TemporaryFiles.removeOnTermination()
        // A forced kernel level the CPU cannot run (or a misspelt one) is a usage error, not a
        // silent fallback: the user asked to measure or test that level.
        if let problem = CPULevel.overrideProblem {
            Console.log("Error: \(problem)")
            Foundation.exit(2)
        }
        var parsed: (any ParsableCommand.Type)? = nil
        let arguments = Array(CommandLine.arguments.dropFirst())
        do {
            var command = try parseAsRoot(NegativeOptionValues.joined(arguments))
            parsed = type(of: command)
            try command.run()
        } catch {
            // ArgumentParser exits 64 (EX_USAGE) on usage errors; our contract says 2.
            if exitCode(for: error) == .validationFailure {
                var message = Console.namingInputs(in: fullMessage(for: error))
                // A usage error found while running (flags that do not fit the model given): ArgumentParser
                // no longer knows the subcommand and shows the root's usage; show the subcommand's.
                if let parsed, parsed != NLU.self, error is ValidationError {
                    let usage = usageString(for: parsed)
                    let path = usage.split(separator: " ").prefix { !"[<-".contains($0.first ?? "[") }.joined(separator: " ")
                    message = "Error: \(Console.namingInputs(in: self.message(for: error)))\nUsage: \(usage)\n  See '\(path) --help' for more information."
                }
                // A typo in an option name is the real problem, whatever validate() said first.
                if let unknown = UnknownOption.find(in: arguments),
                   !message.hasPrefix("Error: Unknown option") {
                    let rest = message.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false).dropFirst()
                    message = (["Error: Unknown option '\(unknown)'"] + rest.map(String.init)).joined(separator: "\n")
                }
                message = UnknownOption.addingTextHint(to: message)
                Console.log(message)
                Foundation.exit(2)
            }
            if let message = FoundationErrorText.userMessage(for: error) {
                Console.log("Error: \(Console.namingInputs(in: message))")
                Foundation.exit(1)
            }
            let message = fullMessage(for: error)
            let named = Console.namingInputs(in: message)
            if named != message {
                Console.log(named)
                Foundation.exit(exitCode(for: error).rawValue)
            }
            exit(withError: error)
        }
    }
}
