import Foundation
import NLUCore

/// What every fine-tuning recipe asks of the checkpoint's sentence-transformers view: the model read
/// with a length option checked against its positions, and texts cut to that length as
/// sentence-transformers cuts them.
extension SentenceEmbedder {
    /// The sentence-transformers view of `checkpoint` for fine-tuning with `maxSequenceLength` tokens per text
    /// (nil: the model's own limit).
    /// - Throws: ``TrainingSettingError`` (setting `maxSequenceLength`) for a length beyond the checkpoint's
    ///   positions; the embedder's error for a folder that is not a model.
    public static func forFineTuning(_ checkpoint: URL, maxSequenceLength: Int?) throws -> SentenceEmbedder {
        let embedder = try SentenceEmbedder(modelDirectory: checkpoint)
        let positions = embedder.encoder.configuration.maxSequenceLength
        if let length = maxSequenceLength, length > positions {
            throw TrainingSettingError(setting: "maxSequenceLength", value: "\(length)",
                                       requirement: "at most the checkpoint's \(positions) positions")
        }
        return embedder
    }

    /// Tokens per text when fine-tuning with the option `maxSequenceLength`: it, else the model's
    /// `max_seq_length`, within the checkpoint's positions.
    public func fineTuningLength(_ maxSequenceLength: Int?) -> Int {
        min(maxSequenceLength ?? self.maxSequenceLength, encoder.configuration.maxSequenceLength)
    }

    /// The token ids of `text`, cut to `limit` tokens with `[SEP]` kept last, as sentence-transformers cuts them.
    public func tokenIDs(_ text: String, limit: Int) -> [Int32] {
        let ids = tokenIDs(text)
        return ids.count > limit ? Array(ids.prefix(limit - 1)) + [tokenizer.sepID] : ids
    }
}
