import ArgumentParser

/// `nlu index`: build and search a document index (one SQLite file).
struct IndexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "index",
        abstract: "Build and search a document index: keyword (BM25), vector (exact cosine) and hybrid.",
        discussion: """
        An index is one SQLite file holding the documents, their chunks, an FTS5 keyword index and \
        the chunks' embeddings, with the embedding model recorded. Example:
          nlu index create notes.db --model hashing
          nlu index add notes.db faq.jsonl manual.md
          nlu index search notes.db "reset my password" --top-k 3 --mode hybrid
        """,
        subcommands: [IndexCreateCommand.self, IndexAddCommand.self, IndexDeleteCommand.self,
                      IndexInfoCommand.self, IndexSearchCommand.self]
    )
}
