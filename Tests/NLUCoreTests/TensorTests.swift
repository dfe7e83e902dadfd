import Testing
@testable import NLUCore

@Suite struct TensorTests {
    @Test func rowMajorStridesAndElementAccess() {
        var tensor = Tensor<Float>(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6])
        #expect(tensor.strides == [3, 1])
        #expect(tensor[1, 2] == 6)
        tensor[0, 1] = 20
        #expect(tensor.scalars == [1, 20, 3, 4, 5, 6])
    }

    @Test func viewsShareStorageAndCopyOnWrite() {
        let tensor = Tensor<Float>(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6])
        var row = tensor[1]
        #expect(row.scalars == [4, 5, 6])
        #expect(row.storage === tensor.storage)
        row[0] = 40
        #expect(row.scalars == [40, 5, 6])
        #expect(tensor.scalars == [1, 2, 3, 4, 5, 6])
    }

    @Test func transposeIsAViewAndContiguousCopies() {
        let tensor = Tensor<Float>(shape: [2, 3], scalars: [1, 2, 3, 4, 5, 6])
        let transposed = tensor.transposed()
        #expect(transposed.shape == [3, 2])
        #expect(!transposed.isContiguous)
        #expect(transposed.scalars == [1, 4, 2, 5, 3, 6])
        #expect(transposed.reshaped([-1]).scalars == [1, 4, 2, 5, 3, 6])
    }
}
