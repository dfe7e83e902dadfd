import ArgumentParser
import Foundation
import NLUKit

/// `nlu lm perplexity`: how well a model predicts a text file.
struct LanguageModelPerplexityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perplexity",
        abstract: "Measure a model's perplexity on a text file.",
        discussion: """
        Every token of FILE (each non-empty line ends with </s>) is predicted from the tokens before it, starting \
        from a line start; tokens outside the vocabulary count as <unk>. Perplexity is exp(mean cross-entropy).
        """)

    @Option(name: .shortAndLong, help: "The model package (.nlumodel).")
    var model: String

    @Argument(help: "A UTF-8 text file.")
    var file: String

    @Flag(help: "Print JSON: {\"tokens\", \"loss\", \"perplexity\", \"unknownTokens\"}.")
    var json = false

    @OptionGroup var inputSize: InputSizeOption

    func run() throws {
        let languageModel = try LanguageModelOutput.loadModel(model)
        let text = try Console.readText(path: file)
        let report: PerplexityReport
        do {
            report = try languageModel.perplexity(of: text)
        } catch LanguageModelError.emptyCorpus {
            throw LanguageModelError.file(file, "the file has no tokens")
        }
        if json {
            Console.print(try Console.json(report))
        } else {
            Console.print(String(format: "perplexity %.4f over %d tokens (%.4f nats/token, %d unknown)",
                         report.perplexity, report.tokens, report.loss, report.unknownTokens))
        }
    }
}
