import Foundation
import NLUCore
import NLUTransformers
import NLUInputOutput

/// What ``SentenceEncoderFineTuner`` keeps beside a checkpoint's model files so a run can continue
/// (`--resume`): the run's settings, what it trained from (the model and the pairs, by fingerprint),
/// how far it got, and AdamW's moments. Written in the checkpoint folder as
/// `nlu_training_state.json` and `nlu_optimizer.safetensors`; the finished model has neither.
struct SentenceFineTuningCheckpoint: Codable, Equatable {
    static let stateFileName = "nlu_training_state.json"
    static let optimizerFileName = "nlu_optimizer.safetensors"
    /// The best epoch's weights, with ``SentenceFineTuningOptions/keepBest`` when it is not the checkpoint's epoch.
    static let bestFileName = "nlu_best_epoch.safetensors"
    static let format = "nlukit-sentence-fine-tuning"

    var format = Self.format
    /// The model trained from, as given, and the fingerprint of its configuration and weights.
    var model: String
    var modelFingerprint: String
    /// The pairs file's examples: how many, and the fingerprint of their texts and scores.
    var examples: Int
    var pairsFingerprint: String
    /// The settings that shape the run; a resumed run must repeat them.
    var settings: Settings
    var epochsCompleted: Int
    var optimizerSteps: Int
    var trainingSteps: Int
    /// With ``SentenceFineTuningOptions/keepBest``: the best epoch so far and its score, and a fingerprint of
    /// the validation pairs that scored it (a resumed run must score the same).
    var best: BestEpochKeeper.Best?
    var validationFingerprint: String?

    struct Settings: Codable, Equatable {
        var loss: String
        var scale: Float?
        var epochs: Int
        var batchSize: Int
        var learningRate: Float
        var warmupRatio: Double
        var weightDecay: Float
        var maxGradientNorm: Float
        var seed: UInt64
        var maxSequenceLength: Int
        var dropout: Float
        var keepBest: SentenceFineTuningMetric?
        var earlyStoppingPatience: Int?
    }

    /// Reads the state in `folder`, or nil when it holds none.
    /// - Throws: ``SentenceFineTuningError`` for a state file that cannot be read or is not ours.
    static func read(in folder: URL) throws -> SentenceFineTuningCheckpoint? {
        let url = folder.appendingPathComponent(stateFileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let data = try InputFile.read(url, name: url.path)
        let state = try JSONFile.decode(SentenceFineTuningCheckpoint.self, from: data, file: url.path)
        guard state.format == format else {
            throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(stateFileName) is not an nlu fine-tuning state (format \"\(state.format)\")")
        }
        guard (0...state.settings.epochs).contains(state.epochsCompleted), (0...state.trainingSteps).contains(state.optimizerSteps) else {
            throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(stateFileName) counts \(state.epochsCompleted) epochs and \(state.optimizerSteps) steps, outside its run")
        }
        return state
    }

    /// Writes the optimizer's moments (and the best epoch's weights by parameter name, when it is an earlier
    /// one), then the state (last, so a state file always has its moments).
    func write(in folder: URL, optimizer: AdamOptimizer.State, parameterNames: [String], bestWeights: [Tensor<Float>]? = nil) throws {
        if let bestWeights {
            try SafeTensors.write(Dictionary(uniqueKeysWithValues: zip(parameterNames, bestWeights)),
                                  metadata: ["epoch": "\(best?.epoch ?? 0)", "written_by": "NLUKit fine-tuning"],
                                  to: folder.appendingPathComponent(Self.bestFileName))
        }
        var tensors: [String: Tensor<Float>] = [:]
        for (index, name) in parameterNames.enumerated() where index < optimizer.firstMoments.count {
            tensors["m." + name] = optimizer.firstMoments[index]
            tensors["v." + name] = optimizer.secondMoments[index]
        }
        try SafeTensors.write(tensors, metadata: ["step": "\(optimizer.step)", "written_by": "NLUKit fine-tuning"],
                              to: folder.appendingPathComponent(Self.optimizerFileName))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try AtomicFile.write(to: folder.appendingPathComponent(Self.stateFileName)) { try $0.write(encoder.encode(self)) }
    }

    /// AdamW's moments from `folder`, one per parameter of `parameters`, checked against their shapes.
    static func readOptimizer(in folder: URL, parameters: EncoderParameters) throws -> AdamOptimizer.State {
        let file = try open(optimizerFileName, in: folder)
        guard let step = file.metadata["step"].flatMap(Int.init), step >= 0 else {
            throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(optimizerFileName) has no step count")
        }
        var first: [Tensor<Float>] = [], second: [Tensor<Float>] = []
        for (name, shape) in zip(parameters.names, parameters.shapes) {
            for (prefix, list) in [("m.", 0), ("v.", 1)] {
                guard file.info(prefix + name) != nil, let tensor = try? file.floatTensor(prefix + name), tensor.shape == shape else {
                    throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(optimizerFileName) lacks \(prefix + name) of shape \(shape)")
                }
                let owned = Tensor(shape: shape, scalars: tensor.scalars)
                if list == 0 { first.append(owned) } else { second.append(owned) }
            }
        }
        return AdamOptimizer.State(step: step, firstMoments: first, secondMoments: second)
    }

    /// The best epoch's weights in `folder`, one per parameter of `parameters`, checked against their shapes.
    static func readBestWeights(in folder: URL, parameters: EncoderParameters) throws -> [Tensor<Float>] {
        let file = try open(bestFileName, in: folder)
        return try zip(parameters.names, parameters.shapes).map { name, shape in
            guard file.info(name) != nil, let tensor = try? file.finiteFloatTensor(name), tensor.shape == shape else {
                throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(bestFileName) lacks \(name) of shape \(shape)")
            }
            return Tensor(shape: shape, scalars: tensor.scalars)
        }
    }

    /// The state's tensor file `name` in `folder`; an unreadable one means the run cannot resume.
    private static func open(_ name: String, in folder: URL) throws -> SafeTensors {
        do {
            return try SafeTensors(contentsOf: folder.appendingPathComponent(name))
        } catch {
            throw SentenceFineTuningError.cannotResume(folder: folder.path, reason: "\(name): \((error as? LocalizedError)?.errorDescription ?? "\(error)")")
        }
    }

    /// Removes the state files from a finished model.
    static func remove(in folder: URL) {
        for name in [stateFileName, optimizerFileName, bestFileName] { try? FileManager.default.removeItem(at: folder.appendingPathComponent(name)) }
    }
}

/// FNV-1a, 64 bits: a fingerprint of what a run trained from, stable across processes.
struct TrainingFingerprint {
    private(set) var hash: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func mix<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
    }

    mutating func mix(_ text: String) {
        // Length first: "ab" + "c" and "a" + "bc" differ.
        mix("\(text.utf8.count):".utf8)
        mix(text.utf8)
    }

    var hex: String { String(format: "%016llx", hash) }
}

/// A fine-tuning run that cannot start or continue, with what to do.
public enum SentenceFineTuningError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// `--resume` found no checkpoint it may continue in `folder`.
    case cannotResume(folder: String, reason: String)
    /// The model has a module training does not support (named).
    case unsupportedModule(model: String, module: String)
    /// The pairs cannot train with this loss.
    case unusablePairs(reason: String)

    public var description: String {
        switch self {
        case let .cannotResume(folder, reason): "cannot resume from \(folder): \(reason)"
        case let .unsupportedModule(model, module):
            "\(model): fine-tuning does not support its \(module) module yet (models of Transformer, Pooling and Normalize modules train)"
        case let .unusablePairs(reason): reason
        }
    }
    public var errorDescription: String? { description }
}
