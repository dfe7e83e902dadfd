import Foundation
import NLUCore
import NLUInputOutput

/// How large the blobs of one prediction may grow: each layer's output at most ``valuesPerLayer`` values, and all
/// blobs of one prediction together (every one is kept to the end, as any later layer may read it) at most
/// ``totalBytes``. Both are checked on the shapes ``ShapeInference`` computes, at load from the declared inputs and
/// at prediction from the given ones, before any layer runs: a file of a few kilobytes whose layers multiply sizes
/// (a blob concatenated with itself, broadcast batch axes, a gather of many indices) is refused naming the layer
/// and the sizes, instead of allocating gigabytes (a concatenation to 2^28 values took 8 GB and 112 s).
struct BlobBudget: Sendable {
    /// The most values one layer may make: 2^26 (256 MiB of floats), 16 times BERT-large's attention scores over
    /// 512 tokens (2^22), the largest blob of any converted encoder we know.
    static let valuesPerLayer = Shapes.maximumCount
    /// The most bytes all blobs of one prediction may take: the limit of the model's decoded weights
    /// (``WeightBudget``), half of this machine's memory unless a load is given another.
    let totalBytes: Int
    /// Where ``totalBytes`` comes from, for messages.
    private let origin: String

    init(weights: WeightBudget) {
        totalBytes = weights.limitBytes
        origin = weights.limitBytes == InputLimits.physicalMemory / 2 ? "half of this machine's memory" : "the load's memory limit"
    }

    /// The shape each blob will have as far as it is known from `inputs` (blob name → shape), after checking each
    /// layer's outputs against the budget in file order.
    /// - Throws: `fail(layer, reason)` for the first layer whose output, or the blobs held with it, pass the budget.
    @discardableResult
    func plan(_ layers: [CompiledLayer], inputs: [String: PartialShape],
              fail: (CompiledLayer, String) -> CoreMLError) throws -> [String: PartialShape] {
        var shapes = inputs
        var held = inputs.values.reduce(0) { Self.adding($0, ShapeInference.lowerBound($1)) }
        // Whether some size held is only a lower bound (an open dimension, an unknown shape).
        var partial = inputs.values.contains { $0?.contains(nil) ?? true }
        for layer in layers {
            let inferred = layer.shapeRule(layer.inputs.map { shapes[$0] ?? nil })
            for (name, shape) in zip(layer.outputs, inferred.outputs) {
                let count = ShapeInference.lowerBound(shape)
                let atLeast = shape?.contains(nil) == true ? "at least " : ""
                if count > Self.valuesPerLayer {
                    throw fail(layer, (inferred.how.map { "\($0): " } ?? "") + "its output '\(name)' of shape \(ShapeInference.describe(shape)) "
                                    + "would hold \(atLeast)\(count == .max ? "more than \(Int.max)" : "\(count)") values, \(Self.perLayerLimit)")
                }
                held = Self.adding(held, count)
                held -= min(held, ShapeInference.lowerBound(shapes[name] ?? nil))
                shapes[name] = shape
                partial = partial || (shape?.contains(nil) ?? true)
                try checkTotal(values: held, atLeast: partial, making: name) { fail(layer, $0) }
            }
        }
        return shapes
    }

    /// Checks that `values` floats held at once fit ``totalBytes``.
    func checkTotal(values: Int, atLeast: Bool = false, making name: String, fail: (String) -> CoreMLError) throws {
        guard values > totalBytes / MemoryLayout<Float>.size else { return }
        let size = values > Int.max / 4 ? "more than \(Int.max >> 20) MiB" : Self.mebibytes(values * 4)
        throw fail("with its output '\(name)' the blobs of one prediction would hold \(atLeast ? "at least " : "")\(values) values "
                   + "(\(size)), over the \(Self.mebibytes(totalBytes)) they may take together (\(origin))")
    }

    /// `2.5 MiB`, `2 MiB`.
    private static func mebibytes(_ bytes: Int) -> String {
        let value = Double(bytes) / Double(1 << 20)
        return value == value.rounded() ? "\(Int(value)) MiB" : String(format: "%.1f MiB", value)
    }

    /// How the per-layer limit reads in messages.
    static let perLayerLimit = "over the \(valuesPerLayer) values (\((valuesPerLayer * 4) >> 20) MiB of floats) one layer may make"

    private static func adding(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }
}
