import ArgumentParser

/// `nlu tokenizer`: Hugging Face tokenizers (WordPiece, byte-level BPE, Unigram) run on texts.
struct TokenizerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tokenizer",
        abstract: "Tokenize text exactly as Hugging Face's fast tokenizers: BERT (WordPiece), RoBERTa (byte-level BPE), XLM-R (Unigram).",
        discussion: """
        Example:
          nlu tokenizer encode --vocab vocab.txt --json "Hello, world!"
        """,
        subcommands: [TokenizerEncodeCommand.self]
    )
}
