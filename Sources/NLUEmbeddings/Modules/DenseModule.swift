import Foundation
import NLUCore
import NLUTransformers

/// sentence-transformers' `Dense` module: `activation(x · Wᵀ + b)` on the sentence embedding, from
/// `config.json` (`in_features`, `out_features`, `bias`, `activation_function`) and
/// `model.safetensors` (`linear.weight` [out, in], `linear.bias` [out]).
struct DenseModule: Sendable {
    enum Activation: String, Sendable, CaseIterable {
        case tanh = "torch.nn.modules.activation.Tanh"
        case identity = "torch.nn.modules.linear.Identity"
        case relu = "torch.nn.modules.activation.ReLU"
        case gelu = "torch.nn.modules.activation.GELU"
    }

    private struct Configuration: Decodable {
        var in_features: Int
        var out_features: Int
        var bias: Bool?
        var activation_function: String?
        var use_residual: Bool?
    }

    let linear: LinearWeights
    let activation: Activation
    let weightsFile: SafeTensors
    var inputSize: Int { linear.inputSize }
    var outputSize: Int { linear.outputSize }

    init(directory: URL) throws {
        let configURL = directory.appendingPathComponent("config.json")
        guard FileManager.default.fileExists(atPath: configURL.path) else {
            throw SentenceEmbedderError.invalidFile(path: configURL.path, reason: "missing (a Dense module needs its configuration)")
        }
        let config: Configuration = try decodeJSON(at: configURL)
        guard config.in_features > 0, config.out_features > 0, config.in_features <= 1 << 20, config.out_features <= 1 << 20 else {
            throw SentenceEmbedderError.invalidFile(path: configURL.path, reason: "in_features and out_features must be between 1 and 1048576")
        }
        guard config.bias ?? true else {
            throw SentenceEmbedderError.invalidFile(path: configURL.path, reason: "Dense without bias is not supported")
        }
        guard config.use_residual != true else {
            throw SentenceEmbedderError.invalidFile(path: configURL.path, reason: "Dense with use_residual is not supported")
        }
        let activationName = config.activation_function ?? Activation.tanh.rawValue
        guard let activation = Activation(rawValue: activationName) else {
            let supported = Activation.allCases.map(\.rawValue).joined(separator: ", ")
            throw SentenceEmbedderError.invalidFile(path: configURL.path, reason: "unsupported activation_function \"\(activationName)\" (supported: \(supported))")
        }
        self.activation = activation
        weightsFile = try CheckpointDirectory(directory).weights()
        let tensors = CheckpointTensors(file: weightsFile)
        linear = try LinearWeights(tensors, "linear", output: config.out_features, input: config.in_features)
        try tensors.verifyAllUsed()
    }

    /// `output[rows, out] = activation(input[rows, in] · Wᵀ + b)`.
    func apply(_ input: UnsafePointer<Float>, rows: Int, into output: UnsafeMutablePointer<Float>) {
        switch activation {
        case .identity: linear.apply(input, rows: rows, into: output)
        case .relu: linear.apply(input, rows: rows, into: output, activation: .relu)
        case .gelu: linear.apply(input, rows: rows, into: output, activation: .gelu)
        case .tanh:
            linear.apply(input, rows: rows, into: output)
            Kernels.tanh(output, count: rows * outputSize)
        }
    }
}
