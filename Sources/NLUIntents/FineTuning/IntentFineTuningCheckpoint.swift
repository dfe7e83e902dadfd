import Foundation
import NLUCore
import NLUTransformers
import NLUInputOutput

/// A fine-tuning run's state at the end of an epoch, in a folder beside the output
/// (`OUT.nlumodel.checkpoint/`): `encoder/` (the encoder in its Hugging Face layout),
/// `state.safetensors` (the heads: `classifier.weight` / `classifier.bias` for the intent model, the
/// joint model's ``JointIntentSlotModel/headParameterNames``, none for a few-shot run's contrastive
/// stage, whose head is fitted after it; AdamW's moments, `adam.m.N` / `adam.v.N` in parameter
/// order; with ``IntentFineTuningOptions/keepBest``, the best epoch's weights as `best.NAME` when that is
/// an earlier epoch) and `checkpoint.json` (the epoch, the step counts, the options (the few-shot settings for a
/// few-shot run), the joint model's own and its tags, and fingerprints of the model and dataset,
/// which a resumed run must match).
/// Written beside the folder and swapped in, so an interrupted write leaves the previous epoch's.
///
///     let checkpoint = IntentFineTuningCheckpoint(folder: URL(fileURLWithPath: "car.nlumodel.checkpoint"))
///     let result = try tuner.train(dataset, saving: checkpoint, resume: true)
public struct IntentFineTuningCheckpoint: Sendable {
    /// The checkpoint's folder.
    public let folder: URL

    /// The mark `checkpoint.json` carries: a folder with it may be replaced by the next checkpoint.
    static let format = "nlukit-intent-fine-tuning-checkpoint"
    static let stateFileName = "state.safetensors"
    static let descriptionFileName = "checkpoint.json"

    public init(folder: URL) {
        self.folder = folder
    }

    /// `checkpoint.json`.
    struct Description: Codable, Equatable {
        var format: String
        /// Epochs done.
        var epoch: Int
        var optimizerSteps: Int
        var microBatches: Int
        /// The checkpoint fine-tuned from, as given, and a fingerprint of its configuration and weights.
        var model: String
        var modelFingerprint: String
        /// A fingerprint of the intents' names and utterances, in order.
        var datasetFingerprint: String
        /// The softmax head's run settings (the joint model's too); absent for a few-shot run.
        var options: IntentFineTuningOptions?
        var intents: [String]
        /// The joint intent + slot model's settings and tag names; absent for the intent model.
        var joint: JointIntentSlotOptions?
        var tags: [String]?
        /// A few-shot run's settings; its epochs are those of the contrastive stage.
        var fewShot: SetFitOptions?
        /// With ``IntentFineTuningOptions/keepBest``: the best epoch so far and its score, and a
        /// fingerprint of the validation utterances that scored it (a resumed run must score the same).
        var best: BestEpochKeeper.Best?
        var validationFingerprint: String?
    }

    /// What a resumed run continues from.
    struct Saved {
        var description: Description
        /// The intent head (`classifier.*`, or the joint model's `intent_classifier.*`); nil for a
        /// few-shot run, which fits its head after the encoder's epochs.
        var head: Linear?
        /// Every head tensor by name.
        var heads: [String: Tensor<Float>]
        var optimizerState: AdamOptimizer.State
        var encoderFolder: URL
        /// The best epoch's weights by parameter name, when it is earlier than the checkpoint's epoch.
        var bestWeights: [String: Tensor<Float>] = [:]
    }

    /// Refuses a folder that exists and is not a checkpoint this type wrote (it would be replaced).
    func checkReplaceable() throws {
        guard ExistingPath(folder) != .nothing else { return }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        if entries.isEmpty, ExistingPath(folder) == .directory { return }
        guard (try? readDescription()) != nil else {
            throw ModelPackageError.destinationInUse(package: folder, holds: "something that is not an nlu fine-tuning checkpoint",
                                                     remedy: "move it away; nlu keeps its checkpoint there")
        }
    }

    func readDescription() throws -> Description {
        let url = folder.appendingPathComponent(Self.descriptionFileName)
        let data: Data
        do { data = try InputFile.readModelFile(url) } catch let error as InputReadError where error.isMissing {
            throw ModelPackageError.missingFile(package: folder, file: Self.descriptionFileName)
        }
        let description = try JSONFile.decode(Description.self, from: data, file: url.path)
        guard description.format == Self.format else {
            throw ModelPackageError.invalidManifest(package: folder, field: "format", reason: "'\(description.format)' is not '\(Self.format)'")
        }
        return description
    }

    /// Reads the checkpoint and checks that it belongs to this run: same model, dataset and options
    /// (`options` for the softmax and joint heads, `fewShot` for a few-shot run).
    /// - Throws: ``TrainingSettingError`` (setting `resume`) naming what differs; the files' errors.
    func read(model: String, modelFingerprint: String, datasetFingerprint: String, options: IntentFineTuningOptions?,
              joint: JointIntentSlotOptions? = nil, fewShot: SetFitOptions? = nil, validationFingerprint: String? = nil) throws -> Saved {
        guard ExistingPath(folder) == .directory else {
            throw TrainingSettingError(setting: "resume", value: "\(folder.path), which does not exist",
                                       requirement: "the checkpoint an interrupted run with the same output left (start without --resume)")
        }
        let description = try readDescription()
        func refuse(_ value: String, _ requirement: String) -> TrainingSettingError {
            TrainingSettingError(setting: "resume", value: "\(folder.path): \(value)", requirement: requirement)
        }
        guard description.modelFingerprint == modelFingerprint else {
            throw refuse("a checkpoint of the model \(description.model)", "a checkpoint of \(model) (start again without --resume, or fine-tune \(description.model))")
        }
        guard description.datasetFingerprint == datasetFingerprint else {
            throw refuse("a checkpoint of another dataset (other intents or utterances)", "a checkpoint of this dataset (start again without --resume)")
        }
        let savedKind = Self.runKind(joint: description.joint, fewShot: description.fewShot)
        guard savedKind == Self.runKind(joint: joint, fewShot: fewShot) else {
            throw refuse("a checkpoint of \(savedKind)", "a checkpoint of \(Self.runKind(joint: joint, fewShot: fewShot)) (start again without --resume)")
        }
        guard description.options == options, description.joint == joint, description.fewShot == fewShot else {
            let differences = SettingDifferences.between(saved: description.options, current: options, path: "options")
                + SettingDifferences.between(saved: description.joint, current: joint, path: "joint")
                + SettingDifferences.between(saved: description.fewShot, current: fewShot, path: "fewShot")
            throw refuse("a checkpoint of other settings (\(differences.joined(separator: "; ")))",
                         "the settings of the run it continues (give them again, or start without --resume)")
        }
        guard description.validationFingerprint == validationFingerprint else {
            throw refuse("a checkpoint whose best epoch other validation utterances chose",
                         "the validation file of the run it continues (give it again, or start without --resume)")
        }
        let weights = try SafeTensors(contentsOf: folder.appendingPathComponent(Self.stateFileName))
        var heads: [String: Tensor<Float>] = [:], best: [String: Tensor<Float>] = [:]
        for name in weights.names where !name.hasPrefix("adam.") {
            if name.hasPrefix(Self.bestPrefix) {
                best[String(name.dropFirst(Self.bestPrefix.count))] = try weights.finiteFloatTensor(name)
            } else {
                heads[name] = try weights.finiteFloatTensor(name)
            }
        }
        var head: Linear?
        if fewShot == nil {
            let intent = joint == nil ? "classifier" : "intent_classifier"
            guard let weight = heads[intent + ".weight"], let bias = heads[intent + ".bias"] else {
                throw ModelPackageError.invalidManifest(package: folder, field: Self.stateFileName, reason: "the tensors \(intent).weight and \(intent).bias are missing")
            }
            head = try Linear(weight: weight, bias: bias)
        }
        var first: [Tensor<Float>] = [], second: [Tensor<Float>] = []
        var index = 0
        while weights.info("adam.m.\(index)") != nil {
            first.append(try weights.finiteFloatTensor("adam.m.\(index)"))
            second.append(try weights.finiteFloatTensor("adam.v.\(index)"))
            index += 1
        }
        return Saved(description: description, head: head, heads: heads,
                     optimizerState: AdamOptimizer.State(step: description.optimizerSteps, firstMoments: first, secondMoments: second),
                     encoderFolder: folder.appendingPathComponent("encoder"), bestWeights: best)
    }

    /// The prefix of the best epoch's tensors in `state.safetensors`.
    static let bestPrefix = "best."

    /// The keeper of a run's best epoch by `metric` (nil without one) with early-stopping `patience`,
    /// continuing `saved`'s when resuming: the checkpoint's epoch is the best, or its `best.*` tensors hold the best.
    /// - Throws: ``TrainingSettingError`` (setting `keepBest`) without validation utterances, or for a slot
    ///   metric of a run without slots; (setting `resume`) for a checkpoint without the best epoch's tensors.
    static func keeper(metric: FineTuningMetric?, patience: Int?, validating: Bool, slots: Bool, saved: Saved?,
                       trainer: some TrainedWeights) throws -> BestEpochKeeper? {
        guard let metric else { return nil }
        guard validating else {
            throw TrainingSettingError(setting: "keepBest", value: metric.rawValue, requirement: "validation utterances to score each epoch")
        }
        guard slots || !metric.needsSlots else {
            throw TrainingSettingError(setting: "keepBest", value: metric.rawValue,
                                       requirement: "a score of the intent model (accuracy or loss); slot scores need the joint model")
        }
        guard let saved, let best = saved.description.best else {
            return BestEpochKeeper(greaterIsBetter: metric.greaterIsBetter, patience: patience)
        }
        var weights = trainer.weights
        if best.epoch != saved.description.epoch {
            weights = try trainer.weightNames.map { name in
                guard let tensor = saved.bestWeights[name] else {
                    throw TrainingSettingError(setting: "resume", value: "a checkpoint without \(Self.bestPrefix)\(name), the best epoch's",
                                               requirement: "a checkpoint this run wrote (start again without --resume)")
                }
                return tensor
            }
        }
        return BestEpochKeeper(greaterIsBetter: metric.greaterIsBetter, patience: patience, best: best, weights: weights)
    }

    /// The best epoch's tensors by parameter name, when it is an earlier one than `end`'s (the checkpoint's
    /// own weights are otherwise the best); empty otherwise.
    static func bestWeights(_ end: FineTuningLoop.EpochEnd, trainer: some TrainedWeights) -> [String: Tensor<Float>] {
        guard let weights = end.earlierBestWeights else { return [:] }
        return Dictionary(uniqueKeysWithValues: zip(trainer.weightNames, weights))
    }

    /// What a run trains, in words: a resumed run must train the same.
    private static func runKind(joint: JointIntentSlotOptions?, fewShot: SetFitOptions?) -> String {
        joint != nil ? "a joint intent + slot run" : fewShot != nil ? "a few-shot run" : "an intent run"
    }

    /// Writes the trainer's state after `description.epoch` epochs, replacing the previous checkpoint.
    func write(_ trainer: EncoderClassifierTrainer, description: Description, source: URL,
               bestWeights: [String: Tensor<Float>] = [:]) throws {
        let head = trainer.head.linear.tensors
        var heads = ["classifier.weight": head[0]]
        heads["classifier.bias"] = head.count > 1 ? head[1] : nil
        try write(encoder: trainer.encoder, heads: heads, optimizerState: trainer.optimizerState, description: description, source: source,
                  bestWeights: bestWeights)
    }

    /// Writes a run's state after `description.epoch` epochs: `encoder`, the `heads` by name and the
    /// optimizer's state (and the best epoch's weights by parameter name, when it is an earlier one),
    /// replacing the previous checkpoint.
    func write(encoder: TrainableEncoder, heads: [String: Tensor<Float>], optimizerState state: AdamOptimizer.State,
               description: Description, source: URL, bestWeights: [String: Tensor<Float>] = [:]) throws {
        try checkReplaceable()
        try ModelPackage.writeFolder(to: folder) { temporary in
            try encoder.save(to: temporary.appendingPathComponent("encoder"), source: source)
            var tensors = heads
            for (index, (m, v)) in zip(state.firstMoments, state.secondMoments).enumerated() {
                tensors["adam.m.\(index)"] = m
                tensors["adam.v.\(index)"] = v
            }
            for (name, tensor) in bestWeights { tensors[Self.bestPrefix + name] = tensor }
            try SafeTensors.write(tensors, metadata: ["format": Self.format], to: temporary.appendingPathComponent(Self.stateFileName))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let data = try encoder.encode(description)
            try AtomicFile.write(to: temporary.appendingPathComponent(Self.descriptionFileName)) { try $0.write(data) }
        }
    }

    /// Removes the checkpoint once the run's model is saved (only a folder this type wrote).
    public func remove() {
        guard (try? readDescription()) != nil else { return }
        try? FileManager.default.removeItem(at: folder)
    }

    /// FNV-1a over `parts`, each ended by a separator no text holds, as 16 hex digits.
    static func fingerprint(_ parts: [String]) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in parts {
            for byte in part.utf8 + [0xFF] {
                hash ^= UInt64(byte)
                hash = hash &* 0x0000_0100_0000_01B3
            }
        }
        return String(format: "%016llx", hash)
    }

    /// The dataset's intents and utterances, in order; with `entities`, each utterance's entity annotations too.
    static func fingerprint(of dataset: IntentDataset, entities: Bool = false) -> String {
        fingerprint(dataset.intents.flatMap { intent in
            [intent.name] + intent.utterances.map { utterance in
                entities ? utterance.text + utterance.entities.map { "\u{1}\($0.start) \($0.end) \($0.entity) \($0.role ?? "") \($0.group ?? "")" }.joined()
                         : utterance.text
            }
        })
    }

    /// The epochs' loop of an intent or joint run: from the epoch after `saved`'s, keeping the best epoch by
    /// ``IntentFineTuningOptions/keepBest`` as ``keeper(metric:patience:validating:slots:saved:trainer:)`` says.
    static func loop(_ options: IntentFineTuningOptions, validating: Bool, slots: Bool, saved: Saved?,
                     trainer: some FineTuningTrainer) throws -> FineTuningLoop {
        FineTuningLoop(trainer: trainer, epochs: options.epochs, firstEpoch: (saved?.description.epoch ?? 0) + 1,
                       totalSteps: trainer.schedule.trainingSteps,
                       keeper: try keeper(metric: options.keepBest, patience: options.earlyStoppingPatience, validating: validating, slots: slots,
                                          saved: saved, trainer: trainer))
    }

    /// Epoch `epoch`'s batches of sequences of `lengths` (``LengthGroupedBatches``), with `encoder`'s dropout
    /// reseeded: both drawn from ``epochSeed(_:epoch:)``.
    static func epochBatches(_ epoch: Int, lengths: [Int], options: IntentFineTuningOptions, encoder: TrainableEncoder) -> [ArraySlice<Int>] {
        let seed = epochSeed(options.seed, epoch: epoch)
        var order = SplitMix64(seed: seed)
        encoder.reseedDropout(seed &+ 1)
        return LengthGroupedBatches(lengths: lengths, batchSize: options.batchSize, using: &order).batches
    }

    /// The seed of epoch `epoch`'s batch order and dropout: a run resumed at an epoch draws what the
    /// uninterrupted run draws there.
    static func epochSeed(_ seed: UInt64, epoch: Int) -> UInt64 {
        seed &+ UInt64(epoch) &* 0x9E37_79B9_7F4A_7C15
    }

    /// The checkpoint folder's `config.json` and the size of its weights: another model, or the same
    /// model's weights changed, gives another fingerprint.
    static func fingerprint(ofModel checkpoint: URL) -> String {
        let config = (try? InputFile.readModelFile(checkpoint.appendingPathComponent("config.json"))).map { String(decoding: $0, as: UTF8.self) } ?? ""
        var weights: [String] = []
        for name in ["model.safetensors", "pytorch_model.bin"] {
            let path = checkpoint.appendingPathComponent(name).path
            if let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int {
                let head = FileHandle(forReadingAtPath: path).flatMap { try? $0.read(upToCount: 1 << 16) } ?? Data()
                weights.append("\(name):\(size):" + head.base64EncodedString())
            }
        }
        return fingerprint([config] + weights)
    }
}
