import Foundation
import NLUCore
import NLUTestSupport
import Testing
@testable import NLUQuestionAnswering

/// A NaN or an infinity in a QA checkpoint's weights is refused at load, naming the file and the
/// tensor, whatever the stored precision; finite weights that overflow are an error, not NaN scores
/// (or silently no answer: a NaN span score never passes `score > 0`).
@Suite struct NonFiniteWeightsTests {
    @Test(arguments: ["bert-tiny", "bert-tiny-f16", "bert-tiny-bf16"])
    func aNaNWeightIsRefusedAtLoad(_ fixture: String) throws {
        let copy = try QAFixtures.temporaryCopy(of: fixture)
        defer { QAFixtures.remove(copy) }
        let weights = copy.appendingPathComponent("model.safetensors")
        try SafeTensorsPatch.set("qa_outputs.weight", in: weights, to: .nan)
        let error = #expect(throws: SafeTensorsError.self) { try QuestionAnswerer(modelDirectory: copy) }
        #expect(error?.kind == .nonFinite && error?.tensor == "qa_outputs.weight" && error?.file.path == weights.path,
                "\(String(describing: error))")
    }

    @Test func logitsThatOverflowAreAnError() throws {
        let copy = try QAFixtures.temporaryCopy(of: "bert-tiny")
        defer { QAFixtures.remove(copy) }
        let weights = copy.appendingPathComponent("model.safetensors")
        try SafeTensorsPatch.set("qa_outputs.weight", in: weights, to: 3e38, count: nil)
        let qa = try QuestionAnswerer(modelDirectory: copy)
        let error = #expect(throws: QuestionAnsweringError.self) {
            try qa.answers(to: "Who jumped?", in: "The quick brown fox jumped over the dog.")
        }
        #expect(error?.description.contains("non-finite") == true, "\(String(describing: error))")
    }
}
