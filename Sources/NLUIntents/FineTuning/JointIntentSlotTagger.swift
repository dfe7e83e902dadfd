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
        let positions = encoding.firstPieces.compactMap { $0 }
        let batch = try EncoderBatch(tokenIDs: [encoding.tokenIDs], padID: tokenizer.padID)
        let outputs = try model.outputs(batch, wordPositions: [positions], wordShapes: model.usesWordShapes ? [encoding.positionedWordShapes] : nil)
        var probabilities = outputs.intentLogits
        Kernels.softmax(&probabilities)
        let ranking = zip(intents, probabilities.scalars).map { (name: $0, probability: $1) }.sorted { $0.probability > $1.probability }

        let decoded = TransformerSlotTagger.decode(text: text, encoding: encoding, slotLogits: outputs.slotLogits.scalars.map(Double.init),
                                                   crf: model.crf, tags: tags)
        return Parse(intents: ranking, wordTags: decoded.wordTags, entities: decoded.entities)
    }
}
