/// The token strings of a vocabulary given as id → token (a `tokenizer.json`'s `model.vocab` plus
/// its `added_tokens`, a `vocab.json`), in id order; the ids must be exactly `0..<count`.
///
///     try tokensInIDOrder([0: "<s>", 1: "<pad>"], source: "tokenizer.json")   // ["<s>", "<pad>"]
/// - Throws: ``VocabularyError`` naming `source`: empty, or the first missing id.
func tokensInIDOrder(_ tokensByID: [Int: String], source: String) throws -> [String] {
    guard !tokensByID.isEmpty else { throw VocabularyError.empty(source: source) }
    let count = tokensByID.count
    var tokens: [String] = []
    tokens.reserveCapacity(count)
    for id in 0..<count {
        guard let token = tokensByID[id] else {
            throw VocabularyError.invalidIDs(source: source, detail: "ids must be 0..<\(count) without gaps; \(id) is missing")
        }
        tokens.append(token)
    }
    return tokens
}
