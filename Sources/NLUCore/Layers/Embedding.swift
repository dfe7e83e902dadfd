import Foundation

/// A lookup table from token ids to vectors (`nn.Embedding`): `table` is `[vocabulary, dimension]`.
///
///     let words = try Embedding(table: try weights.floatTensor("bert.embeddings.word_embeddings.weight"))
///     let vectors = try words(Tensor<Int32>(shape: [1, 3], scalars: [101, 7592, 102]))   // [1, 3, 768]
public struct Embedding: Sendable {
    /// `[vocabularySize, dimension]`.
    public private(set) var table: Tensor<Float>

    public var vocabularySize: Int { table.shape[0] }
    public var dimension: Int { table.shape[1] }

    /// A layer over an existing table.
    /// - Throws: ``LayerWeightsError`` when `table` is not rank 2.
    public init(table: Tensor<Float>) throws {
        guard table.rank == 2 else {
            throw LayerWeightsError.wrongShape("Embedding table", expected: "[vocabulary, dimension]", actual: table.shape)
        }
        self.table = table
    }

    /// A fresh table, initialized as PyTorch does: standard normal values.
    public init(vocabularySize: Int, dimension: Int, using generator: inout SplitMix64) {
        var scalars = [Float]()
        scalars.reserveCapacity(vocabularySize * dimension)
        while scalars.count < vocabularySize * dimension {
            // Box-Muller: two uniforms give two independent standard normals.
            let u1 = Float.random(in: Float.leastNormalMagnitude..<1, using: &generator)
            let u2 = Float.random(in: 0..<1, using: &generator)
            let radius = (-2 * Foundation.log(u1)).squareRoot()
            scalars.append(radius * Foundation.cos(2 * .pi * u2))
            scalars.append(radius * Foundation.sin(2 * .pi * u2))
        }
        table = Tensor(shape: [vocabularySize, dimension], scalars: Array(scalars.prefix(vocabularySize * dimension)))
    }

    /// The vectors of `ids` (any shape): shape `ids.shape + [dimension]`.
    /// - Throws: ``ModelError/invalidFeatureValue(_:reason:)`` for an id outside the vocabulary.
    public func callAsFunction(_ ids: Tensor<Int32>) throws -> Tensor<Float> {
        let vocabularySize = vocabularySize
        if let position = ids.withUnsafeBufferPointer({ $0.firstIndex { $0 < 0 || Int($0) >= vocabularySize } }) {
            throw ModelError.invalidFeatureValue("ids", reason: "id \(ids.scalars[position]) at position \(position) is outside the vocabulary 0..<\(vocabularySize)")
        }
        return Kernels.embedding(table, ids: ids)
    }
}
