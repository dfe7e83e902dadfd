extension IntentClassifier {
    /// Whether the texts of several predictions can share encoder passes: the model reads an encoder
    /// only for its sentence features (``sentenceFeaturizer``), which ``sentenceFeatures(for:)`` computes
    /// for many texts at once. A model whose entity tagger reads the encoder too (word vectors, a joint
    /// transformer tagger) runs its pass per text, and the sentence features come from that pass: it
    /// gains nothing from sharing, and a model without an encoder has nothing to share.
    ///
    ///     if classifier.sharesEncoderPasses {
    ///         let features = classifier.sentenceFeatures(for: texts)
    ///         let answers = zip(texts, features).map { classifier.predict($0, sentenceFeatures: $1) }
    ///     }
    public var sharesEncoderPasses: Bool {
        sentenceFeaturizer != nil && entityExtractor?.transformerTagger == nil && entityExtractor?.tagger?.wordVectors == nil
    }

    /// The sentence features of `texts` in their order (one vector each, batched encoder passes), for
    /// ``predict(_:top:threshold:reference:sentenceFeatures:)``; nil for a model without sentence features.
    public func sentenceFeatures(for texts: [String]) -> [[Float]]? {
        sentenceFeaturizer?.features(for: texts)
    }
}
