import NLUText

extension SlotTagger {
    /// The parts of ``entities(in:)``, each timed on its own (`nlu-bench entities` prints their medians):
    /// where an utterance's tagging time goes.
    public enum Part: String, CaseIterable, Sendable {
        /// Word tokens and the word/shape/affix/dictionary/regex/built-in features.
        case features
        /// The encoder pass for the contextual word vectors (encoder tagger only).
        case wordVectors
        /// The nearest cluster of each word vector, as attributes (encoder tagger only).
        case clusters
        /// Attribute lookup, Viterbi, and the forward-backward lattice for the confidences.
        case crf
    }

    /// The seconds each part of tagging `text` takes, in ``Part`` order (parts the tagger does not have are
    /// left out); the same work as ``entities(in:)``, split where the parts meet.
    public func partSeconds(_ text: String) -> [(part: Part, seconds: Double)] {
        let clock = ContinuousClock()
        var result: [(part: Part, seconds: Double)] = []
        var start = clock.now
        func lap(_ part: Part) {
            let elapsed = clock.now - start
            result.append((part, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18))
            start = clock.now
        }
        let tokens = WordTokenizer().tokens(in: text)
        guard !tokens.isEmpty else { return [] }
        var attributes = features.attributes(tokens, in: text)
        lap(.features)
        if let wordVectors {
            let vectors = wordVectors.featurizer.wordVectors(for: [text], words: [text.scalarOffsets(of: tokens.map(\.range))])
            lap(.wordVectors)
            if let first = vectors.first {
                for (t, extra) in wordVectors.clusters.attributes(first).enumerated() where t < attributes.count { attributes[t] += extra }
            }
            lap(.clusters)
        }
        let sequence = crf.attributeIDs(attributes)
        let path = crf.viterbi(sequence).labels
        let lattice = crf.lattice(sequence)
        withExtendedLifetime((path, lattice)) {}
        lap(.crf)
        return result
    }
}
