/// The element types a ``Tensor`` can hold: `Float` for values, `Int32` for token ids.
public protocol TensorScalar: Numeric, Sendable, BitwiseCopyable {
    /// The data type's name in model descriptions and errors ("float32", "int32").
    static var dataType: TensorDataType { get }
}

/// The element type of a tensor feature, as a ``ModelDescription`` states it.
public enum TensorDataType: String, Sendable, Codable, Equatable {
    case float32
    case int32
}

extension Float: TensorScalar {
    public static var dataType: TensorDataType { .float32 }
}

extension Int32: TensorScalar {
    public static var dataType: TensorDataType { .int32 }
}
