import NLUCore

/// How one input or output of a Core ML file is typed, in NLUKit's terms, plus what the runner needs to accept it.
struct FeatureSpecification: Sendable {
    let feature: ModelDescription.Feature
    /// For multi-array features: the declared shape, `nil` for a dimension that is flexible.
    let shape: [Int?]?

    init(_ description: CoreML_Specification_FeatureDescription) throws {
        let type = description.type
        var shape: [Int?]? = nil
        let featureType: FeatureType
        switch type.type {
        case .multiArrayType(let array):
            let dimensions = try Self.dimensions(of: array, feature: description.name)
            shape = dimensions
            featureType = .tensor(array.dataType == .int32 ? .int32 : .float32, shape: dimensions)
        case .int64Type: featureType = .int
        case .doubleType: featureType = .double
        case .stringType: featureType = .string
        case .dictionaryType: featureType = .dictionary
        case .imageType: throw CoreMLError.invalidModel("feature '\(description.name)' is an image; image features are not supported")
        case .sequenceType: throw CoreMLError.invalidModel("feature '\(description.name)' is a sequence; sequence features are not supported")
        case .stateType: throw CoreMLError.invalidModel("feature '\(description.name)' is a Core ML state; state features are not supported")
        case nil: throw CoreMLError.invalidModel("feature '\(description.name)' has no type")
        }
        feature = ModelDescription.Feature(name: description.name, type: featureType, isOptional: type.isOptional,
                                           summary: description.shortDescription)
        self.shape = shape
    }

    /// The declared shape; a dimension that a shape range or the enumerated shapes let vary is `nil`.
    private static func dimensions(of array: CoreML_Specification_ArrayFeatureType, feature: String) throws -> [Int?] {
        func checked(_ value: Int64) throws -> Int {
            guard value >= 0, value <= 1 << 30 else { throw CoreMLError.invalidModel("feature '\(feature)' has dimension \(value)") }
            return Int(value)
        }
        var shape: [Int?] = try array.shape.map { try checked($0) }
        switch array.shapeFlexibility {
        case .shapeRange(let range):
            let bounds = try range.sizeRanges.map { (try checked(Int64(clamping: $0.lowerBound)), $0.upperBound) }
            if shape.isEmpty { shape = bounds.map { $0.0 } }
            guard bounds.count == shape.count else { throw CoreMLError.invalidModel("feature '\(feature)': shape range of rank \(bounds.count) for shape \(shape)") }
            shape = zip(shape, bounds).map { dimension, bound in
                bound.1 >= 0 && Int64(bound.0) == bound.1 ? dimension : nil
            }
        case .enumeratedShapes(let enumerated):
            let shapes = try enumerated.shapes.map { try $0.shape.map { try checked($0) } }
            guard let first = shapes.first else { break }
            if shape.isEmpty { shape = first }
            for other in shapes where other.count == shape.count {
                shape = zip(shape, other).map { $0 == $1 ? $0 : nil }
            }
        case nil: break
        }
        return shape
    }
}

extension ModelDescription.Feature {
    /// This feature's shape when it is a tensor.
    var tensorShape: [Int?]? {
        if case let .tensor(_, shape) = type { return shape }
        return nil
    }
}
