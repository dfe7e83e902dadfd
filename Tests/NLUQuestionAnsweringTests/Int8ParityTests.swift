import Foundation
import NLUCore
import Testing
@testable import NLUQuestionAnswering

/// INT8 inference (`Precision.int8`: dense weights per output channel, activations per row, int32
/// sums) against F32 on the same fixture checkpoints and inputs, at the CPU's best level:
/// - start/end logits within `logitTolerance` × the largest |F32 logit| of F32's on every golden
///   input (measured: 0.10-0.40 absolute against logits up to 7-10, at most 5.0 % of the largest,
///   with 8-bit rows; 0.20-0.72, at most 9.1 %, with the 7-bit rows of an AVX2 CPU without an int8
///   dot product, whose grid is half as fine; the tiny random models sum only 32-128 products per
///   output, so errors average out less than in BERT-base's 768-3072);
/// - the best answer of every pipeline case is F32's, except where F32's top two answers score
///   within `scoreMargin` of each other (a near tie that a small logit error may flip);
/// and every such exception is counted, so that a regression that flips clear answers fails.
/// Each test holds the CPU's best level (`CPULevel.with`) from loading to the last comparison: the
/// level is process-wide, and a test forcing another one meanwhile would change the grid under it.
@Suite struct Int8ParityTests {
    /// Whether the level in effect quantizes rows to 7 bits (AVX2 without an int8 dot product).
    static var sevenBitRows: Bool { QuantizedMatrix.preferredActivationLimit == 63 }
    /// Largest |INT8 − F32| allowed for a logit, as a share of the largest |F32 logit| of the input.
    static var logitTolerance: Float { sevenBitRows ? 0.11 : 0.06 }
    /// F32 top-two score gap (probabilities) under which the answers may differ (7-bit rows: one
    /// answer of 37 flips at a gap of 0.049, with logit errors of 9 %).
    static var scoreMargin: Double { sevenBitRows ? 0.06 : 0.02 }

    static let models = ["bert-tiny", "distilbert-tiny", "bert-tiny-gelu-new", "bert-tiny-f16", "bert-tiny-bf16", "bert-tiny-gamma-beta"]

    @Test(arguments: models)
    func logitsStayCloseToF32(model name: String) throws {
        try CPULevel.with(.supported) { try checkLogits(model: name) }
    }

    func checkLogits(model name: String) throws {
        let f32 = try BertQAModel(modelDirectory: QAFixtures.model(name))
        let int8 = try BertQAModel(modelDirectory: QAFixtures.model(name), precision: .int8)
        #expect(int8.precision == .int8 && int8.modelDescription.metadata["precision"] == "int8")
        let cases = QAFixtures.goldens.logits.filter { $0.model == name }
        #expect(!cases.isEmpty)
        for item in cases {
            let batch = try EncoderBatch(tokenIDs: [item.input_ids], tokenTypeIDs: [item.token_type_ids], padID: 0)
            let (start, end) = try f32.logits(batch)
            let (quantizedStart, quantizedEnd) = try int8.logits(batch)
            let error = max(EncoderTests.maxDifference(quantizedStart, start), EncoderTests.maxDifference(quantizedEnd, end))
            let spread = (start + end).map { abs($0) }.max() ?? 0
            print("int8 logits \(name): max error \(error), F32 |logit| up to \(spread)")
            #expect(error < Self.logitTolerance * spread, "\(name): \(item.question): max |INT8 − F32| = \(error) of \(spread)")
        }
    }

    @Test func bestAnswersEqualF32ExceptNearTies() throws {
        try CPULevel.with(.supported) { try checkBestAnswers() }
    }

    func checkBestAnswers() throws {
        var compared = 0, equal = 0, nearTies = 0
        for name in Set(QAFixtures.goldens.pipeline.map(\.model)).sorted() {
            let f32 = try QuestionAnswerer(modelDirectory: QAFixtures.model(name))
            let int8 = try QuestionAnswerer(modelDirectory: QAFixtures.model(name), precision: .int8)
            for item in QAFixtures.goldens.pipeline where item.model == name {
                var options = item.options.answerOptions
                options.topK = 2
                let reference = try f32.answers(to: item.question, in: item.context, options: options)
                let quantized = try int8.answers(to: item.question, in: item.context, options: options)
                guard let best = reference.first, let quantizedBest = quantized.first else {
                    #expect(reference.isEmpty == quantized.isEmpty, "\(name) \(item.question)")
                    continue
                }
                compared += 1
                let gap = reference.count > 1 ? best.score - reference[1].score : 1
                if best.start == quantizedBest.start && best.end == quantizedBest.end {
                    equal += 1
                } else if gap < Self.scoreMargin {
                    nearTies += 1
                } else {
                    Issue.record("\(name) \(item.question): INT8 \(quantizedBest.text) vs F32 \(best.text), F32 gap \(gap)")
                }
            }
        }
        print("int8 answers: \(equal) of \(compared) equal to F32, \(nearTies) differ inside the \(Self.scoreMargin) margin")
        #expect(compared >= 30)
        #expect(equal + nearTies == compared)
    }

    @Test func unknownPrecisionNamesTheChoices() throws {
        #expect(throws: PrecisionError.unknown("fp16")) { try Precision(parsing: "fp16") }
        #expect("\(PrecisionError.unknown("fp16"))" == #"precision "fp16": expected f32 or int8"#)
        #expect(try Precision(parsing: "int8") == .int8)
    }
}
