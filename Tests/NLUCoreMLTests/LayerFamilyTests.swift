import Foundation
import NLUCore
import Testing
@testable import NLUCoreML

/// Each layer family against NumPy on the coremltools-written fixtures. FP32 models: ≤ 1e-4 absolute.
/// FP16 and quantized models: the expected outputs come from the very half-precision / dequantized weights the file
/// stores (not from the FP32 originals), so the same 1e-4 bound holds; what the rounding itself costs is not tested.
@Suite struct LayerFamilyTests {
    @Test func denseLayersMatchNumPy() throws {
        // innerProduct with and without bias, leakyReLU, sigmoid, tanh, linear, concat, reshape, flatten, add, multiply.
        try CoreMLFixtures.check("dense_layers", tolerance: 1e-4)
    }

    @Test func recurrentLayersMatchNumPy() throws {
        // uniDirectionalLSTM (sequence output), gru (hard-sigmoid gates, last output), simpleRecurrent, biDirectionalLSTM.
        try CoreMLFixtures.check("recurrent_layers", tolerance: 1e-4)
    }

    @Test func tensorLayersMatchNumPy() throws {
        // sliceStatic, gather, reshapeDynamic, loadConstantND, expandDims, concatND, multiplyBroadcastable,
        // flattenTo2D, layerNormalization over two axes.
        try CoreMLFixtures.check("nd_layers", tolerance: 1e-4)
    }

    @Test func pipelineRunsItsStagesInOrder() throws {
        try CoreMLFixtures.check("pipeline", tolerance: 1e-4)
        #expect(try CoreMLFixtures.model("pipeline").layerCounts == ["innerProduct": 2, "activation": 1])
    }

    @Test(arguments: ["dense_classifier_fp16", "dense_classifier_int8", "dense_classifier_lut4"])
    func storedWeightFormsDecodeAsCoremltoolsDequantizes(name: String) throws {
        try CoreMLFixtures.check(name, tolerance: 1e-4)
    }
}
