import Foundation
import NLUCore

/// The tensors of a Hugging Face `model.safetensors`, looked up by the model's own names: tries the
/// encoder family's model prefixes (`bert.`, then none) and the legacy `LayerNorm.gamma/beta` names in
/// one place, checks shapes, and remembers what was used so loading can reject unused tensors.
///
/// The encoder reads through a view made for its family; a task reads its head through ``root``, the
/// same file by the names as stored, so the names of the tasks' heads stay in the tasks' modules.
///
///     let tensors = CheckpointTensors(file: weights, family: BertFamily.self)
///     let table = try tensors.tensor("embeddings.word_embeddings.weight", shape: [30522, 768])
///     let head = try tensors.root.tensor("qa_outputs.weight", shape: [2, 768])
///     try tensors.verifyAllUsed()
package final class CheckpointTensors {
    package let file: SafeTensors
    /// The prefixes tried, in order, before every name.
    package let prefixes: [String]
    /// What the views of one file have read, and what they may leave unread.
    private let usage: Usage

    private final class Usage {
        var usedNames: Set<String> = []
        /// The storage of every tensor handed out as a view of the file's mapping, until ``CheckpointTensors/releaseResidentPages()``.
        var storages: [TensorStorage<Float>] = []
        /// Starts of stored names loading may leave unread (an encoder family's pooler, pretraining heads).
        let unreadPrefixes: [String]
        init(unreadPrefixes: [String]) { self.unreadPrefixes = unreadPrefixes }
    }

    /// Tensors a checkpoint may carry that inference does not need, in every family: the position-id
    /// buffers `transformers` saves beside the position embeddings.
    static let ignorableSuffixes = ["position_ids"]

    /// The encoder of `family` in `file`: names are tried under the family's model prefixes, and the
    /// tensors its ``EncoderTensorNames/unread`` names may stay unread.
    package convenience init(file: SafeTensors, family: any EncoderFamily.Type) {
        self.init(file: file, prefixes: family.tensorNames.modelPrefixes,
                  usage: Usage(unreadPrefixes: family.tensorNames.unread))
    }

    /// Every tensor of `file` by its stored name (a sentence-transformers Dense layer's `linear`).
    package convenience init(file: SafeTensors) {
        self.init(file: file, prefixes: [""], usage: Usage(unreadPrefixes: []))
    }

    private init(file: SafeTensors, prefixes: [String], usage: Usage) {
        self.file = file
        self.prefixes = prefixes
        self.usage = usage
    }

    /// The same file and record of use, by the names as stored: where a task model keeps its head
    /// (`qa_outputs`), outside the encoder's prefix.
    package var root: CheckpointTensors { CheckpointTensors(file: file, prefixes: [""], usage: usage) }

    private var fileName: String { file.url.path }

    /// The stored name of the model tensor `name`, trying each prefix and then `gamma`/`beta` for
    /// layer-norm `weight`/`bias`.
    func storedName(_ name: String) -> String? {
        var candidates = prefixes.map { $0 + name }
        for suffix in [(".weight", ".gamma"), (".bias", ".beta")] where name.hasSuffix(suffix.0) {
            let legacy = String(name.dropLast(suffix.0.count)) + suffix.1
            candidates += prefixes.map { $0 + legacy }
        }
        return candidates.first { file.info($0) != nil }
    }

    /// The tensor `name` as Float (converted from F16/BF16 if needed), checked to have `shape` and
    /// only finite values (one NaN weight made every embedding and answer score NaN).
    package func tensor(_ name: String, shape: [Int]) throws -> Tensor<Float> {
        guard let stored = storedName(name), let info = file.info(stored) else {
            // Named as a task model would spell it (the first prefix).
            throw CheckpointError.missingTensor(name: (prefixes.first ?? "") + name, file: fileName)
        }
        guard info.shape == shape else {
            throw CheckpointError.wrongShape(name: stored, expected: shape, actual: info.shape, file: fileName)
        }
        usage.usedNames.insert(stored)
        let tensor = try file.finiteFloatTensor(stored)
        // Only views of the mapping: a tensor converted from F16 or BF16 is memory of its own, freed as
        // soon as the loader is done with it (kept here, it would raise the loading peak).
        if !tensor.storage.isWritable { usage.storages.append(tensor.storage) }
        return tensor
    }

    /// Drops from resident memory the checkpoint's pages of every tensor handed out (by any view of the
    /// file), once the model is built. Loading read them all (the finite-values check); the dense layers
    /// are packed copies now, and of what is used in place a pass reads only part (an embedding table's
    /// rows of its tokens): those pages come back from the file as they are read, the rest stays out.
    package func releaseResidentPages() {
        for storage in usage.storages { storage.releaseResidentPages() }
        usage.storages = []
    }

    /// Throws naming the tensors that no view of the file asked for (other than the ones the family
    /// leaves unread and position ids).
    package func verifyAllUsed() throws {
        let unused = file.names.filter { name in
            !usage.usedNames.contains(name)
                && !Self.ignorableSuffixes.contains(where: { name.hasSuffix($0) })
                && !usage.unreadPrefixes.contains(where: { name.hasPrefix($0) })
        }
        if !unused.isEmpty { throw CheckpointError.unusedTensors(names: unused, file: fileName) }
    }
}
