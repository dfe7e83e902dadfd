import ArgumentParser

/// `nlu embed`: sentence embeddings of texts (the default verb), the similarity of two texts, and
/// fine-tuning a model on pairs.
struct EmbedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "embed",
        abstract: "Sentence embeddings with a sentence-transformers model: embed texts, compare two, fine-tune a model.",
        discussion: """
        text is the default verb: nlu embed --model M "A text." is nlu embed text --model M "A text.". \
        (A first argument spelt like a verb — text, similarity, train, help — is that verb; a text \
        spelt so goes after an option or after --.)

        Examples:
          nlu embed text --model sentence-transformers/all-MiniLM-L6-v2 "A man is eating food."
          nlu embed text --model ./all-MiniLM-L6-v2 --query "Is it going to rain?" --input faq.txt --top-k 3
          nlu embed similarity --model ./all-MiniLM-L6-v2 "A man is eating food." "A man eats pasta."
          nlu embed train ./all-MiniLM-L6-v2 --pairs pairs.jsonl -o minilm-tuned
        """,
        subcommands: [EmbedTextCommand.self, EmbedSimilarityCommand.self, EmbedTrainCommand.self],
        defaultSubcommand: EmbedTextCommand.self
    )
}
