import Foundation
import NLUCore
import NLUInputOutput

/// The head of a transformers task model saved with its fine-tuned encoder (``TrainableEncoder/save(to:source:head:)``):
/// the suffix of its class name (`ForQuestionAnswering`: `BertForQuestionAnswering`, `DistilBertForQuestionAnswering`,
/// ...) and its tensors, stored at the root of `model.safetensors` under their transformers names (`qa_outputs.weight`).
///
///     let head = TaskModelHead(classSuffix: "ForQuestionAnswering",
///                              tensors: ["qa_outputs.weight": weight, "qa_outputs.bias": bias])
public struct TaskModelHead: Sendable {
    /// Appended to the family's class prefix in `config.json`'s `architectures`.
    public var classSuffix: String
    /// The head's tensors by their transformers names.
    public var tensors: [String: Tensor<Float>]

    /// A head from its class-name suffix and tensors.
    public init(classSuffix: String, tensors: [String: Tensor<Float>]) {
        self.classSuffix = classSuffix
        self.tensors = tensors
    }
}

extension TrainableEncoder {
    /// Files of a task checkpoint copied from the source as they are: the tokenizer's. `config.json` is
    /// rewritten; sentence-transformers' files are left out (a task model is not a sentence encoder).
    static let copiedTokenizerFiles = copiedCheckpointFiles.filter { $0 != "config.json" && $0 != "sentence_bert_config.json" }

    /// Writes the fine-tuned encoder with a task head as a transformers task model folder
    /// (`AutoModelForQuestionAnswering` and the pipeline load it, and so does every NLUKit `--model` of that
    /// task): `model.safetensors` with the encoder's weights under the source checkpoint's names, given the
    /// task model's prefix (`bert.`, `distilbert.`, ...) where the source is a bare encoder, and the head's
    /// tensors at the root; `config.json` from the source with `architectures` naming the task class
    /// (`BertForQuestionAnswering`); the tokenizer files. The pooler and any head of the source are not
    /// written: the task model has none. `source` may be a checkpoint or a sentence-transformers folder,
    /// whose encoder folder is used.
    ///
    /// Written beside `destination` and swapped in at the end, with the rules of ``save(to:source:)``.
    ///
    ///     try encoder.save(to: URL(fileURLWithPath: "minilm-squad"), source: base,
    ///                      head: TaskModelHead(classSuffix: "ForQuestionAnswering", tensors: headTensors))
    /// - Throws: as ``save(to:source:)``.
    public func save(to destination: URL, source: URL, head: TaskModelHead) throws {
        let destination = try Self.checkReplaceable(destination, source: source)
        let sourceCheckpoint = try Self.checkpointDirectory(ofModel: source)
        let weights = try CheckpointDirectory(sourceCheckpoint).weights()
        let family = configuration.architecture.family
        let prefix = family.tensorNames.modelPrefixes.first ?? ""
        let lookup = CheckpointTensors(file: weights, family: family)
        var tensors = head.tensors
        for (index, name) in parameters.names.enumerated() {
            let stored = lookup.storedName(name) ?? name
            tensors[stored.hasPrefix(prefix) ? stored : prefix + stored] = parameters.values[index]
        }
        let config = try Self.taskConfiguration(of: sourceCheckpoint, classSuffix: head.classSuffix,
                                                classPrefixes: family.architectureClassPrefixes)

        try ModelPackage.writeFolder(to: destination) { folder in
            try SafeTensors.write(tensors, metadata: Self.savedCheckpointMetadata, to: folder.appendingPathComponent("model.safetensors"))
            try config.write(to: folder.appendingPathComponent("config.json"))
            for name in Self.copiedTokenizerFiles {
                try Self.copyIfPresent(sourceCheckpoint.appendingPathComponent(name), to: folder.appendingPathComponent(name))
            }
        }
    }

    /// Checks before training that ``save(to:source:head:)`` (and ``save(to:source:)``) may write to
    /// `destination`: nothing there, an empty folder or a folder an earlier save wrote, and not `source`.
    ///
    ///     try TrainableEncoder.checkSaveDestination(URL(fileURLWithPath: "minilm-squad"), source: base)
    /// - Throws: ``ModelPackageError/destinationInUse(package:holds:remedy:)`` or ``OutputPath/Error``, as the save would.
    public static func checkSaveDestination(_ destination: URL, source: URL) throws {
        _ = try checkReplaceable(destination, source: source)
    }

    /// The source's `config.json` with `architectures` set to the task class: the family's class prefix the
    /// source's own class starts with (`XLMRoberta` for `XLMRobertaModel`), else the family's first, then
    /// `classSuffix`.
    static func taskConfiguration(of checkpoint: URL, classSuffix: String, classPrefixes: [String]) throws -> Data {
        let url = checkpoint.appendingPathComponent("config.json")
        let data = try CheckpointDirectory.readFile(url, expected: "the model configuration (config.json)")
        guard var fields = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw CheckpointError.unreadableFile(path: url.path, reason: "not a JSON object")
        }
        let current = (fields["architectures"] as? [String])?.first ?? ""
        let prefix = classPrefixes.sorted { $0.count > $1.count }.first(where: current.hasPrefix) ?? classPrefixes.first ?? ""
        fields["architectures"] = [prefix + classSuffix]
        return try JSONSerialization.data(withJSONObject: fields, options: [.prettyPrinted, .sortedKeys])
    }
}
