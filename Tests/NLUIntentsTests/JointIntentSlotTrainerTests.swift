import Foundation
import NLUCore
@testable import NLUIntents
import NLUText
import NLUTransformers
import Testing

/// What `scripts/fixtures/joint_intent_slot.py` records: JointBERT's model and loss on minilm-tiny in
/// PyTorch (float32, dropout off), 20 AdamW steps with a softmax slot head, with torchcrf's CRF and with
/// the CRF over a slot head that also reads the words' shapes, and torchcrf alone in float64.
struct JointIntentSlotReference: Decodable {
    struct Values: Decodable {
        var shape: [Int]
        var values: [Float]
        var tensor: Tensor<Float> { Tensor(shape: shape, scalars: values) }
    }
    struct Batch: Decodable {
        var input_ids: [[Int32]]
        var attention_mask: [[Int32]]
        var intents: [Int32]
        var wordPositions: [[Int]]
        var wordTags: [[Int]]
        /// Per word, [capitalized, all capitals, follows a capitalized word] as 0 or 1; the first word of a sequence is its first.
        var wordShapes: [[[Int]]]
    }
    struct Step: Decodable {
        var loss: Float
        var learningRate: Float
        var gradientNorm: Float
    }
    struct Run: Decodable {
        var crf: Bool
        var wordShapes: Bool?
        var slotLossCoefficient: Float
        var accumulationSteps: Int
        var learningRate: Float
        var weightDecay: Float
        var maxGradNorm: Float
        var warmupSteps: Int
        var trainingSteps: Int
        var initial: [String: Values]
        var firstLoss: Float
        var gradients: [String: Values]
        var steps: [Step]
        var lossesAfter: [Float]
    }
    struct CRFCase: Decodable {
        struct Decode: Decodable {
            var tags: Int
            var start: [Float]
            var end: [Float]
            var transitions: [Float]
            var emissions: [Double]
            var path: [Int]
        }
        struct Gradients: Decodable {
            var emissions: ValuesDouble
            var startTransitions: ValuesDouble
            var endTransitions: ValuesDouble
            var transitions: ValuesDouble
        }
        struct ValuesDouble: Decodable {
            var shape: [Int]
            var values: [Double]
        }
        var startTransitions: Values
        var endTransitions: Values
        var transitions: Values
        var lengths: [Int]
        var emissions: ValuesDouble
        var tags: [[Int]]
        var logLikelihoods: [Double]
        var gradients: Gradients
        var paths: [[Int]]
        var decodes: [Decode]
    }
    var checkpoint: String
    var batches: [Batch]
    var runs: [String: Run]
    var crf: CRFCase

    static func load() throws -> JointIntentSlotReference {
        let url = IntentFineTuneReference.fixtures.appendingPathComponent("training/joint-intent-slot.json")
        return try JSONDecoder().decode(JointIntentSlotReference.self, from: Data(contentsOf: url))
    }

    /// The batches, with the words' shapes for a run whose slot head reads them.
    func jointBatches(for run: String = "crf") throws -> [JointIntentSlotBatch] {
        let shaped = runs[run]?.wordShapes ?? false
        return try batches.map { batch in
            let encoderBatch = try EncoderBatch(batchSize: batch.input_ids.count, sequenceLength: batch.input_ids[0].count,
                                                tokenIDs: batch.input_ids.flatMap { $0 }, attentionMask: batch.attention_mask.flatMap { $0 })
            let shapes = batch.wordShapes.map { words in
                words.enumerated().map { WordShape(capitalized: $1[0] == 1, allCapitals: $1[1] == 1, isFirst: $0 == 0, followsCapitalized: $1[2] == 1) }
            }
            return try JointIntentSlotBatch(encoderBatch: encoderBatch, intents: batch.intents, wordPositions: batch.wordPositions,
                                            wordTags: batch.wordTags, wordShapes: shaped ? shapes : nil)
        }
    }

    func makeTrainer(_ name: String) throws -> JointIntentSlotTrainer {
        let run = try #require(runs[name])
        let encoder = try TrainableEncoder(checkpoint: IntentFineTuneReference.fixtures.appendingPathComponent(checkpoint))
        func tensor(_ key: String) throws -> Tensor<Float> { try #require(run.initial[key]).tensor }
        let intentHead = try Linear(weight: tensor("intent_classifier.weight"), bias: tensor("intent_classifier.bias"))
        let slotHead = try Linear(weight: tensor("slot_classifier.weight"), bias: tensor("slot_classifier.bias"))
        let crf = run.crf ? try CRFLayer(startTransitions: tensor("crf.start_transitions"), endTransitions: tensor("crf.end_transitions"),
                                         transitions: tensor("crf.transitions")) : nil
        let model = try JointIntentSlotModel(encoder: encoder, pooling: [.mean], intentHead: intentHead, slotHead: slotHead, crf: crf)
        return try JointIntentSlotTrainer(
            model: model, slotLossCoefficient: run.slotLossCoefficient, learningRate: run.learningRate, weightDecay: run.weightDecay,
            maxGradientNorm: run.maxGradNorm, schedule: LinearWarmupSchedule(trainingSteps: run.trainingSteps, warmupSteps: run.warmupSteps),
            accumulationSteps: run.accumulationSteps, batchesPerEpoch: batches.count)
    }
}

/// ‖a − b‖ / ‖b‖.
private func relativeDistance(_ a: [Float], _ b: [Float]) -> Float {
    let difference = zip(a, b).reduce(0.0) { $0 + Double(($1.0 - $1.1) * ($1.0 - $1.1)) }.squareRoot()
    let norm = b.reduce(0.0) { $0 + Double($1 * $1) }.squareRoot()
    return Float(difference / max(norm, 1e-30))
}

@Suite struct JointIntentSlotTrainerTests {
    /// The gradients of the first micro-batch, with the intent head, the slot head, the CRF and two
    /// encoder tensors (the path back through pooling and the word gather): each within 1e-5 of its
    /// norm of PyTorch autograd's.
    @Test(arguments: ["softmax", "crf", "crfShapes"])
    func firstBatchGradientsMatchAutograd(run name: String) throws {
        let reference = try JointIntentSlotReference.load()
        let run = try #require(reference.runs[name])
        // Accumulation 1 and a long schedule, so the first batch's gradients stay for inspection.
        let trainer = try reference.makeTrainer(name)
        let batch = try reference.jointBatches(for: name)[0]
        let loss = try trainer.loss(batch)
        #expect(abs(loss - run.firstLoss) <= 1e-5 * run.firstLoss, "loss \(loss), PyTorch \(run.firstLoss)")
        let gradients = try trainer.gradients(of: batch)
        for (parameter, expected) in run.gradients {
            let ours = try #require(gradients[parameter], "no gradient for \(parameter)")
            #expect(ours.shape == expected.shape, "\(parameter)")
            let distance = relativeDistance(ours.scalars, expected.values)
            #expect(distance <= 1e-5, "\(name) \(parameter): relative distance \(distance)")
        }
    }

    /// The bar: the joint loss at every one of 20 AdamW steps within 1e-5 relative of
    /// PyTorch's, and every micro-batch's loss after them.
    @Test(arguments: ["softmax", "crf", "crfShapes"])
    func twentyStepsMatchPyTorch(run name: String) throws {
        let reference = try JointIntentSlotReference.load()
        let run = try #require(reference.runs[name])
        let trainer = try reference.makeTrainer(name)
        let batches = try reference.jointBatches(for: name)
        var steps: [FineTuningStep] = []
        while steps.count < run.trainingSteps {
            for batch in batches where steps.count < run.trainingSteps {
                if let step = try trainer.train(batch).completedStep { steps.append(step) }
            }
        }
        var worst: Float = 0
        for (ours, theirs) in zip(steps, run.steps) {
            let relative = abs(ours.loss - theirs.loss) / abs(theirs.loss)
            worst = max(worst, relative)
            #expect(relative <= 1e-5, "\(name) step \(ours.step): loss \(ours.loss), PyTorch \(theirs.loss)")
            #expect(abs(ours.learningRate - theirs.learningRate) <= 1e-9 + 1e-6 * theirs.learningRate, "step \(ours.step)")
            #expect(abs(ours.gradientNorm - theirs.gradientNorm) <= 1e-4 * theirs.gradientNorm, "step \(ours.step) norm")
        }
        print("\(name): largest relative loss difference over 20 steps: \(worst)")
        for (batch, expected) in zip(batches, run.lossesAfter) {
            let ours = try trainer.loss(batch)
            #expect(abs(ours - expected) <= 1e-5 * expected, "\(name) loss after 20 steps: \(ours), PyTorch \(expected)")
        }
    }

    @Test func intentOrTagOutsideTheHeadsIsRefused() throws {
        let reference = try JointIntentSlotReference.load()
        let trainer = try reference.makeTrainer("crf")
        var batch = try reference.jointBatches()[0]
        batch.intents[0] = 3
        #expect(throws: ModelError.self) { try trainer.train(batch) }
        batch = try reference.jointBatches()[0]
        batch.wordTags[1][0] = 5
        #expect(throws: ModelError.self) { try trainer.train(batch) }
        #expect(trainer.microBatches == 0)
        let good = try reference.jointBatches()[0]
        #expect(throws: ModelError.self) {
            try JointIntentSlotBatch(encoderBatch: good.encoderBatch, intents: good.intents,
                                     wordPositions: [[1, 1]] + good.wordPositions.dropFirst(), wordTags: [[0, 0]] + good.wordTags.dropFirst())
        }
    }

    /// A slot head that reads word shapes needs one per word: a batch without them, or with another count, is refused
    /// before anything is computed or updated.
    @Test func aShapedSlotHeadRefusesABatchWithoutShapes() throws {
        let reference = try JointIntentSlotReference.load()
        let trainer = try reference.makeTrainer("crfShapes")
        #expect(trainer.model.usesWordShapes)
        let unshaped = try reference.jointBatches(for: "crf")[0]
        #expect(throws: ModelError.self) { try trainer.train(unshaped) }
        #expect(trainer.microBatches == 0)
        let shaped = try reference.jointBatches(for: "crfShapes")[0]
        #expect(throws: ModelError.self) {
            try JointIntentSlotBatch(encoderBatch: shaped.encoderBatch, intents: shaped.intents, wordPositions: shaped.wordPositions,
                                     wordTags: shaped.wordTags, wordShapes: shaped.wordShapes.map { [$0[0].dropLast()] + $0.dropFirst() })
        }
    }
}

@Suite struct CRFLayerTests {
    /// torchcrf's log-likelihoods and the gradients of their negated mean, in float64: within 1e-9.
    @Test func negativeLogLikelihoodAndGradientsMatchTorchCRF() throws {
        let reference = try JointIntentSlotReference.load().crf
        let crf = try CRFLayer(startTransitions: reference.startTransitions.tensor, endTransitions: reference.endTransitions.tensor,
                               transitions: reference.transitions.tensor)
        let tags = crf.tagCount, width = reference.emissions.shape[1]
        let count = Double(reference.lengths.count)
        var dStart = [Double](repeating: 0, count: tags), dEnd = dStart, dTransitions = [Double](repeating: 0, count: tags * tags)
        for (row, length) in reference.lengths.enumerated() {
            let emissions = Array(reference.emissions.values[(row * width * tags)..<((row * width + length) * tags)])
            let (loss, gradients) = crf.negativeLogLikelihood(emissions: emissions, length: length, tags: Array(reference.tags[row].prefix(length)))
            #expect(abs(-loss - reference.logLikelihoods[row]) <= 1e-9 * abs(reference.logLikelihoods[row]), "sequence \(row)")
            let expected = reference.gradients.emissions.values[(row * width * tags)..<((row + 1) * width * tags)]
            for (k, value) in expected.enumerated() {
                let ours = k < length * tags ? gradients.emissions[k] / count : 0
                #expect(abs(ours - value) <= 1e-9, "sequence \(row) emission gradient \(k): \(ours), torchcrf \(value)")
            }
            for j in 0..<tags {
                dStart[j] += gradients.startTransitions[j] / count
                dEnd[j] += gradients.endTransitions[j] / count
            }
            for k in dTransitions.indices { dTransitions[k] += gradients.transitions[k] / count }
        }
        for (ours, theirs) in [(dStart, reference.gradients.startTransitions.values), (dEnd, reference.gradients.endTransitions.values),
                               (dTransitions, reference.gradients.transitions.values)] {
            for (a, b) in zip(ours, theirs) { #expect(abs(a - b) <= 1e-9, "transition gradient \(a), torchcrf \(b)") }
        }
    }

    /// Viterbi equals torchcrf's `decode` on the masked batch and on 200 random chains of 1 to 11
    /// tokens and 1 to 8 tags.
    @Test func viterbiEqualsTorchCRFDecode() throws {
        let reference = try JointIntentSlotReference.load().crf
        let crf = try CRFLayer(startTransitions: reference.startTransitions.tensor, endTransitions: reference.endTransitions.tensor,
                               transitions: reference.transitions.tensor)
        let tags = crf.tagCount, width = reference.emissions.shape[1]
        for (row, length) in reference.lengths.enumerated() {
            let emissions = Array(reference.emissions.values[(row * width * tags)..<((row * width + length) * tags)])
            #expect(crf.decode(emissions: emissions, length: length) == reference.paths[row], "sequence \(row)")
        }
        for (index, decode) in reference.decodes.enumerated() {
            let layer = try CRFLayer(startTransitions: Tensor(decode.start), endTransitions: Tensor(decode.end),
                                     transitions: Tensor(shape: [decode.tags, decode.tags], scalars: decode.transitions))
            let length = decode.emissions.count / decode.tags
            #expect(layer.decode(emissions: decode.emissions, length: length) == decode.path, "decode \(index)")
        }
    }
}

@Suite struct JointIntentSlotFineTunerTests {
    static let checkpoint = IntentFineTuneReference.fixtures.appendingPathComponent("embeddings/minilm-tiny")

    static func dataset() -> IntentDataset {
        func utterance(_ text: String, _ mentions: [(String, String)]) -> Utterance {
            Utterance(text, entities: mentions.map { entity, mention in
                let range = text.range(of: mention)!
                return EntityAnnotation(start: text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.lowerBound),
                                        end: text.unicodeScalars.distance(from: text.unicodeScalars.startIndex, to: range.upperBound), entity: entity)
            })
        }
        return IntentDataset(intents: [
            Intent(name: "book", utterances: [utterance("book a table in paris", [("city", "paris")]),
                                              utterance("a table for four in rome please", [("city", "rome")]),
                                              utterance("reserve in new york", [("city", "new york")])]),
            Intent(name: "weather", utterances: [utterance("weather in oslo today", [("city", "oslo"), ("date", "today")]),
                                                 utterance("will it rain tomorrow", [("date", "tomorrow")]),
                                                 utterance("forecast for lima", [("city", "lima")])]),
        ])
    }

    /// The words as the CRF tagger counts them, each with the first of the tokenizer's pieces that
    /// start inside it. Over this 303-piece vocabulary transformers' tokenizer makes
    /// w ##e ##a ##t ##h ##er to ##m ##o ##r ##r ##o ##w ' s (offsets 0-1 ... 5-7, 8-10 ... 15-16, 16-17, 17-18).
    @Test func firstPieceOfEachWordCarriesItsPosition() throws {
        let tokenizer = try loadEncoderTokenizer(modelDirectory: Self.checkpoint)
        let encoding = JointUtteranceEncoding(text: "weather tomorrow's", tokenizer: tokenizer, maxLength: 64)
        let words: [String] = WordTokenizer().tokens(in: "weather tomorrow's").map { String($0.text) }
        let encodedWords: [String] = encoding.words.map { String($0.text) }
        #expect(encodedWords == words)
        let pieces = tokenizer.tokenize("weather tomorrow's")
        #expect(encoding.tokenIDs == [tokenizer.clsID] + pieces.ids + [tokenizer.sepID])
        for (word, position) in zip(encoding.wordOffsets, encoding.firstPieces) {
            let position = try #require(position)
            #expect(word.contains(pieces.offsets[position - 1].lowerBound))
            #expect(position == 1 || !word.contains(pieces.offsets[position - 2].lowerBound))
        }
        let cut = JointUtteranceEncoding(text: "weather tomorrow's", tokenizer: tokenizer, maxLength: 4)
        #expect(cut.tokenIDs.count == 4 && cut.firstPieces.dropFirst().allSatisfy { $0 == nil })
    }

    @Test func overlappingOrOutOfRangeSpansAreRefusedNamingTheUtterance() throws {
        let tuner = try JointIntentSlotFineTuner(checkpoint: Self.checkpoint)
        var dataset = Self.dataset()
        dataset.intents[1].utterances[0].entities.append(EntityAnnotation(start: 8, end: 12, entity: "place"))
        let overlap = try #require(throws: EntityAnnotationError.self) { try tuner.train(dataset) }
        #expect(overlap.description.contains("weather in oslo today") && overlap.description.contains("overlaps"), "\(overlap)")
        dataset = Self.dataset()
        dataset.intents[0].utterances[2].entities[0].end = 40
        let outside = try #require(throws: EntityAnnotationError.self) { try tuner.train(dataset) }
        #expect(outside.description.contains("reserve in new york") && outside.description.contains("outside"), "\(outside)")
    }
}
