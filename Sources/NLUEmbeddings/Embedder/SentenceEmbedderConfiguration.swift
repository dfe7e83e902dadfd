import Foundation

/// `sentence_bert_config.json`: `max_seq_length` (texts longer than this many tokens, special tokens
/// included, are truncated) and `do_lower_case` (lowercase texts before tokenizing).
struct SentenceBertConfiguration: Decodable {
    var max_seq_length: Int?
    var do_lower_case: Bool?

    /// Reads the file in `directory`; absent, both fields are unset.
    static func load(in directory: URL) throws -> SentenceBertConfiguration {
        let url = directory.appendingPathComponent("sentence_bert_config.json")
        guard FileManager.default.fileExists(atPath: url.path) else { return SentenceBertConfiguration() }
        let configuration: SentenceBertConfiguration = try decodeJSON(at: url)
        if let length = configuration.max_seq_length, length < 3 {
            throw SentenceEmbedderError.invalidFile(path: url.path, reason: "max_seq_length \(length) leaves no room for text (expected at least 3)")
        }
        return configuration
    }
}
