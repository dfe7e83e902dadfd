import ArgumentParser
import Foundation
import NLUKit

/// `nlu-bench training`: fine-tuning throughput of an encoder with an intent head (issue #39), or with
/// `--task joint` the joint intent + slot model (issue #41). Loads a checkpoint, builds fixed batches (from
/// --batches, the file `benchmarks/training.py` writes so that PyTorch trains on the same token ids, or
/// seeded synthetic ones), runs --warmup full training steps and then times --steps of them through
/// ``EncoderClassifierTrainer`` (forward, mean pooling, head loss, backward, clipping by global norm 1,
/// AdamW) or ``JointIntentSlotTrainer`` (the same with a slot head over each word's first piece and a CRF
/// layer, head dropout at --dropout, slot loss coefficient 1). Prints examples/s and peak resident memory
/// as JSON; with --phases (intent task), also the time of each phase, measured in extra steps after the timed ones.
struct TrainingBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "training", abstract: "Time encoder fine-tuning steps (see benchmarks/training.py).")

    @Option(help: "A Hugging Face checkpoint directory or Hub id in the cache.")
    var model: String

    @Option(help: "Batches as JSON: {\"intents\": N, \"batches\": [{\"tokenIDs\": [[id, ...], ...], \"labels\": [...]}]}; without it, seeded synthetic batches.")
    var batches: String?

    @Option(help: "Sequences per batch (synthetic batches).")
    var batchSize = 32

    @Option(help: "Longest sequence in tokens, [CLS] and [SEP] included (synthetic batches).")
    var maxLength = 32

    @Option(help: "Intents of the head (synthetic batches).")
    var intents = 64

    @Option(help: "Seed of the synthetic batches and of the head's initial weights.")
    var seed: UInt64 = 42

    @Option(help: "Untimed training steps first.")
    var warmup = 3

    @Option(help: "Timed training steps.")
    var steps = 20

    @Option(help: "Hidden and attention dropout probability (0: none).")
    var dropout: Float = 0.1

    @Flag(help: "Also time forward, head and backward apart (extra steps after the timed ones; intent task).")
    var phases = false

    /// What is trained.
    enum Task: String, ExpressibleByArgument {
        case intent, joint
    }

    @Option(help: "intent (encoder + intent head) or joint (encoder + intent head + slot head + CRF layer).")
    var task = Task.intent

    @Option(help: "Slot tags of the joint model (synthetic batches).")
    var tags = 72

    @Flag(inversion: .prefixedNo, help: "The joint model's CRF layer.")
    var crf = true

    /// One training batch: token ids, intents, and for the joint task each sequence's first-piece word positions and tags.
    struct Batch {
        var encoderBatch: EncoderBatch
        var labels: [Int32]
        var wordPositions: [[Int]]? = nil
        var wordTags: [[Int]]? = nil
    }

    func run() throws {
        guard (1...100_000).contains(steps), (0...100_000).contains(warmup) else {
            throw ValidationError("--steps must be in 1...100000 and --warmup in 0...100000")
        }
        let directory = try ModelLocator.resolve(model)
        var start = DispatchTime.now().uptimeNanoseconds
        let encoder = try TrainableEncoder(checkpoint: directory, ignoringTaskHead: true, dropoutSeed: seed)
        let loadSeconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let peakAfterLoad = Self.peakResidentMegabytes()
        if dropout > 0 { encoder.dropout = EncoderDropout(hidden: dropout, attention: dropout) }
        let (classes, tagCount, data) = try batches.map { try Self.read($0, task: task) }
            ?? (intents, tags, try synthetic(vocabularySize: encoder.configuration.vocabularySize))
        guard task == .intent || !phases else { throw ValidationError("--phases times the intent task's phases") }
        var random = SplitMix64(seed: seed)
        let head = Linear(inputSize: encoder.configuration.hiddenSize, outputSize: classes, using: &random)
        let totalSteps = warmup + steps + (phases ? steps : 0)
        let schedule = try LinearWarmupSchedule(trainingSteps: totalSteps, warmupRatio: 0.1)
        var classifier: EncoderClassifierTrainer?
        let step: (Batch) throws -> Float
        switch task {
        case .intent:
            let trainer = try EncoderClassifierTrainer(
                encoder: encoder, pooling: [.mean], head: head, learningRate: 5e-5, weightDecay: 0.01, schedule: schedule,
                accumulationSteps: 1, batchesPerEpoch: data.count)
            classifier = trainer
            step = { try trainer.train($0.encoderBatch, labels: $0.labels).loss }
        case .joint:
            let slotHead = Linear(inputSize: encoder.configuration.hiddenSize, outputSize: tagCount, using: &random)
            let model = try JointIntentSlotModel(encoder: encoder, pooling: [.mean], intentHead: head, slotHead: slotHead,
                                                 crf: crf ? CRFLayer(tagCount: tagCount, using: &random) : nil)
            let trainer = try JointIntentSlotTrainer(model: model, headDropout: dropout, learningRate: 5e-5, weightDecay: 0.01,
                                                     schedule: schedule, batchesPerEpoch: data.count, seed: seed &+ 2)
            step = { batch in
                try trainer.train(try JointIntentSlotBatch(encoderBatch: batch.encoderBatch, intents: batch.labels,
                                                           wordPositions: batch.wordPositions ?? [], wordTags: batch.wordTags ?? [])).loss
            }
        }
        for index in 0..<warmup { _ = try step(data[index % data.count]) }
        var losses: [Float] = []
        start = DispatchTime.now().uptimeNanoseconds
        for index in 0..<steps { losses.append(try step(data[(warmup + index) % data.count])) }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let examples = (0..<steps).reduce(0) { $0 + data[(warmup + $1) % data.count].encoderBatch.batchSize }
        var report: [String: Any] = [
            "blas": BLAS.coreName, "level": CPULevel.current.name, "threads": BLAS.defaultThreadCount,
            "model": directory.path, "loadSeconds": loadSeconds, "steps": steps, "examples": examples,
            "seconds": seconds, "examplesPerSecond": Double(examples) / seconds,
            "firstLoss": losses.first ?? 0, "lastLoss": losses.last ?? 0,
            "shape": [data[0].encoderBatch.batchSize, data[0].encoderBatch.sequenceLength], "task": task.rawValue,
            "peakResidentAfterLoadMB": peakAfterLoad,
        ]
        // Before the phases, whose second workspace is not part of a training run.
        report["peakResidentMB"] = Self.peakResidentMegabytes()
        if phases, let classifier { report["phasesMs"] = try phaseTimes(trainer: classifier, data: data) }
        print(String(decoding: try JSONSerialization.data(withJSONObject: report, options: [.sortedKeys]), as: UTF8.self))
    }

    /// Mean milliseconds per step of the forward pass, the pooling and head (loss and their
    /// gradients), the encoder's backward pass, and the rest of a whole step (clipping and AdamW),
    /// over --steps more steps of each. The phases run outside the trainer on its own encoder and
    /// head: the extra gradients they add are cleared by the trainer's next step.
    private func phaseTimes(trainer: EncoderClassifierTrainer, data: [Batch]) throws -> [String: Double] {
        var totals = ["forward": 0.0, "poolingAndHead": 0.0, "backward": 0.0, "wholeStep": 0.0]
        func timed<T>(_ phase: String, _ body: () throws -> T) rethrows -> T {
            let start = DispatchTime.now().uptimeNanoseconds
            defer { totals[phase, default: 0] += Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
            return try body()
        }
        // One workspace per batch shape, as the trainer keeps it (--batches may hold batches of several lengths).
        var cached: EncoderTrainingWorkspace?
        for index in 0..<steps {
            let (batch, labels) = (data[index % data.count].encoderBatch, data[index % data.count].labels)
            _ = try timed("wholeStep") { try trainer.train(batch, labels: labels) }
            let workspace = try trainer.encoder.workspace(reusing: &cached, for: batch)
            let hidden = try timed("forward") { try trainer.encoder.forward(batch, workspace: workspace) }
            let dHidden = timed("poolingAndHead") { () -> Tensor<Float> in
                let pooled = trainer.pooling(hidden, attentionMask: batch.attentionMask)
                let (_, gradients) = trainer.head.lossAndGradients(pooled: pooled, targets: labels)
                return trainer.pooling.backward(outputGradient: gradients.input, hiddenStates: hidden,
                                                attentionMask: batch.attentionMask)
            }
            try timed("backward") { try trainer.encoder.backward(dHidden, workspace: workspace) }
        }
        var means = totals.mapValues { $0 / Double(steps) }
        means["clippingAndAdamW"] = means["wholeStep", default: 0] - means["forward", default: 0]
            - means["poolingAndHead", default: 0] - means["backward", default: 0]
        return means
    }

    /// Seeded batches: each sequence [CLS] ids [SEP] with a length drawn in max(3, maxLength/4)
    /// ... maxLength (the first of each batch at maxLength, so every batch has one shape), ids drawn
    /// past the special-token rows, one label per sequence; for the joint task, each id after [CLS] the first
    /// piece of a word with probability 3/4 (the first always), each word a tag.
    private func synthetic(vocabularySize: Int) throws -> [Batch] {
        guard (1...4096).contains(batchSize), (3...4096).contains(maxLength), (2...100_000).contains(intents),
              (2...4096).contains(tags), vocabularySize > 1000 else {
            throw ValidationError("--batch-size must be in 1...4096, --max-length in 3...4096, --intents in 2...100000, --tags in 2...4096 (vocabulary: \(vocabularySize))")
        }
        var random = SplitMix64(seed: seed)
        return try (0..<8).map { _ in
            let rows: [[Int32]] = (0..<batchSize).map { row in
                let length = row == 0 ? maxLength : Int.random(in: max(3, maxLength / 4)...maxLength, using: &random)
                return [101] + (0..<(length - 2)).map { _ in Int32.random(in: 1000..<Int32(vocabularySize), using: &random) } + [102]
            }
            let labels = (0..<batchSize).map { _ in Int32.random(in: 0..<Int32(intents), using: &random) }
            var batch = Batch(encoderBatch: try EncoderBatch(tokenIDs: rows, padID: 0), labels: labels)
            if task == .joint {
                batch.wordPositions = rows.map { row in (1..<(row.count - 1)).filter { $0 == 1 || Int.random(in: 0..<4, using: &random) > 0 } }
                batch.wordTags = batch.wordPositions?.map { $0.map { _ in Int.random(in: 0..<tags, using: &random) } }
            }
            return batch
        }
    }

    /// getrusage's ru_maxrss (the peak resident set so far), in MiB, as Python's resource module reads it.
    private static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        guard getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) == 0 else { return -1 }
        return Double(usage.ru_maxrss) / 1024   // kilobytes on Linux
        #else
        guard getrusage(RUSAGE_SELF, &usage) == 0 else { return -1 }
        return Double(usage.ru_maxrss) / (1024 * 1024)   // bytes on Darwin
        #endif
    }

    /// The batches file of `benchmarks/training.py`: intents, tags (joint task) and batches.
    private static func read(_ path: String, task: Task) throws -> (Int, Int, [Batch]) {
        struct File: Decodable {
            struct Batch: Decodable {
                var tokenIDs: [[Int32]]
                var labels: [Int32]
                var padID: Int32
                var wordPositions: [[Int]]?
                var wordTags: [[Int]]?
            }
            var intents: Int
            var tags: Int?
            var batches: [Batch]
        }
        let file = try JSONFile.decode(File.self, from: BenchmarkInput.data(path), file: path)
        guard (2...100_000).contains(file.intents), !file.batches.isEmpty else {
            throw ValidationError("\(path): expected 2...100000 intents and at least one batch")
        }
        let tags = file.tags ?? 0
        if task == .joint {
            guard (2...4096).contains(tags), file.batches.allSatisfy({ $0.wordPositions != nil && $0.wordTags != nil }) else {
                throw ValidationError("\(path): the joint task needs 2...4096 tags and every batch's wordPositions and wordTags")
            }
        }
        return (file.intents, tags, try file.batches.map {
            Batch(encoderBatch: try EncoderBatch(tokenIDs: $0.tokenIDs, padID: $0.padID), labels: $0.labels,
                  wordPositions: $0.wordPositions, wordTags: $0.wordTags)
        })
    }
}
