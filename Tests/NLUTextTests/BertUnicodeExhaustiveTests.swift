import Foundation
import Testing
@testable import NLUText

/// Every Unicode scalar through the normalizer and pre-tokenizer, compared with the fast tokenizer:
/// for "a" + scalar + "b", the normalized text and each word's original offsets, hashed per block of
/// 4096 scalars (scripts/fixtures/tokenizer_unicode_blocks.py writes the reference hashes).
@Suite struct BertUnicodeExhaustiveTests {
    struct Blocks: Decodable {
        var block_size: Int
        var hashes: [String: [String]]
    }

    @Test(arguments: ["uncased", "uncased-keep-accents"])
    func everyScalarNormalizesAndSplitsAsTheFastTokenizer(config: String) throws {
        let blocks = try TokenizerFixtures.load(Blocks.self, "unicode-blocks.json")
        let expected = try #require(blocks.hashes[config])
        var options = BertTokenizer.Options.uncased
        if config == "uncased-keep-accents" { options.stripAccents = false }
        let normalizer = BertNormalizer(options: options)
        let preTokenizer = BertPreTokenizer()
        var mismatches: [String] = []
        var bytes: [UInt8] = [], origins: [Int32] = [], record: [UInt8] = []
        for (block, expectedHash) in expected.enumerated() {
            var state = TokenTable.seed
            for value in UInt32(block * blocks.block_size)..<UInt32((block + 1) * blocks.block_size) {
                guard Unicode.Scalar(value) != nil else { continue }   // surrogates
                // The normalizer's scalar-by-scalar entry point on "a" + scalar + "b", buffers reused.
                bytes.removeAll(keepingCapacity: true)
                origins.removeAll(keepingCapacity: true)
                var stripper = AccentStripper()
                for (origin, scalar) in [0x61, value, 0x62].enumerated() {
                    normalizer.append(scalar, origin: Int32(origin), stripper: &stripper, to: &bytes, &origins)
                }
                normalizer.finish(&stripper, to: &bytes, &origins)
                record.removeAll(keepingCapacity: true)
                record.append(contentsOf: bytes)
                record.append(0x1F)
                bytes.withUnsafeBufferPointer { buffer in
                    preTokenizer.forEachWord(in: buffer) { word in
                        record.append(contentsOf: "\(origins[word.lowerBound]),\(origins[word.upperBound - 1] + 1)".utf8)
                        record.append(0x1E)
                    }
                }
                state = record.withUnsafeBufferPointer { TokenTable.fold(state, $0) }
            }
            if String(format: "%016llx", state) != expectedHash {
                mismatches.append(String(format: "U+%04X..U+%04X", block * blocks.block_size, (block + 1) * blocks.block_size - 1))
            }
        }
        #expect(expected.count == 272)
        #expect(mismatches.isEmpty, "blocks that differ: \(mismatches)")
    }
}
