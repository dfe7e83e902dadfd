import NLUCore
import NLUEmbeddings

/// One `/embed` or `/v1/embeddings` request's encoder work: its texts, the field they came in (for
/// errors) and whether its vectors are scaled to unit length. ``run(_:embedder:tokenBudget:)`` runs
/// the work of several requests in one batch.
struct EmbeddingBatchJob: Sendable {
    /// The request's texts.
    var texts: [String]
    /// The request's field (`inputs`, `input`), as errors name it.
    var field: String
    /// Whether the vectors are scaled to unit length (TEI's `normalize`).
    var normalize: Bool

    /// Texts per encoder pass of a shared batch.
    static let passSize = 8

    /// The embeddings of one request and the tokens the encoder saw.
    struct Answer: Sendable {
        var vectors: [[Float]]
        var tokens: Int
    }

    /// Each job's answer, in order. Each job's texts are tokenized once (the tokens counted are the ones
    /// embedded) and checked against `tokenBudget` (``ServerConfiguration/maxEmbeddingTokens``): a job
    /// over it is answered 422 alone. The others' sequences go through the encoder together, unnormalized;
    /// each job's vectors are then normalized as it asked. Normalizing after the pass is what the
    /// embedder does inside it (``L2Normalization``, then the finite check), so the vectors are the ones
    /// a pass of the job alone gives, up to what padding the other rows changes (nothing: the
    /// attention mask drops the padding; `EncoderBatcherTests` checks 1e-5). A job alone, or one whose
    /// vectors are not finite in the shared pass, runs as a request did before batching, so its
    /// answer (a 500 ``APIError/modelFault(task:detail:)`` included) is that one's.
    static func run(_ jobs: [EmbeddingBatchJob], embedder: SentenceEmbedder, tokenBudget: Int) -> [Result<Answer, any Error>] {
        var results = [Result<Answer, any Error>?](repeating: nil, count: jobs.count)
        var sequences: [[Int32]] = []
        var members: [(job: Int, rows: Range<Int>, tokens: Int)] = []
        for (index, job) in jobs.enumerated() {
            let ids = job.texts.map(embedder.tokenIDs)
            let tokens = ids.reduce(0) { $0 + $1.count }
            guard tokens <= tokenBudget else {
                results[index] = .failure(APIError.unprocessable(
                    "field '\(job.field)': \(tokens) tokens (each text as the model reads it, at most \(embedder.maxSequenceLength)) "
                        + "is over this server's limit of \(tokenBudget) per request (--max-embed-tokens); send fewer or shorter texts"))
                continue
            }
            members.append((index, sequences.count..<(sequences.count + ids.count), tokens))
            sequences += ids
        }
        func alone(_ job: Int, _ rows: Range<Int>, _ tokens: Int) -> Result<Answer, any Error> {
            Result {
                do {
                    let vectors = try embedder.embed(tokenIDs: Array(sequences[rows]), options: EmbeddingOptions(normalize: jobs[job].normalize))
                    return Answer(vectors: vectors, tokens: tokens)
                } catch SentenceEmbedderError.nonFiniteOutput(_, let detail) {
                    throw APIError.modelFault(task: "embeddings", detail: detail)
                }
            }
        }
        if members.count == 1, let only = members.first {
            results[only.job] = alone(only.job, only.rows, only.tokens)
        } else if members.count > 1 {
            // Passes of 8: the texts are sorted by length first, so a short text is padded to the longest of its 8,
            // not of the whole batch (requests' sentences differ in length: one pass of 32 was half padding).
            let shared = try? embedder.embed(tokenIDs: sequences, options: EmbeddingOptions(batchSize: Self.passSize, normalize: false))
            for member in members {
                guard let shared else {
                    results[member.job] = alone(member.job, member.rows, member.tokens)
                    continue
                }
                var vectors = Array(shared[member.rows])
                if jobs[member.job].normalize {
                    for row in vectors.indices { L2Normalization().normalize(&vectors[row]) }
                }
                let finite = vectors.allSatisfy { $0.firstNonFinite() == nil }
                results[member.job] = finite ? .success(Answer(vectors: vectors, tokens: member.tokens))
                    : alone(member.job, member.rows, member.tokens)
            }
        }
        return results.map { $0 ?? .failure(EncoderBatchShortAnswer(task: "embeddings")) }
    }
}
