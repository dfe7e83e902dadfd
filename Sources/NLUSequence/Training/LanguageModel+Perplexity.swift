import Foundation
import NLUCore

/// How well a model predicts a text: the mean cross-entropy per token and its exponential, the perplexity.
public struct PerplexityReport: Sendable, Equatable, Codable {
    /// Predicted tokens.
    public var tokens: Int
    /// Mean negative log-likelihood per token (nats).
    public var loss: Double
    /// exp(loss).
    public var perplexity: Double
    /// Tokens outside the vocabulary (counted as the unknown token).
    public var unknownTokens: Int
}

extension LanguageModel {
    /// The perplexity of `text`: every token (lines end with the end token) predicted from the ones
    /// before it, starting after an end token as a line start does.
    ///
    ///     let report = try model.perplexity(of: "the cat sat on the mat.")
    ///     print(report.perplexity)
    ///
    /// - Throws: ``LanguageModelError/emptyCorpus(_:)`` when the text has no tokens.
    public func perplexity(of text: String, batchSize: Int = 1, sequenceLength: Int = 64) throws -> PerplexityReport {
        let tokens = tokenizer.corpusTokens(in: text, endToken: configuration.endToken)
        guard !tokens.isEmpty else { throw LanguageModelError.emptyCorpus([]) }
        let ids = tokens.map { vocabulary.idOrUnknown(for: $0) }
        let unknown = zip(tokens, ids).filter { $1 == vocabulary.unknownID && $0 != configuration.unknownToken }.count
        var report = evaluate(ids: [vocabulary.endID] + ids, batchSize: batchSize, sequenceLength: sequenceLength)
        report.unknownTokens = unknown
        return report
    }

    /// The mean cross-entropy of predicting each id of `ids` from those before it, in `batchSize`
    /// parallel streams (1 = exactly sequential) carrying the state across windows.
    public func evaluate(ids: [Int32], batchSize: Int = 10, sequenceLength: Int = 64) -> PerplexityReport {
        let batches = TokenBatches(ids: ids, batchSize: batchSize, sequenceLength: sequenceLength)
        var state: Tensor<Float>? = nil
        var total: Double = 0
        var count = 0
        for batch in batches {
            let (loss, finalState) = loss(for: batch, initialState: state)
            state = finalState
            total += Double(loss) * Double(batch.inputs.count)
            count += batch.inputs.count
        }
        let mean = count > 0 ? total / Double(count) : 0
        return PerplexityReport(tokens: count, loss: mean, perplexity: exp(mean), unknownTokens: 0)
    }
}
