/// The parameters of one layer of an ``LSTM`` or ``GRU``, in PyTorch's layout.
///
/// The gate blocks are stacked along the first axis in PyTorch's order (i, f, g, o for LSTM;
/// r, z, n for GRU), so `inputWeight` is `[gates × hidden, inputSize]`. The same type holds
/// the gradients of those parameters during training.
///
///     let layer = RecurrentLayerWeights(gateCount: 4, inputSize: 8, hiddenSize: 16)   // zeros
///     print(layer.inputWeight.shape)   // [64, 8]
public struct RecurrentLayerWeights: Sendable {
    /// `weight_ih_l{k}`: `[gates × hidden, input]`.
    public var inputWeight: Tensor<Float>
    /// `weight_hh_l{k}`: `[gates × hidden, hidden]`.
    public var hiddenWeight: Tensor<Float>
    /// `bias_ih_l{k}`: `[gates × hidden]`.
    public var inputBias: Tensor<Float>
    /// `bias_hh_l{k}`: `[gates × hidden]`.
    public var hiddenBias: Tensor<Float>

    /// A layer with the given tensors (made contiguous, so kernels read them as one buffer).
    public init(inputWeight: Tensor<Float>, hiddenWeight: Tensor<Float>, inputBias: Tensor<Float>, hiddenBias: Tensor<Float>) {
        self.inputWeight = inputWeight.contiguous()
        self.hiddenWeight = hiddenWeight.contiguous()
        self.inputBias = inputBias.contiguous()
        self.hiddenBias = hiddenBias.contiguous()
    }

    /// A layer of zeros (the starting point for accumulating gradients).
    public init(gateCount: Int, inputSize: Int, hiddenSize: Int) {
        let rows = gateCount * hiddenSize
        self.init(inputWeight: Tensor(shape: [rows, inputSize]), hiddenWeight: Tensor(shape: [rows, hiddenSize]),
                  inputBias: Tensor(shape: [rows]), hiddenBias: Tensor(shape: [rows]))
    }

    /// A layer initialized as PyTorch does: every parameter uniform in ±1/√hidden.
    public init<G: RandomNumberGenerator>(gateCount: Int, inputSize: Int, hiddenSize: Int, using generator: inout G) {
        let bound = 1 / Float(hiddenSize).squareRoot()
        func uniform(_ shape: [Int]) -> Tensor<Float> {
            let count = shape.reduce(1, *)
            return Tensor(shape: shape, scalars: (0..<count).map { _ in Float.random(in: -bound...bound, using: &generator) })
        }
        let rows = gateCount * hiddenSize
        self.init(inputWeight: uniform([rows, inputSize]), hiddenWeight: uniform([rows, hiddenSize]),
                  inputBias: uniform([rows]), hiddenBias: uniform([rows]))
    }

    /// The four tensors in PyTorch's `state_dict` order.
    public var tensors: [Tensor<Float>] {
        get { [inputWeight, hiddenWeight, inputBias, hiddenBias] }
        set {
            precondition(newValue.count == 4, "a recurrent layer has 4 parameter tensors")
            inputWeight = newValue[0]; hiddenWeight = newValue[1]; inputBias = newValue[2]; hiddenBias = newValue[3]
        }
    }

    /// PyTorch's `state_dict` names of the four tensors of layer `index`, in ``tensors`` order.
    public static func parameterNames(layer index: Int) -> [String] {
        ["weight_ih_l\(index)", "weight_hh_l\(index)", "bias_ih_l\(index)", "bias_hh_l\(index)"]
    }
}
