import Foundation
import NLUCore

/// Picks the next token from a model's logits: greedy, or sampled with temperature, top-k and
/// top-p, from a seeded ``NLUCore/SplitMix64`` so that runs are reproducible.
///
///     var sampler = TokenSampler(options: GenerationOptions(temperature: 0.8, topK: 10, seed: 1))
///     let id = sampler.pick(logits: logits)
public struct TokenSampler: Sendable {
    public let options: GenerationOptions
    private var generator: SplitMix64

    public init(options: GenerationOptions) {
        self.options = options
        self.generator = SplitMix64(seed: options.seed)
    }

    /// The index of the chosen token; `excluded` ids are never chosen (e.g. the unknown token).
    public mutating func pick(logits: [Float], excluding excluded: Set<Int> = []) -> Int {
        let candidates = logits.indices.filter { !excluded.contains($0) && !logits[$0].isNaN }
        guard let best = candidates.max(by: { logits[$0] < logits[$1] || (logits[$0] == logits[$1] && $0 > $1) }) else {
            return 0
        }
        // A temperature so small that 1 / temperature overflows (below about 3e-39) is greedy too: the best logit's
        // 0 × infinity made its weight NaN, and a token of weight 0 was drawn. An infinite best logit is the choice.
        let scale = 1 / options.temperature
        if options.temperature == 0 || !scale.isFinite || !logits[best].isFinite { return best }

        // Softmax of logits / temperature over the candidates, most probable first.
        var ranked = candidates.map { (index: $0, weight: Double(expf((logits[$0] - logits[best]) * scale))) }
        ranked.sort { $0.weight > $1.weight || ($0.weight == $1.weight && $0.index < $1.index) }
        if let topK = options.topK, ranked.count > topK { ranked.removeLast(ranked.count - topK) }
        if let topP = options.topP {
            let total = ranked.reduce(0) { $0 + $1.weight }
            var cumulative = 0.0
            var keep = 0
            for entry in ranked {
                cumulative += entry.weight
                keep += 1
                if cumulative >= Double(topP) * total { break }
            }
            ranked.removeLast(ranked.count - keep)
        }
        let total = ranked.reduce(0) { $0 + $1.weight }
        let draw = Double(generator.next() >> 11) * 0x1p-53 * total
        var cumulative = 0.0
        for entry in ranked {
            cumulative += entry.weight
            if draw < cumulative { return entry.index }
        }
        return ranked.last?.index ?? best
    }
}
