import Foundation
import NLUCore
import NLUText
import NLUTransformers

/// A trained joint intent + slot model ready to parse text: the model, its tokenizer and length limit,
/// and the names of its intents and BIO tags. Entities come out as the CRF tagger's do
/// (``ExtractedEntity``, Unicode-scalar offsets, entity / role / group from the tag), with
/// extractor ``ExtractedEntity/Extractor/transformer`` and as confidence the probability of the
/// mention's tags: their marginal path probability under the CRF, or the product of each word's
/// softmax probability without it.
///
///     let parse = try result.tagger.parse("book a table for 4 at 7pm")
///     parse.intents.first       // ("book_table", 0.98)
///     parse.entities            // [party_size "4" 17..<18, time "7pm" 22..<25]
public struct JointIntentSlotTagger {
    /// The model (its encoder runs without dropout here).
    public let model: JointIntentSlotModel
    /// The checkpoint's tokenizer.
    public let tokenizer: any EncoderTokenizer
    /// Tokens per utterance, `[CLS]` and `[SEP]` included.
    public let maxSequenceLength: Int
    /// Intent names in head order.
    public let intents: [String]
    /// Tag names in head order (`O`, then `B-`/`I-` per slot).
    public let tags: [String]

    /// A tagger from its parts; `tags` must match the slot head's size and `intents` the intent head's.
    public init(model: JointIntentSlotModel, tokenizer: any EncoderTokenizer, maxSequenceLength: Int, intents: [String], tags: [String]) {
        precondition(intents.count == model.intentHead.outputSize && tags.count == model.slotHead.outputSize,
                     "JointIntentSlotTagger: \(intents.count) intents and \(tags.count) tags for heads of "
                     + "\(model.intentHead.outputSize) and \(model.slotHead.outputSize)")
        self.model = model
        self.tokenizer = tokenizer
        self.maxSequenceLength = maxSequenceLength
        self.intents = intents
        self.tags = tags
    }

    /// What ``parse(_:)`` finds.
    public struct Parse {
        /// Every intent with its probability, most probable first.
        public var intents: [(name: String, probability: Float)]
        /// The words' tags, one per word (``WordTokenizer``'s words).
        public var wordTags: [String]
        /// The mentions, in text order.
        public var entities: [ExtractedEntity]
    }

    /// The intent ranking, the words' tags and the entities of `text`.
    /// - Throws: `BertTokenizerError` for a text past ``TextLengthLimit``; `ModelError` if the encoder refuses the batch.
    public func parse(_ text: String) throws -> Parse {
        try TextLengthLimit.check(text)
        let encoding = JointUtteranceEncoding(text: text, tokenizer: tokenizer, maxLength: maxSequenceLength)
        let positioned = encoding.firstPieces.indices.filter { encoding.firstPieces[$0] != nil }
        let positions = positioned.compactMap { encoding.firstPieces[$0] }
        let batch = try EncoderBatch(tokenIDs: [encoding.tokenIDs], padID: tokenizer.padID)
        let outputs = try model.outputs(batch, wordPositions: [positions])
        var probabilities = outputs.intentLogits
        Kernels.softmax(&probabilities)
        let ranking = zip(intents, probabilities.scalars).map { (name: $0, probability: $1) }.sorted { $0.probability > $1.probability }

        let tagCount = tags.count, logits = outputs.slotLogits.scalars.map(Double.init)
        let path = model.decodeTags(outputs.slotLogits, wordCounts: [positions.count])[0]
        // Each positioned word's tag; a word without a piece of its own continues the mention before it.
        var chainIndex = [Int?](repeating: nil, count: encoding.words.count)
        for (chain, word) in positioned.enumerated() { chainIndex[word] = chain }
        var wordTags: [String] = []
        for word in encoding.words.indices {
            if let chain = chainIndex[word] {
                wordTags.append(tags[path[chain]])
            } else if let previous = wordTags.last, previous != SlotTagScheme.outside {
                wordTags.append("I-" + previous.dropFirst(2))
            } else {
                wordTags.append(SlotTagScheme.outside)
            }
        }
        let lattice = model.crf.map { $0.lattice(emissions: logits, length: positions.count) }
        let entities = SlotTagScheme.spans(wordTags).map { span -> ExtractedEntity in
            let slot = SlotTagScheme.Slot(key: span.slot)
            let chain = span.tokens.compactMap { chainIndex[$0] }
            let confidence: Double
            if let lattice, let first = chain.first {
                confidence = lattice.probability(of: chain.map { path[$0] }, from: first)
            } else {
                confidence = chain.reduce(1.0) { product, index in
                    let row = logits[(index * tagCount)..<((index + 1) * tagCount)]
                    let top = row.max() ?? 0
                    let sum = row.reduce(0.0) { $0 + Foundation.exp($1 - top) }
                    return product * Foundation.exp(row[row.startIndex + path[index]] - top) / sum
                }
            }
            let words = encoding.words, offsets = encoding.wordOffsets
            let range = words[span.tokens.lowerBound].range.lowerBound..<words[span.tokens.upperBound - 1].range.upperBound
            let mention = String(text[range])
            return ExtractedEntity(entity: slot.entity, start: offsets[span.tokens.lowerBound].lowerBound,
                                   end: offsets[span.tokens.upperBound - 1].upperBound, text: mention, value: mention,
                                   confidence: confidence, extractor: .transformer, role: slot.role, group: slot.group)
        }
        return Parse(intents: ranking, wordTags: wordTags, entities: entities)
    }
}
