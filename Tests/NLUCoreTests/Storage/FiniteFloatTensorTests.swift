import Foundation
import Testing
@testable import NLUCore

/// Model loaders read weights through `finiteFloatTensor`: a NaN or an infinity is refused naming
/// the file, the tensor and the element, in every stored dtype (a finite F64 or BF16 value may also
/// become an infinity as a Float).
@Suite struct FiniteFloatTensorTests {
    let fixture = fixturesDirectory.appendingPathComponent("safetensors/all-dtypes.safetensors")

    @Test func finiteTensorsOfEveryFloatDTypeAreRead() throws {
        let file = try SafeTensors(contentsOf: fixture)
        for name in ["f32.matrix", "f32.empty", "f32.scalar", "f16.random", "bf16.random", "f64.values", "i64.ids"] {
            #expect(try file.finiteFloatTensor(name).scalars == file.floatTensor(name).scalars, "\(name)")
        }
    }

    @Test func anInfinityIsNamedWithFileTensorAndIndex() throws {
        let file = try SafeTensors(contentsOf: fixture)
        let error = #expect(throws: SafeTensorsError.self) { try file.finiteFloatTensor("bf16.specials") }
        #expect(error?.kind == .nonFinite && error?.tensor == "bf16.specials")
        #expect(error?.description.hasPrefix(fixture.path + ": tensor 'bf16.specials': holds a non-finite value (-inf at flat index 4 of shape [5])") == true,
                "\(String(describing: error))")
    }

    /// The scan checks blocks of 4096 without branches, then searches the block that has a bad value:
    /// the first one is found at block edges, and the largest finite values, -0 and subnormals pass.
    @Test(arguments: [0, 4095, 4096, 4097, 9999])
    func theScanFindsTheFirstNonFiniteValue(_ index: Int) {
        var values = [Float](repeating: .greatestFiniteMagnitude, count: 10_000)
        values[1] = -0.0
        values[2] = .leastNonzeroMagnitude
        values[3] = -.greatestFiniteMagnitude
        values[index] = .nan
        values[9_999] = index == 9_999 ? .nan : .infinity
        let found = values.firstNonFinite()
        #expect(found?.index == index)
        #expect(found?.value.isNaN == true)
        values[9_999] = 1
        values[index] = 1
        #expect(values.firstNonFinite() == nil)
        #expect([Float]().firstNonFinite() == nil)
    }
}
