import Foundation

/// Scores the answer spans of one window the way `transformers`' question-answering pipeline does
/// (`select_starts_ends` + `decode_spans`): tokens that may not be in an answer get logit -10000
/// (all but the context and [CLS]), start and end logits go through a softmax each, the
/// probabilities at position 0 ([CLS]) give the window's "no answer" score and are then zeroed,
/// and a span (s, e) with s ≤ e < s + maxAnswerLength scores P(start = s) · P(end = e).
///
///     let window = SpanScorer.score(start: startLogits, end: endLogits, allowed: mask, maxAnswerLength: 15, limit: 12)
///     print(window.candidates.first, window.nullScore)
enum SpanScorer {
    struct Candidate: Equatable {
        var start: Int
        var end: Int
        var score: Float
    }

    struct WindowResult {
        /// The best spans, highest score first (only spans with a positive score).
        var candidates: [Candidate]
        /// P(start = [CLS]) · P(end = [CLS]) before [CLS] is masked.
        var nullScore: Float
    }

    /// - Parameters:
    ///   - allowed: per token, whether it may be part of an answer (context tokens and [CLS],
    ///     the pipeline's `p_mask == 0`).
    ///   - limit: how many candidates to keep.
    static func score(start: ArraySlice<Float>, end: ArraySlice<Float>, allowed: [Bool],
                      maxAnswerLength: Int, limit: Int) -> WindowResult {
        let count = allowed.count
        let startProbabilities = probabilities(start, allowed: allowed)
        let endProbabilities = probabilities(end, allowed: allowed)
        let nullScore = count > 0 ? startProbabilities[0] * endProbabilities[0] : 0
        var candidates: [Candidate] = []
        // Position 0 is [CLS]: its probabilities are zeroed after the null score, so spans using it score 0.
        for s in 1..<max(count, 1) where allowed[s] {
            let ps = startProbabilities[s]
            for e in s..<min(count, s + maxAnswerLength) where allowed[e] {
                let score = ps * endProbabilities[e]
                if score > 0 { candidates.append(Candidate(start: s, end: e, score: score)) }
            }
        }
        // Highest first; ties in row-major order, as numpy's argmax takes the first maximum.
        candidates.sort { a, b in
            a.score != b.score ? a.score > b.score : (a.start != b.start ? a.start < b.start : a.end < b.end)
        }
        return WindowResult(candidates: Array(candidates.prefix(limit)), nullScore: nullScore)
    }

    /// Softmax over the window with disallowed tokens at -10000, in Float as the pipeline
    /// computes it with numpy float32.
    private static func probabilities(_ logits: ArraySlice<Float>, allowed: [Bool]) -> [Float] {
        var values = zip(logits, allowed).map { logit, isAllowed -> Float in isAllowed ? logit : -10000 }
        let maximum = values.max() ?? 0
        var sum: Float = 0
        for index in values.indices {
            values[index] = Foundation.exp(values[index] - maximum)
            sum += values[index]
        }
        return values.map { $0 / sum }
    }
}
