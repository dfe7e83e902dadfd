import NLUCore
import NLUInputOutput

/// The floats a model's load decodes from FP16 and quantized weights, counted over the whole model
/// (every layer of every pipeline stage) before each allocation: a 1-bit weight takes 32 times its
/// bytes in the file once decoded, so a model file of a few hundred MB could ask for more memory than
/// the machine has. FP32 weights are used as the file's parser holds them and cost nothing here.
/// One per load; layers are compiled one after another, so it needs no lock.
final class WeightBudget: @unchecked Sendable {
    /// The most bytes the decoded weights may take: by default half of this machine's memory, the
    /// budget of every size read from a file (``InputLimits/checkMemory(elements:bytesPerElement:what:)``).
    let limitBytes: Int
    private(set) var decodedFloats = 0

    init(limitBytes: Int = InputLimits.physicalMemory / 2) {
        self.limitBytes = limitBytes
    }

    /// Counts `count` more decoded floats for `field` of layer `layer`.
    /// - Throws: ``CoreMLError/invalidLayer(name:kind:reason:)`` naming the field and both sizes when the
    ///   model's decoded weights would pass the limit.
    func reserve(_ count: Int, field: String, layer: String, kind: String) throws {
        let total = decodedFloats.addingReportingOverflow(count)
        let bytes = total.overflow ? nil : InputLimits.product([total.partialValue, MemoryLayout<Float>.size])
        guard let bytes, bytes <= limitBytes else {
            func shown(_ bytes: Int) -> String { bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes) bytes" }
            let size = bytes.map(shown) ?? "more than \(Int.max >> 20) MiB"
            let limit = limitBytes == InputLimits.physicalMemory / 2 ? " (half of this machine's memory)" : ""
            throw CoreMLError.invalidLayer(name: layer, kind: kind, reason:
                "\(field): \(count) values decoded from FP16 or quantized codes bring the model's decoded weights to \(size), "
                    + "over \(shown(limitBytes))\(limit); expected a model that fits in memory")
        }
        decodedFloats = total.partialValue
    }
}
