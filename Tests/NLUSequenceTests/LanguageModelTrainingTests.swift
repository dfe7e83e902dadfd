import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUSequence

@Suite struct LanguageModelTrainingTests {
    static let corpusURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Samples/lm/garden.txt")

    static var smallOptions: LanguageModelTrainingOptions {
        LanguageModelTrainingOptions(cell: .lstm, level: .word, layers: 1, hiddenSize: 32, embeddingSize: 16, epochs: 2,
                                     sequenceLength: 20, batchSize: 8, learningRate: 0.01, dropout: 0.1, seed: 3)
    }

    @Test func trainingLowersValidationPerplexityOnTheSampleCorpus() throws {
        let corpus = try String(contentsOf: Self.corpusURL, encoding: .utf8)
        var events: [LanguageModelTrainingEvent] = []
        let (model, history) = try LanguageModelTrainer(options: Self.smallOptions).train(texts: [corpus]) { events.append($0) }
        #expect(history.count == 2)
        // The untrained model with the same vocabulary and seed, on the same held-out text.
        let untrained = try LanguageModel(configuration: model.configuration, seed: Self.smallOptions.seed)
        let tokens = model.tokenizer.corpusTokens(in: corpus, endToken: "</s>")
        let ids = [model.vocabulary.endID] + tokens.map { model.vocabulary.idOrUnknown(for: $0) }
        let validation = Array(ids.suffix(Int((Double(ids.count) * 0.1).rounded())))
        let before = untrained.evaluate(ids: validation, sequenceLength: 20).perplexity
        let after = try #require(history.last?.validationPerplexity)
        #expect(before > Double(model.vocabulary.count) * 0.5, "an untrained model is near uniform")
        #expect(after < before / 4, "perplexity \(before) → \(after)")
        #expect(try #require(history.first?.validationPerplexity) > after)
        #expect(events.contains { if case .prepared = $0 { return true } else { return false } })
    }

    @Test func characterLevelGRUTrainsAndGeneratesCharacters() throws {
        let corpus = try String(contentsOf: Self.corpusURL, encoding: .utf8).split(separator: "\n").prefix(120)
            .joined(separator: "\n")
        let options = LanguageModelTrainingOptions(cell: .gru, level: .character, layers: 2, hiddenSize: 24, embeddingSize: 8,
                                                   epochs: 5, sequenceLength: 30, batchSize: 8, learningRate: 0.02,
                                                   dropout: 0.1, seed: 5)
        let (model, history) = try LanguageModelTrainer(options: options).train(texts: [corpus])
        #expect(model.configuration.level == .character && model.configuration.cell == .gru)
        #expect(model.vocabulary.tokens.dropFirst(2).allSatisfy { $0.count == 1 })
        let first = try #require(history.first?.validationPerplexity), last = try #require(history.last?.validationPerplexity)
        #expect(last < first && last < Double(model.vocabulary.count) / 2, "perplexity \(first) → \(last)")
        let generated = try model.generate(prompt: "the", options: .init(maxTokens: 40, temperature: 0.5, seed: 2))
        #expect(generated.text == generated.tokens.joined())   // characters join without separators
    }

    @Test func emptyCorpusIsAClearError() throws {
        #expect(throws: LanguageModelError.emptyCorpus(["empty.txt"])) {
            try LanguageModelTrainer(options: Self.smallOptions).train(texts: ["\n  \n"], names: ["empty.txt"])
        }
        var options = Self.smallOptions
        options.dropout = 1
        #expect(throws: LanguageModelError.self) { try LanguageModelTrainer(options: options).train(texts: ["a b"]) }
    }

    @Test func vocabularyKeepsFrequentTokensAndMapsTheRestToUnknown() {
        let vocabulary = LanguageModelVocabulary.build(
            counting: ["b", "a", "c", "a", "b", "a", "d", "</s>"], maxSize: 4, minimumCount: 2)
        #expect(vocabulary.tokens == ["<unk>", "</s>", "a", "b"])
        #expect(vocabulary.idOrUnknown(for: "c") == vocabulary.unknownID)
        let tokenizer = LanguageModelTokenizer(level: .word, lowercase: true)
        #expect(tokenizer.corpusTokens(in: "The cat.\n\nA dog\n", endToken: "</s>") == ["the", "cat", ".", "</s>", "a", "dog", "</s>"])
        #expect(LanguageModelTokenizer(level: .character, lowercase: false).corpusTokens(in: "Ab\nc", endToken: "</s>")
                == ["A", "b", "</s>", "c", "</s>"])
    }

    /// PyTorch word_language_model: batchify(data, 2) → columns [0..4], [5..9]; get_batch with bptt 2.
    @Test func batchesSplitTheStreamLikeBatchify() {
        let batches = Array(TokenBatches(ids: (0..<11).map(Int32.init), batchSize: 2, sequenceLength: 2))
        #expect(batches.count == 2)
        #expect(batches[0].inputs == [0, 5, 1, 6])
        #expect(batches[0].targets == [1, 6, 2, 7])
        #expect(batches[1].inputs == [2, 7, 3, 8])
        #expect(batches[1].targets == [3, 8, 4, 9])
    }

    @Test func checkpointIsWrittenEachEpochAndResumeContinues() throws {
        let corpus = try String(contentsOf: Self.corpusURL, encoding: .utf8)
        let directory = try TestScratch.folder("nlukit-lm-train")
        defer { try? FileManager.default.removeItem(at: directory) }
        let checkpoint = directory.appendingPathComponent("garden.nlumodel")
        var options = Self.smallOptions
        options.epochs = 1
        _ = try LanguageModelTrainer(options: options).train(texts: [corpus], checkpoint: checkpoint)
        let first = try LanguageModel(contentsOf: checkpoint)
        #expect(first.metadata[LanguageModelTrainer.MetadataKey.epochsCompleted] == "1")
        let optimizer = try #require(LanguageModelTrainer.loadOptimizerState(from: checkpoint, model: first))
        #expect(optimizer.step > 0 && optimizer.firstMoments.count == first.parameters.count)
        options.epochs = 2
        let (_, history) = try LanguageModelTrainer(options: options).train(texts: [corpus], checkpoint: checkpoint, resume: true)
        #expect(history.map(\.epoch) == [1, 2])
        let second = try LanguageModel(contentsOf: checkpoint)
        #expect(second.metadata[LanguageModelTrainer.MetadataKey.epochsCompleted] == "2")
        #expect(second.configuration == first.configuration)
        #expect(second.decoderBias != first.decoderBias, "the resumed epoch changed the weights")
        // Resuming continues Adam's step count: two epochs in one run == one epoch, then a resumed one.
        let resumedSteps = try #require(LanguageModelTrainer.loadOptimizerState(from: checkpoint, model: second)).step
        #expect(resumedSteps == 2 * optimizer.step)
    }
}
