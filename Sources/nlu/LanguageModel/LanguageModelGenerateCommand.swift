import ArgumentParser
import Foundation
import NLUKit

/// `nlu lm generate`: generates text from a prompt, streaming tokens as they come.
struct LanguageModelGenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate text from a prompt (greedy or sampled), streaming tokens as they come.",
        discussion: """
        The model starts after an end token (a line start), reads the prompt, then picks tokens until it predicts \
        the end token </s> or --max-tokens. --temperature 0 is greedy; otherwise tokens are sampled, optionally \
        from the --top-k most probable and/or the smallest set reaching --top-p. The same --seed gives the same text.
        """)

    @Option(name: .shortAndLong, help: "The model package (.nlumodel).")
    var model: String

    @Option(help: "Text to continue (default: start a new line).")
    var prompt: String = ""

    @Option(help: "The most tokens to generate.")
    var maxTokens: Int = 50

    @Option(help: "Sampling temperature; 0 = greedy.")
    var temperature: Float = 1

    @Option(name: [.customLong("top-k"), .customShort("k")], help: "Sample among the K most probable tokens.")
    var topK: Int?

    @Option(help: "Sample among the most probable tokens whose probabilities reach P (nucleus sampling).")
    var topP: Float?

    @Option(help: "Random seed.")
    var seed: UInt64 = 0

    @Flag(help: "Print one JSON object at the end instead of streaming text.")
    var json = false

    var options: GenerationOptions {
        GenerationOptions(maxTokens: maxTokens, temperature: temperature, topK: topK, topP: topP, seed: seed)
    }

    func validate() throws {
        do {
            try options.validate()
        } catch let error as LanguageModelError {
            guard case let .invalidOption(name, reason) = error else { throw error }
            let flags = ["maxTokens": "--max-tokens", "temperature": "--temperature", "topK": "--top-k", "topP": "--top-p"]
            throw ValidationError("\(flags[name] ?? name) \(reason)")
        }
    }

    struct Output: Encodable {
        var prompt: String
        var promptTokens: [String]
        var tokens: [String]
        var text: String
        var reachedEndToken: Bool
    }

    func run() throws {
        let languageModel = try LanguageModelOutput.loadModel(model)
        if json {
            let result = try languageModel.generate(prompt: prompt, options: options)
            Console.print(try Console.json(Output(prompt: prompt, promptTokens: result.promptTokens, tokens: result.tokens,
                                                      text: result.text, reachedEndToken: result.reachedEndToken)))
            return
        }
        if languageModel.tokenizer.tokens(in: prompt).isEmpty == false {
            // Fails early (before printing the prompt) when every prompt token is unknown.
            _ = try languageModel.generate(prompt: prompt, options: GenerationOptions(maxTokens: 0))
        }
        Console.write(prompt)
        _ = try languageModel.generate(prompt: prompt, options: options) { piece, _ in
            Console.write(piece)
        }
        Console.write("\n")
    }
}
