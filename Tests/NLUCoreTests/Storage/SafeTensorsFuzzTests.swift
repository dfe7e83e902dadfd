import Foundation
import NLUFuzzSupport
import Testing
@testable import NLUCore
import NLUTestSupport

/// Mutated safetensors files (mostly their JSON header, where the hostile numbers live) open with
/// every tensor readable, or fail with an error naming the file — no trap, no huge allocation.
@Suite struct SafeTensorsFuzzTests {
    @Test func mutatedSafeTensorsOpenOrFailNamingTheFile() throws {
        let original = Array(try Data(contentsOf: fixturesDirectory.appendingPathComponent("safetensors/all-dtypes.safetensors")))
        let headerLength = Int(original[0..<8].enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) })
        let header = Array(original[8..<(8 + headerLength)]), data = Array(original[(8 + headerLength)...])
        let directory = try TestScratch.folder()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("fuzzed.safetensors")
        var mutator = Mutator(seed: "safetensors")
        var failures = 0
        for index in 0..<FuzzCases.count(default: 400) {
            var bytes: [UInt8]
            if index % 4 == 0 {
                bytes = mutator.mutate(original)  // anywhere, length prefix included
            } else {
                let mutated = mutator.mutate(header)
                var length = UInt64(mutated.count)
                bytes = (0..<8).map { _ in defer { length >>= 8 }; return UInt8(length & 0xFF) } + mutated + data
            }
            try Data(bytes).write(to: url)
            let problem = FuzzCases.check({
                let file = try SafeTensors(contentsOf: url)
                for name in file.names {
                    _ = try file.floatTensor(name)
                }
            }, naming: url.lastPathComponent)
            if let problem { failures += 1; Issue.record("case \(index): \(problem)") }
        }
        #expect(failures == 0)
    }
}
