import Foundation
import NLUCore
import Testing
@testable import NLUQuestionAnswering

/// A loaded model holds none of its checkpoint's pages in resident memory: the dense layers are packed
/// copies, and a pass brings back only what it reads in place (its tokens' embedding rows, the norms).
/// Its logits are PyTorch's all the same.
@Suite struct ResidentWeightsTests {
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/smaps"), "reads /proc/self/smaps (Linux)"),
          arguments: ["bert-tiny", "distilbert-tiny"])
    func loadedModelHoldsNoCheckpointPagesAndAnswersAsPyTorch(model name: String) throws {
        // A copy of its own: tests running beside this one map the fixture's file too.
        let copy = try QAFixtures.temporaryCopy(of: name)
        defer { QAFixtures.remove(copy) }
        let weights = copy.appendingPathComponent("model.safetensors").path
        let model = try BertQAModel(modelDirectory: copy)
        #expect(residentKilobytes(ofMappingsOf: weights) == 0)
        for item in QAFixtures.goldens.logits where item.model == name {
            let batch = try EncoderBatch(tokenIDs: [item.input_ids], tokenTypeIDs: [item.token_type_ids], padID: 0)
            let (start, end) = try model.logits(batch)
            #expect(EncoderTests.maxDifference(start, item.start_logits) < EncoderTests.tolerance)
            #expect(EncoderTests.maxDifference(end, item.end_logits) < EncoderTests.tolerance)
        }
    }
}

/// The kilobytes of the file at `path` this process holds in resident memory through its memory maps (the
/// `Rss` of every mapping of the file in `/proc/self/smaps`); nil where there is no such file (not Linux).
func residentKilobytes(ofMappingsOf path: String) -> Int? {
    guard let smaps = try? String(contentsOfFile: "/proc/self/smaps", encoding: .utf8) else { return nil }
    let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    var total = 0
    var inTarget = false
    for line in smaps.split(separator: "\n") {
        let fields = line.split(separator: " ")
        // A mapping's first line is "start-end perms offset device inode [path]"; the others are "Key: value kB".
        if let first = fields.first, first.contains("-"), !first.hasSuffix(":") {
            inTarget = fields.count >= 6 && fields[5...].joined(separator: " ") == target
        } else if inTarget, fields.count >= 2, fields[0] == "Rss:", let kilobytes = Int(fields[1]) {
            total += kilobytes
        }
    }
    return total
}
