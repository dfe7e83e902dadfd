import Foundation
import NLUCore
import NLUTestSupport
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
