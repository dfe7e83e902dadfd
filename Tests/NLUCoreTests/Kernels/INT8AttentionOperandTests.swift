import CKernels
import Foundation
import Testing
@testable import NLUCore

/// The two operands INT8 attention quantizes itself: the values packed per column must be exactly
/// the packing of their transpose (the layout and rounding the INT8 GEMM is tested with), and the
/// quantized softmax must be the softmax within its stated rounding, at every instruction level.
@Suite struct INT8AttentionOperandTests {
    @Test(arguments: [0, 1, 2], [63, 127])
    func columnPackingIsThePackingOfTheTranspose(level: Int, limit: Int) {
        for (k, n) in [(1, 1), (7, 5), (37, 64), (384, 33), (70, 96)] {
            var generator = SplitMix64(seed: UInt64(k * 1000 + n))
            let stride = n + 3
            var b = randomScalars(k * stride, in: -2...2, using: &generator)
            if n > 2 { for kk in 0..<k { b[kk * stride + 2] = 0 } }   // a zero column: scale 0, bytes 0
            var transposed = [Float](repeating: 0, count: n * k)
            for kk in 0..<k { for j in 0..<n { transposed[j * k + kk] = b[kk * stride + j] } }
            let size = nlukit_int8_packed_size(k, n), columns = (n + 31) / 32 * 32
            var expected = [Int8](repeating: 1, count: size), got = [Int8](repeating: 2, count: size)
            var expectedScales = [Float](repeating: 1, count: columns), gotScales = [Float](repeating: 2, count: columns)
            var expectedSums = [Int32](repeating: 1, count: columns), gotSums = [Int32](repeating: 2, count: columns)
            Kernels.withInstructionLevel(level) {
                nlukit_int8_pack(transposed, k, k, n, Int32(limit), &expected, &expectedScales, &expectedSums)
                nlukit_int8_pack_columns(b, stride, k, n, Int32(limit), &got, &gotScales, &gotSums)
            }
            #expect(got == expected, "k \(k), n \(n)")
            #expect(gotScales == expectedScales && gotSums == expectedSums, "k \(k), n \(n)")
        }
    }

    /// Every activation form: signed (codes to 127), +128 unsigned (to 255, no offset) and 7-bit
    /// unsigned (to 127, no offset).
    @Test(arguments: [0, 1, 2], [Int32(NLUKIT_INT8_SIGNED), Int32(NLUKIT_INT8_UNSIGNED), Int32(NLUKIT_INT8_UNSIGNED_7BIT)])
    func quantizedSoftmaxIsTheSoftmaxWithinItsRounding(level: Int, form: Int32) {
        let length = 77, rows = 5, stride = 84
        var generator = SplitMix64(seed: 9)
        let scores = randomScalars(rows * length, in: -8...8, using: &generator)
        let mask = (0..<length).map { $0 % 4 == 3 ? -Float.infinity : 0 }
        for masked in [false, true] {
            var scratch = scores
            // Row 4 is masked entirely when `masked`: it must come out as zeros with scale 0.
            if masked { for key in 0..<length { scratch[4 * length + key] = -.infinity } }
            var bytes = [Int8](repeating: 9, count: rows * stride), scales = [Float](repeating: 9, count: rows)
            Kernels.withInstructionLevel(level) {
                (masked ? mask : nil).withUnsafeOptionalBufferPointer { mask in
                    nlukit_int8_softmax_rows(&scratch, rows, length, mask, &bytes, stride, &scales, form)
                }
            }
            let limit = form == NLUKIT_INT8_UNSIGNED ? 255.0 : 127.0
            for row in 0..<rows {
                let line = (0..<length).map { Double(scores[row * length + $0]) + Double(masked ? mask[$0] : 0) }
                let codes = (0..<stride).map { form != NLUKIT_INT8_SIGNED ? Double(UInt8(bitPattern: bytes[row * stride + $0]))
                                                                          : Double(bytes[row * stride + $0]) }
                #expect(codes[length...].allSatisfy { $0 == 0 }, "padding of row \(row)")
                if masked && row == 4 {
                    #expect(codes.allSatisfy { $0 == 0 } && scales[row] == 0)
                    continue
                }
                let top = line.max()!
                let total = line.reduce(0) { $0 + Foundation.exp($1 - top) }
                for key in 0..<length {
                    let probability = Foundation.exp(line[key] - top) / total
                    // Each code is round(e · L) with e = exp(x - max) to 7.5e-5 relative, so within 0.5 + 0.02 of e · L.
                    #expect(abs(codes[key] - probability * total * limit) <= 0.52, "row \(row), key \(key)")
                    // And code · scale is the probability within half a step of the row's grid (plus the exp's error).
                    #expect(abs(codes[key] * Double(scales[row]) - probability) <= 0.52 / (limit * total) + 1e-4 * probability)
                }
            }
        }
    }
}
