import Foundation
import NLUCore
@testable import NLUEmbeddings
import NLUTestSupport
import Testing

/// Held-out pairs scored after each epoch of `embed train` (``SentenceFineTuningEvaluation``): the
/// correlations equal scipy's, the ranking figures a hand count, and a run's last scores equal those
/// recomputed from the folder it saved, embedded by `nlu embed`'s own encoder.
@Suite struct SentenceFineTuningEvaluationTests {
    static let model = SentenceFineTuneReference.fixtures.appendingPathComponent("training/sentence-tiny")
    static let words = ["art", "book", "bridge", "castle", "city", "dog", "door", "forest", "fox", "friend", "game", "girl"]

    /// scipy 1.17.1, `pearsonr(x, y)[0]` and `spearmanr(x, y)[0]` (ties in both: mean ranks), to 1e-12.
    @Test func correlationsAreScipys() throws {
        let x = [0.9, 0.1, 0.5, 0.5, 0.3, 0.8, 0.2], y = [1.0, 0.0, 0.5, 0.25, 0.5, 1.0, 0.0]
        let pearson = try #require(SentenceFineTuningEvaluation.pearson(x, y))
        let spearman = try #require(SentenceFineTuningEvaluation.pearson(SentenceFineTuningEvaluation.ranks(x), SentenceFineTuningEvaluation.ranks(y)))
        #expect(abs(pearson - 0.9234745371159574) <= 1e-12, "\(pearson)")
        #expect(abs(spearman - 0.8983021912241713) <= 1e-12, "\(spearman)")
        #expect(SentenceFineTuningEvaluation.ranks([3, 1, 3, 2]) == [3.5, 1, 3.5, 2])
        #expect(SentenceFineTuningEvaluation.pearson([1, 1, 1], [1, 2, 3]) == nil)
    }

    /// Anchors along the axes, candidates placed so that the positives rank 1st, 2nd, 3rd and 11th: accuracy@1
    /// 1/4, MRR@10 (1 + 1/2 + 1/3 + 0) / 4; a tie with the positive counts for it.
    @Test func rankingCountsWhereEachPositiveComes() throws {
        let dimension = 12
        func rows(_ vectors: [[Float]]) -> Tensor<Float> { Tensor(shape: [vectors.count, dimension], scalars: vectors.flatMap { $0 }) }
        func axis(_ i: Int, _ weight: Float = 1, plus j: Int? = nil, _ other: Float = 0) -> [Float] {
            var vector = [Float](repeating: 0, count: dimension)
            vector[i] = weight
            if let j { vector[j] += other }
            return vector
        }
        let anchors = rows([axis(0), axis(1), axis(2), axis(3)])
        // Candidate 0: anchor 0's positive, on its axis. 1: anchor 1's, 60° off; 2 beats it (closer to axis 1).
        // 3: anchor 2's, far off axis 2; 4 and 5 are nearer. 6: anchor 3's, nearly orthogonal; 7...16 nearer.
        var candidates: [[Float]] = [axis(0), axis(1, 1, plus: 5, 1.7), axis(1, 1, plus: 5, 0.1), axis(2, 1, plus: 6, 3),
                                     axis(2, 1, plus: 6, 1), axis(2, 1, plus: 7, 1), axis(3, 0.01, plus: 8, 1)]
        for extra in 0..<10 { candidates.append(axis(3, 1, plus: 9 + extra % 3, Float(extra) * 0.1)) }
        let score = SentenceFineTuningEvaluation.ranked(anchors, candidates: rows(candidates), relevant: [0, 1, 3, 6], epoch: 1)
        #expect(score.pairs == 4 && score.accuracyAt1 == 0.25)
        #expect(abs((score.mrrAt10 ?? 0) - (1 + 0.5 + 1.0 / 3) / 4) <= 1e-12, "\(score)")
        // Two equal candidates: the positive ties with the other, and counts as first.
        let tie = SentenceFineTuningEvaluation.ranked(rows([axis(0)]), candidates: rows([axis(0), axis(0)]), relevant: [1], epoch: 1)
        #expect(tie.accuracyAt1 == 1 && tie.mrrAt10 == 1)
    }

    /// A run with validation pairs takes the same steps as without, scores every epoch, and its last
    /// scores are those of the saved folder embedded through `SentenceEmbedder` (within 1e-5).
    @Test(arguments: ["scored", "ranked"])
    func runScoresEachEpochAsTheSavedModelEmbeds(shape: String) throws {
        let work = try TestScratch.folder("nlukit-sentence-validation")
        defer { try? FileManager.default.removeItem(at: work) }
        let training = TrainingPairs.contrastive(Self.words.indices.map { index in
            .init(anchor: "the \(Self.words[index]) and the \(Self.words[(index * 5 + 1) % 12])", positive: "a \(Self.words[index]) \(index)")
        })
        let validation: TrainingPairs = shape == "scored"
            ? .scored(Self.words.indices.map { .init(first: "the \(Self.words[$0])", second: "a \(Self.words[($0 * 7) % 12])", score: Float($0 % 3) / 2) })
            : .contrastive(Self.words.indices.map { .init(anchor: "the \(Self.words[$0]) city", positive: "a \(Self.words[$0])",
                                                            negative: "a \(Self.words[($0 + 1) % 12]) door") })
        var options = SentenceFineTuningOptions()
        options.epochs = 2
        options.batchSize = 4
        options.learningRate = 1e-3
        let tuner = try SentenceEncoderFineTuner(model: Self.model, options: options)
        let plain = try tuner.train(training, output: work.appendingPathComponent("plain"))
        var scores: [SentenceFineTuningEvaluation] = []
        let scored = try tuner.train(training, validation: validation, output: work.appendingPathComponent("scored")) { event in
            if case .evaluated(let score) = event { scores.append(score) }
        }
        #expect(scored.steps == plain.steps)
        #expect(scores.map(\.epoch) == [1, 2] && scores.allSatisfy { $0.pairs == 12 })

        let embedder = try SentenceEmbedder(modelDirectory: scored.output)
        func vectors(_ texts: [String]) throws -> Tensor<Float> {
            let embedded = try texts.map { try embedder.embed($0) }
            return Tensor(shape: [texts.count, embedded[0].count], scalars: embedded.flatMap { $0 })
        }
        let last = try #require(scores.last)
        switch validation {
        case .scored(let pairs):
            let reference = SentenceFineTuningEvaluation.scored(try vectors(pairs.map(\.first) + pairs.map(\.second)), scores: pairs.map(\.score),
                                                                epoch: 2)
            #expect(abs((last.spearman ?? .nan) - (reference.spearman ?? .nan)) <= 1e-5, "\(last) against \(reference)")
            #expect(abs((last.pearson ?? .nan) - (reference.pearson ?? .nan)) <= 1e-5, "\(last) against \(reference)")
            #expect(last.accuracyAt1 == nil && last.mrrAt10 == nil)
        case .contrastive(let pairs):
            let candidates = pairs.flatMap { [$0.positive, $0.negative ?? ""] }
            let reference = SentenceFineTuningEvaluation.ranked(try vectors(pairs.map(\.anchor)), candidates: try vectors(candidates),
                                                                relevant: pairs.indices.map { 2 * $0 }, epoch: 2)
            #expect(last.accuracyAt1 == reference.accuracyAt1 && last.mrrAt10 == reference.mrrAt10, "\(last) against \(reference)")
            #expect(last.spearman == nil)
        }
    }

    /// `keepBest` (sentence-transformers' `save_best_model`): the folder written holds the epoch with the best
    /// Spearman (the first of equal scores), which embeds the pairs to that epoch's score; the steps are the
    /// plain run's. A run resumed from an epoch's checkpoint writes what the uninterrupted one writes; early
    /// stopping ends the run on the full run's steps; a score of the other pair shape is refused.
    @Test func theBestEpochIsWritten() throws {
        let work = try TestScratch.folder("nlukit-sentence-keep-best")
        defer { try? FileManager.default.removeItem(at: work) }
        let training = TrainingPairs.contrastive(Self.words.indices.map { index in
            .init(anchor: "the \(Self.words[index]) and the \(Self.words[(index * 5 + 1) % 12])", positive: "a \(Self.words[index]) \(index)")
        })
        let pairs: [TrainingPairs.ScoredPair] = Self.words.indices.map { .init(first: "the \(Self.words[$0])", second: "a \(Self.words[($0 * 7) % 12])", score: Float($0 % 3) / 2) }
        let validation = TrainingPairs.scored(pairs)
        var options = SentenceFineTuningOptions()
        options.epochs = 4
        options.batchSize = 4
        options.learningRate = 1e-3
        let plain = try SentenceEncoderFineTuner(model: Self.model, options: options).train(training, validation: validation,
                                                                                             output: work.appendingPathComponent("plain"))
        options.keepBest = .spearman
        let tuner = try SentenceEncoderFineTuner(model: Self.model, options: options)
        var scores: [SentenceFineTuningEvaluation] = []
        let interrupted = work.appendingPathComponent("after-epoch-2")
        let kept = try tuner.train(training, validation: validation, output: work.appendingPathComponent("kept")) { event in
            if case .evaluated(let score) = event { scores.append(score) }
            if case .epochFinished(2, _, let checkpoint) = event { try? FileManager.default.copyItem(at: checkpoint, to: interrupted) }
        }
        #expect(kept.steps == plain.steps && plain.keptEpoch == 4)
        let spearman = scores.map { $0.spearman ?? .nan }
        #expect(scores.map(\.isBest) == spearman.indices.map { index in spearman[..<index].allSatisfy { spearman[index] > $0 } })
        #expect(kept.keptEpoch == spearman.firstIndex(of: spearman.max() ?? 0).map { $0 + 1 } && kept.keptEpoch < 4, "Spearman by epoch \(spearman)")

        let embedder = try SentenceEmbedder(modelDirectory: kept.output)
        let embedded = try (pairs.map(\.first) + pairs.map(\.second)).map { try embedder.embed($0) }
        let reference = SentenceFineTuningEvaluation.scored(Tensor(shape: [embedded.count, embedded[0].count], scalars: embedded.flatMap { $0 }),
                                                            scores: pairs.map(\.score), epoch: kept.keptEpoch)
        #expect(abs((reference.spearman ?? .nan) - spearman[kept.keptEpoch - 1]) <= 1e-5, "saved \(reference), epochs \(spearman)")
        #expect(kept.trainer.encoder.parameters.values != plain.trainer.encoder.parameters.values)

        let resumed = try tuner.train(training, validation: validation, output: interrupted, resume: true)
        #expect(resumed.keptEpoch == kept.keptEpoch && resumed.trainer.encoder.parameters.values == kept.trainer.encoder.parameters.values)
        for name in [SentenceFineTuningCheckpoint.bestFileName, SentenceFineTuningCheckpoint.stateFileName] {
            #expect(!FileManager.default.fileExists(atPath: kept.output.appendingPathComponent(name).path), "a finished model holds no \(name)")
        }

        options.earlyStoppingPatience = 1
        var stoppedScores: [SentenceFineTuningEvaluation] = []
        let stopped = try SentenceEncoderFineTuner(model: Self.model, options: options).train(
            training, validation: validation, output: work.appendingPathComponent("stopped")) { event in
            if case .evaluated(let score) = event { stoppedScores.append(score) }
        }
        #expect(stoppedScores.count == stopped.keptEpoch + 1 && stoppedScores.count < 4, "\(stoppedScores)")
        #expect(stopped.steps == Array(plain.steps.prefix(stopped.steps.count)))

        options.earlyStoppingPatience = nil
        options.keepBest = .accuracyAt1
        let error = try #require(throws: TrainingSettingError.self) {
            try SentenceEncoderFineTuner(model: Self.model, options: options).train(training, validation: validation,
                                                                                     output: work.appendingPathComponent("refused"))
        }
        #expect(error.setting == "keepBest" && error.requirement.contains("anchor/positive"))
    }
}
