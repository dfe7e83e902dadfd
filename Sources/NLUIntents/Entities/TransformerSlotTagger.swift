import Foundation
import NLUCore
import NLUText

/// The slot tagger of a joint intent + slot model (`nlu intents train --tagger transformer`): the
/// fine-tuned encoder's hidden state at each word's first piece (``JointUtteranceEncoding``), a linear
/// slot head over it (and over the word's ``WordShape`` when the head is that much wider), and the words' BIO tags (``SlotTagScheme``) decoded by Viterbi under the CRF
/// transition layer when the model has one, else each word's most probable tag. It stands where the
/// CRF ``SlotTagger`` stands in an ``EntityExtractor``: its mentions are merged with dictionaries,
/// regexes and built-ins by the same policy. The encoder is the intent model's own sentence
/// featurizer, so the intent and the tags can come from one pass.
///
///     let classifier = try IntentClassifier.fineTuneJoint(on: dataset, checkpoint: url)
///     classifier.entityExtractor?.transformerTagger?.entities(in: "a table for 4 at 7pm")
public struct TransformerSlotTagger: Sendable {
    /// Hidden state (then shape features, with ``usesWordShapes``) → tag logits (`slot_classifier`).
    public let slotHead: Linear
    /// The CRF transition layer, or nil: each word's arg max.
    public let crf: CRFLayer?
    /// Tag names in head order (`O`, then `B-`/`I-` per slot).
    public let tags: [String]
    /// Tokens per utterance, `[CLS]` and `[SEP]` included: as in training, within the encoder's limit.
    public let maxSequenceLength: Int
    /// The settings the model was trained with (for the record), when known.
    public let options: JointIntentSlotOptions?
    /// The fine-tuned encoder.
    public let encoder: any TokenStateFeaturizer

    /// A tagger from its parts.
    /// - Throws: ``EntityTaggerError/invalidModel(_:)`` when the head does not read the encoder's
    ///   hidden states or has not one output per tag, the CRF has another tag count, the tags are not
    ///   `O` and `B-`/`I-` tags (2 to ``JointIntentSlotFineTuner/maximumTagCount``, distinct), or the
    ///   length leaves no room for a piece.
    public init(slotHead: Linear, crf: CRFLayer?, tags: [String], maxSequenceLength: Int, options: JointIntentSlotOptions?,
                encoder: any TokenStateFeaturizer) throws {
        guard (2...JointIntentSlotFineTuner.maximumTagCount).contains(tags.count), Set(tags).count == tags.count,
              tags.allSatisfy({ $0 == SlotTagScheme.outside || (($0.hasPrefix("B-") || $0.hasPrefix("I-")) && $0.count > 2) }) else {
            throw EntityTaggerError.invalidModel("the transformer tagger's tags must be 2 to \(JointIntentSlotFineTuner.maximumTagCount) distinct "
                                                 + "names, each O, B-slot or I-slot; got \(tags.count): \(tags.prefix(8))")
        }
        guard [encoder.hiddenSize, encoder.hiddenSize + WordShape.featureCount].contains(slotHead.inputSize),
              slotHead.outputSize == tags.count, slotHead.bias != nil else {
            throw EntityTaggerError.invalidModel("the slot head is a [\(slotHead.outputSize), \(slotHead.inputSize)] layer"
                                                 + "\(slotHead.bias == nil ? " without bias" : ""); expected [\(tags.count), \(encoder.hiddenSize)] "
                                                 + "or [\(tags.count), \(encoder.hiddenSize + WordShape.featureCount)] with bias (one row per tag over "
                                                 + "the encoder's hidden states, or over them and the \(WordShape.featureCount) word-shape features)")
        }
        if let crf, crf.tagCount != tags.count {
            throw EntityTaggerError.invalidModel("the CRF layer has \(crf.tagCount) tags; the slot head has \(tags.count)")
        }
        guard maxSequenceLength >= 3, encoder.maxSequenceLength >= 3 else {
            throw EntityTaggerError.invalidModel("the maximum sequence length is \(maxSequenceLength); expected at least 3 ([CLS], a piece, [SEP])")
        }
        self.slotHead = slotHead
        self.crf = crf
        self.tags = tags
        self.maxSequenceLength = min(maxSequenceLength, encoder.maxSequenceLength)
        self.options = options
        self.encoder = encoder
    }

    /// Whether the slot head reads each word's ``WordShape`` features after its hidden state.
    public var usesWordShapes: Bool { WordShape.areRead(bySlotHeadOf: slotHead.inputSize, hidden: encoder.hiddenSize) }

    /// The mentions in `text` (value = the text as written), in text order, with extractor
    /// ``ExtractedEntity/Extractor/transformer``.
    public func entities(in text: String) -> [ExtractedEntity] {
        let encoding = JointUtteranceEncoding(text: text, tokenizer: encoder.tokenizer, maxLength: maxSequenceLength)
        let positions = encoding.firstPieces.compactMap { $0 }
        guard !positions.isEmpty else { return [] }
        let states = encoder.pooledAndTokenStates(text: text, tokenIDs: encoding.tokenIDs, positions: positions).states
        var inputs = Tensor(shape: [states.count, encoder.hiddenSize], scalars: states.flatMap { $0 })
        if usesWordShapes { inputs = WordShape.appendingFeatures(of: encoding.positionedWordShapes, to: inputs) }
        let logits = slotHead(inputs)
        return Self.decode(text: text, encoding: encoding, slotLogits: logits.scalars.map(Double.init), crf: crf, tags: tags).entities
    }

    /// The best tag index of each of `count` words whose logits are `rows` (`count` × `tagCount`):
    /// Viterbi under `crf`, else each row's arg max (the first on a tie).
    static func bestTags(_ rows: [Double], count: Int, tagCount: Int, crf: CRFLayer?) -> [Int] {
        if let crf { return crf.decode(emissions: rows, length: count) }
        return (0..<count).map { word in
            var best = 0
            for tag in 1..<tagCount where rows[word * tagCount + tag] > rows[word * tagCount + best] { best = tag }
            return best
        }
    }

    /// The words' tags and the mentions of `text` from the slot logits of its positioned words
    /// (those with a first piece, in order; `slotLogits` is words × tags). A word without a piece of
    /// its own continues the mention before it, or is `O`. A mention's confidence is the probability
    /// of its tags: their marginal path probability under the CRF, or the product of each word's
    /// softmax probability without it. The one decoding of the trainer's tagger and the stored one.
    static func decode(text: String, encoding: JointUtteranceEncoding, slotLogits logits: [Double], crf: CRFLayer?,
                       tags: [String]) -> (wordTags: [String], entities: [ExtractedEntity]) {
        let positioned = encoding.firstPieces.indices.filter { encoding.firstPieces[$0] != nil }
        let tagCount = tags.count
        let path = bestTags(logits, count: positioned.count, tagCount: tagCount, crf: crf)
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
        let lattice = crf.map { $0.lattice(emissions: logits, length: positioned.count) }
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
        return (wordTags, entities)
    }

    // MARK: Storage

    /// What the model package's manifest keeps of the tagger (`config.entities.transformerTagger`);
    /// the weights are the `tagger.slot_classifier.*` and `tagger.crf.*` tensors, and the encoder is
    /// the intent model's packaged one.
    struct Configuration: Codable, Sendable {
        var tags: [String]
        var crf: Bool
        var maxSequenceLength: Int
        var options: JointIntentSlotOptions?
    }

    static let weightTensor = "tagger.slot_classifier.weight"
    static let biasTensor = "tagger.slot_classifier.bias"
    /// `torchcrf`'s names, in ``CRFLayer/tensors`` order.
    static let crfTensors = ["tagger.crf.start_transitions", "tagger.crf.end_transitions", "tagger.crf.transitions"]

    var configuration: Configuration {
        Configuration(tags: tags, crf: crf != nil, maxSequenceLength: maxSequenceLength, options: options)
    }

    var namedWeights: [String: Tensor<Float>] {
        var weights = [Self.weightTensor: slotHead.weight]
        weights[Self.biasTensor] = slotHead.bias
        for (name, tensor) in zip(Self.crfTensors, crf?.tensors ?? []) { weights[name] = tensor }
        return weights
    }

    /// Rebuilds a tagger from its configuration and tensors over `encoder` (`file` names the package in errors).
    /// - Throws: ``EntityTaggerError/invalidModel(_:)`` naming the file and what is inconsistent.
    static func load(_ configuration: Configuration, tensor: (String) throws -> Tensor<Float>, file: String,
                     encoder: any TokenStateFeaturizer) throws -> TransformerSlotTagger {
        do {
            if let options = configuration.options {
                do {
                    try options.validate()
                } catch let error as TrainingSettingError {
                    throw EntityTaggerError.invalidModel("field config.entities.transformerTagger.options.\(error.setting) is \(error.value) "
                                                         + "(expected \(error.requirement))")
                }
            }
            let head: Linear
            do {
                head = try Linear(weight: tensor(weightTensor), bias: tensor(biasTensor))
            } catch let error as LayerWeightsError {
                throw EntityTaggerError.invalidModel("\(weightTensor) / \(biasTensor): \(error)")
            }
            let crf = configuration.crf ? try CRFLayer(startTransitions: tensor(crfTensors[0]), endTransitions: tensor(crfTensors[1]),
                                                       transitions: tensor(crfTensors[2])) : nil
            return try TransformerSlotTagger(slotHead: head, crf: crf, tags: configuration.tags,
                                             maxSequenceLength: configuration.maxSequenceLength,
                                             options: configuration.options, encoder: encoder)
        } catch let EntityTaggerError.invalidModel(reason) {
            throw EntityTaggerError.invalidModel(reason.hasPrefix(file) ? reason : "\(file): \(reason)")
        }
    }
}
