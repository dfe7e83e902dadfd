/// One named input or output of a ``Model``: the `MLFeatureValue` of NLUKit.
///
///     let ids = FeatureValue.int32Tensor(Tensor(shape: [1, 4], scalars: [101, 2040, 2001, 102]))
///     let word = FeatureValue.string("hello")
public enum FeatureValue: Sendable, Equatable {
    case floatTensor(Tensor<Float>)
    case int32Tensor(Tensor<Int32>)
    case string(String)
    case int(Int)
    case double(Double)
    /// A string→double dictionary, e.g. the probability of each label.
    case dictionary([String: Double])

    /// The type of this value, as a ``ModelDescription`` states types.
    public var type: FeatureType {
        switch self {
        case .floatTensor(let tensor): return .tensor(.float32, shape: tensor.shape.map { $0 })
        case .int32Tensor(let tensor): return .tensor(.int32, shape: tensor.shape.map { $0 })
        case .string: return .string
        case .int: return .int
        case .double: return .double
        case .dictionary: return .dictionary
        }
    }

    public var floatTensorValue: Tensor<Float>? {
        if case .floatTensor(let value) = self { return value }
        return nil
    }

    public var int32TensorValue: Tensor<Int32>? {
        if case .int32Tensor(let value) = self { return value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var intValue: Int? {
        if case .int(let value) = self { return value }
        return nil
    }

    public var doubleValue: Double? {
        if case .double(let value) = self { return value }
        return nil
    }

    public var dictionaryValue: [String: Double]? {
        if case .dictionary(let value) = self { return value }
        return nil
    }
}

/// The type of a feature. Tensor shapes may leave a dimension open (`nil`), e.g. `[1, nil]` for
/// a batch of one sequence of any length.
public enum FeatureType: Sendable, Equatable, CustomStringConvertible {
    case tensor(TensorDataType, shape: [Int?])
    case string
    case int
    case double
    case dictionary

    /// Whether a value of type `actual` is acceptable where `self` is expected.
    public func accepts(_ actual: FeatureType) -> Bool {
        switch (self, actual) {
        case let (.tensor(expectedType, expectedShape), .tensor(actualType, actualShape)):
            guard expectedType == actualType, expectedShape.count == actualShape.count else { return false }
            return zip(expectedShape, actualShape).allSatisfy { expected, actual in
                expected == nil || expected == actual
            }
        default:
            return self == actual
        }
    }

    public var description: String {
        switch self {
        case let .tensor(dataType, shape):
            return "\(dataType) tensor [\(shape.map { $0.map(String.init) ?? "?" }.joined(separator: ", "))]"
        case .string: return "string"
        case .int: return "int"
        case .double: return "double"
        case .dictionary: return "string→double dictionary"
        }
    }
}
