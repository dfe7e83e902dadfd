import Foundation
import Testing
@testable import NLUCore
import NLUTestSupport

/// `TensorStorage.releaseResidentPages` drops a mapped tensor's pages without losing its data (the
/// pages come back from the file), touches nothing outside the tensor, and leaves owned memory alone.
@Suite struct ResidentPagesTests {
    @Test func mappedTensorsReadTheSameAfterRelease() throws {
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("weights.safetensors")
        var generator = SplitMix64(seed: 42)
        // Odd sizes, so tensor boundaries fall inside pages shared with a neighbour.
        let tensors = ["a": randomTensor([3, 1001], using: &generator), "b": randomTensor([257, 513], using: &generator),
                       "c": randomTensor([7], using: &generator)]
        try SafeTensors.write(tensors, to: url)
        let file = try SafeTensors(contentsOf: url)
        let b = try file.floatTensor("b")
        #expect(!b.storage.isWritable, "an F32 tensor should be a view of the mapping")
        #expect(b.scalars == tensors["b"]?.scalars)
        b.storage.releaseResidentPages()
        #expect(b.scalars == tensors["b"]?.scalars)
        for name in ["a", "c"] {
            #expect(try file.floatTensor(name).scalars == tensors[name]?.scalars, "\(name) changed")
        }
    }

    @Test func ownedStorageIsUntouched() {
        let owned = Tensor<Float>(shape: [4096], scalars: (0..<4096).map(Float.init))
        owned.storage.releaseResidentPages()
        #expect(owned.scalars == (0..<4096).map(Float.init))
    }
}
