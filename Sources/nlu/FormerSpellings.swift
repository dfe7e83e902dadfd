import ArgumentParser

/// The arguments and the work of a command that has a former spelling: the current command and
/// the former spelling both parse them as an option group and run them.
protocol CommandBody: ParsableArguments {
    func run() throws
}

/// A command's former spelling, from before every command followed `nlu <capability> <verb>`, kept
/// working for the scripts written against it and hidden from `nlu --help`. ArgumentParser parses
/// and validates the current command's ``CommandBody`` under the old name, so usage lines and
/// errors name the spelling typed.
protocol FormerSpelling: ParsableCommand {
    associatedtype Body: CommandBody
    var arguments: Body { get }
}

extension FormerSpelling {
    /// The help of `current` under the former name `name`, hidden.
    static func formerSpelling(_ name: String, of current: any ParsableCommand.Type) -> CommandConfiguration {
        CommandConfiguration(commandName: name, abstract: current.configuration.abstract,
                             discussion: current.configuration.discussion, shouldDisplay: false)
    }

    func run() throws { try arguments.run() }
}

/// `nlu similarity`: `nlu embed similarity`.
struct SimilarityFormerSpelling: FormerSpelling {
    static let configuration = formerSpelling("similarity", of: EmbedSimilarityCommand.self)
    @OptionGroup var arguments: EmbedSimilarityArguments
}

/// `nlu tokenize`: `nlu tokenizer encode`.
struct TokenizeFormerSpelling: FormerSpelling {
    static let configuration = formerSpelling("tokenize", of: TokenizerEncodeCommand.self)
    @OptionGroup var arguments: TokenizerEncodeArguments
}
