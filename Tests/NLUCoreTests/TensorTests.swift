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

    @Test func permuteReordersAxesAsNumPyTransposeDoes() {
        // Expected: NumPy, np.arange(24).reshape(2, 3, 4).transpose(2, 0, 1).ravel().
        let tensor = Tensor<Float>(shape: [2, 3, 4], scalars: (0..<24).map(Float.init))
        let permuted = tensor.permuted([2, 0, 1])
        #expect(permuted.shape == [4, 2, 3])
        #expect(permuted.storage === tensor.storage)
        #expect(!permuted.isContiguous)
        let expected: [Float] = [0, 4, 8, 12, 16, 20, 1, 5, 9, 13, 17, 21, 2, 6, 10, 14, 18, 22, 3, 7, 11, 15, 19, 23]
        #expect(permuted.scalars == expected)
        #expect(permuted.contiguous().isContiguous && permuted.contiguous().scalars == expected)
        #expect(permuted.permuted([1, 2, 0]) == tensor)
        // A view that starts inside its storage: np.arange(60).reshape(5, 3, 4)[1:3].transpose(1, 2, 0).ravel().
        let rows = Tensor<Float>(shape: [5, 3, 4], scalars: (0..<60).map(Float.init)).slice(1..<3)
        #expect(rows.permuted([1, 2, 0]).contiguous().scalars
                == [12, 24, 13, 25, 14, 26, 15, 27, 16, 28, 17, 29, 18, 30, 19, 31, 20, 32, 21, 33, 22, 34, 23, 35])
    }
}

@Suite struct TensorConstructionAndViewTests {
    @Test func float16AndBFloat16BuffersConvertExactly() {
        // Hand-worked bit patterns: 0x3C00 = 1, 0xC000 = -2, 0x3555 = 0.333251953125, 0x0001 = 2^-24, 0x7C00 = inf.
        let half = Tensor(shape: [5], float16Bits: [0x3C00, 0xC000, 0x3555, 0x0001, 0x7C00] as [UInt16])
        #expect(half.scalars == [1, -2, 0.333_251_953_125, 0x1p-24, .infinity])
        let swiftHalf = Tensor(shape: [1, 2], float16: [Float16(0.5), Float16(-3.25)])
        #expect(swiftHalf.scalars == [0.5, -3.25])
        #expect(swiftHalf.shape == [1, 2])
        // BF16 is the top half of a float: 0x3F80 = 1, 0xC040 = -3, 0x4049 = 3.140625.
        let brain = Tensor(shape: [3], bfloat16Bits: [0x3F80, 0xC040, 0x4049] as [UInt16])
        #expect(brain.scalars == [1, -3, 3.140_625])
    }

    @Test func int32TensorsHoldIdsAndConvertToArrays() {
        var ids = Tensor<Int32>(shape: [2, 2], scalars: [101, 7592, 2088, 102])
        #expect(ids[1, 0] == 2088)
        ids[0, 1] = 1
        #expect(ids.scalars == [101, 1, 2088, 102])
        #expect(ids.reshaped([4]).scalars == [101, 1, 2088, 102])
        #expect(Tensor<Int32>(shape: [3], repeating: 7).scalars == [7, 7, 7])
    }

    @Test func reshapeOfContiguousIsAViewAndInfersOneDimension() {
        let tensor = Tensor<Float>(shape: [2, 3, 4], scalars: (0..<24).map(Float.init))
        let reshaped = tensor.reshaped([6, -1])
        #expect(reshaped.shape == [6, 4])
        #expect(reshaped.storage === tensor.storage)
        #expect(reshaped[5, 3] == 23)
        #expect(tensor.reshaped([24]).scalars == tensor.scalars)
    }

    @Test func slicesAreViewsAndSlicesOfSlicesCompose() {
        let tensor = Tensor<Float>(shape: [5, 2], scalars: (0..<10).map(Float.init))
        let middle = tensor.slice(1..<4)
        #expect(middle.shape == [3, 2])
        #expect(middle.storage === tensor.storage)
        #expect(middle.scalars == [2, 3, 4, 5, 6, 7])
        let inner = middle.slice(1..<3)
        #expect(inner.scalars == [4, 5, 6, 7])
        #expect(inner[1, 1] == 7)
        #expect(inner[1].scalars == [6, 7])
        // A contiguous slice reshapes as a view; a transposed one is copied.
        #expect(inner.reshaped([4]).storage === tensor.storage)
        let transposed = inner.transposed()
        #expect(transposed.scalars == [4, 6, 5, 7])
        #expect(transposed.reshaped([4]).storage !== tensor.storage)
        #expect(transposed.reshaped([4]).scalars == [4, 6, 5, 7])
    }

    @Test func writingThroughASliceCopiesAndLeavesTheOriginal() {
        let tensor = Tensor<Float>(shape: [3, 2], scalars: [1, 2, 3, 4, 5, 6])
        var slice = tensor.slice(1..<3)
        slice.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] *= 10 }
        }
        #expect(slice.scalars == [30, 40, 50, 60])
        #expect(tensor.scalars == [1, 2, 3, 4, 5, 6])
    }

    @Test func emptyAndScalarTensors() {
        let empty = Tensor<Float>(shape: [0, 3])
        #expect(empty.count == 0)
        #expect(empty.scalars.isEmpty)
        #expect(empty.reshaped([3, 0]).shape == [3, 0])
        let scalar = Tensor<Float>(shape: [], scalars: [4])
        #expect(scalar.count == 1)
        #expect(scalar[] == 4)
    }
}

@Suite struct ReplaceElementsTests {
    @Test func worksInPlaceWhenUniqueAndIntoFreshStorageWhenShared() {
        var unique = Tensor<Float>([1, -2, 3])
        let before = ObjectIdentifier(unique.storage)  // no second reference, so the storage stays unique
        unique.replaceElements { source, destination in
            #expect(source.baseAddress == UnsafePointer(destination.baseAddress))
            for index in source.indices { destination[index] = source[index] * 2 }
        }
        #expect(unique.scalars == [2, -4, 6])
        #expect(ObjectIdentifier(unique.storage) == before)

        let original = Tensor<Float>(shape: [2, 2], scalars: [1, 2, 3, 4])
        var shared = original
        shared.replaceElements { source, destination in
            #expect(source.baseAddress != UnsafePointer(destination.baseAddress))
            for index in source.indices { destination[index] = -source[index] }
        }
        #expect(shared.scalars == [-1, -2, -3, -4])
        #expect(shared.shape == [2, 2])
        #expect(original.scalars == [1, 2, 3, 4])

        var transposed = original.transposed()
        transposed.replaceElements { source, destination in
            for index in source.indices { destination[index] = source[index] + 10 }
        }
        #expect(transposed.scalars == [11, 13, 12, 14])
    }
}
