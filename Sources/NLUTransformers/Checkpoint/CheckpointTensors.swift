import Foundation
import NLUCore

/// The tensors of a Hugging Face `model.safetensors`, looked up by the model's own names:
/// resolves the `bert.` / `distilbert.` prefix and the legacy `LayerNorm.gamma/beta` names in one
/// place, checks shapes, and remembers what was used so loading can reject unused tensors.
///
///     let tensors = try CheckpointTensors(file: url, prefix: "bert.")
///     let table = try tensors.tensor("embeddings.word_embeddings.weight", shape: [30522, 768])
///     try tensors.verifyAllUsed()
package final class CheckpointTensors {
    package let file: SafeTensors
    package let prefix: String
    private(set) var usedNames: Set<String> = []

    /// Tensors a checkpoint may carry that inference does not need.
    static let ignorableSuffixes = ["position_ids"]
    static let ignorablePrefixes = ["pooler.", "bert.pooler.", "cls.", "distilbert.pooler.", "mpnet.pooler.", "roberta.pooler.", "lm_head."]

    package init(file: SafeTensors, prefix: String) {
        self.file = file
        self.prefix = prefix
    }

    private var fileName: String { file.url.path }

    /// The stored name of the model tensor `name`, trying prefixed and unprefixed forms and
    /// `gamma`/`beta` for layer-norm `weight`/`bias`.
    func storedName(_ name: String) -> String? {
        var candidates = [prefix + name, name]
        for suffix in [(".weight", ".gamma"), (".bias", ".beta")] where name.hasSuffix(suffix.0) {
            let legacy = String(name.dropLast(suffix.0.count)) + suffix.1
            candidates += [prefix + legacy, legacy]
        }
        return candidates.first { file.info($0) != nil }
    }

    /// The tensor `name` as Float (converted from F16/BF16 if needed), checked to have `shape` and
    /// only finite values (one NaN weight made every embedding and answer score NaN).
    package func tensor(_ name: String, shape: [Int]) throws -> Tensor<Float> {
        guard let stored = storedName(name), let info = file.info(stored) else {
            throw CheckpointError.missingTensor(name: prefixedName(name), file: fileName)
        }
        guard info.shape == shape else {
            throw CheckpointError.wrongShape(name: stored, expected: shape, actual: info.shape, file: fileName)
        }
        usedNames.insert(stored)
        return try file.finiteFloatTensor(stored)
    }

    /// The name as the checkpoint would spell it (for messages).
    private func prefixedName(_ name: String) -> String {
        name.hasPrefix("qa_outputs") ? name : prefix + name
    }

    /// Throws naming the tensors that were never asked for (other than pooler and position ids).
    package func verifyAllUsed() throws {
        let unused = file.names.filter { name in
            !usedNames.contains(name)
                && !Self.ignorableSuffixes.contains(where: { name.hasSuffix($0) })
                && !Self.ignorablePrefixes.contains(where: { name.hasPrefix($0) })
        }
        if !unused.isEmpty { throw CheckpointError.unusedTensors(names: unused, file: fileName) }
    }
}
