import Foundation
import NLUCore
import NLUInputOutput

/// Features to and from JSON, as `nlu coreml predict` reads and prints them: an object of feature name → number,
/// (nested) array of numbers, string, or string → number object.
///
///     let input = try FeatureJSON.provider(from: Data(#"{"embeddings": [0.1, 0.2]}"#.utf8), for: model.modelDescription)
///     let json = try FeatureJSON.data(from: try model.prediction(from: input))
public enum FeatureJSON {
    /// Errors in a JSON input, naming the feature and what was expected.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible, LocalizedError {
        case notAnObject
        case invalidJSON(String)
        case unknownFeature(String, known: [String])
        case invalidValue(String, reason: String)
        /// An output the model computed holds a NaN or an infinity (its weights, or an input out of a layer's domain).
        case nonFiniteOutput(String, reason: String)

        public var description: String {
            switch self {
            case .notAnObject: return "the input must be a JSON object of feature name → value"
            case .invalidJSON(let reason): return "the input is not valid JSON (\(reason))"
            case let .unknownFeature(name, known): return "the model has no input '\(name)' (inputs: \(known.joined(separator: ", ")))"
            case let .invalidValue(name, reason): return "input '\(name)': \(reason)"
            case let .nonFiniteOutput(name, reason):
                return "output '\(name)' holds \(reason), which JSON cannot represent (an input outside a layer's domain, such as the log of a negative number, or weights that overflow)"
            }
        }

        public var errorDescription: String? { description }
    }

    /// The features of a JSON object, typed by the model's declared inputs.
    public static func provider(from json: Data, for description: ModelDescription) throws -> DictionaryFeatureProvider {
        try checkNesting(json)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: json, options: [.fragmentsAllowed])
        } catch {
            // Where the JSON breaks (line and column), in our words rather than Foundation's.
            throw FeatureJSON.Error.invalidJSON(JSONFile.syntaxErrorLocation(error, data: json))
        }
        guard let features = object as? [String: Any] else { throw FeatureJSON.Error.notAnObject }
        var provider = DictionaryFeatureProvider()
        for (name, value) in features.sorted(by: { $0.key < $1.key }) {
            guard let input = description.inputs.first(where: { $0.name == name }) else {
                throw FeatureJSON.Error.unknownFeature(name, known: description.inputs.map(\.name))
            }
            provider[name] = try featureValue(value, as: input.type, name: name)
        }
        return provider
    }

    private static func featureValue(_ value: Any, as type: FeatureType, name: String) throws -> FeatureValue {
        switch type {
        case .string:
            guard let string = value as? String else { throw Error.invalidValue(name, reason: "expected a string") }
            return .string(string)
        case .int:
            guard let number = number(value), let integer = Int(exactly: number) else {
                throw Error.invalidValue(name, reason: "expected a whole number")
            }
            return .int(integer)
        case .double:
            guard let number = number(value) else { throw Error.invalidValue(name, reason: "expected a number") }
            return .double(number)
        case .dictionary:
            guard let object = value as? [String: Any] else { throw Error.invalidValue(name, reason: "expected an object of string → number") }
            return .dictionary(try object.mapValues { item in
                guard let number = number(item) else { throw Error.invalidValue(name, reason: "expected numbers as values") }
                return number
            })
        case .tensor(let dataType, _):
            var shape = [Int]()
            var values = [Double]()
            try flatten(value, depth: 0, shape: &shape, into: &values, name: name)
            if dataType == .int32 {
                let integers = try values.map { value -> Int32 in
                    guard let integer = Int32(exactly: value) else { throw Error.invalidValue(name, reason: "\(value) is not a 32-bit whole number") }
                    return integer
                }
                return .int32Tensor(Tensor(shape: shape, scalars: integers))
            }
            // A number past Float's range would become infinity and every output NaN or 0: refuse it.
            if let tooLarge = values.first(where: { !Float($0).isFinite }) {
                throw Error.invalidValue(name, reason: "\(tooLarge) does not fit a 32-bit float (largest \(Float.greatestFiniteMagnitude))")
            }
            return .floatTensor(Tensor(shape: shape, scalars: values.map { Float($0) }))
        }
    }

    /// The most levels of arrays (or objects) one feature's value may nest: a multi-array has at most this many axes.
    static let deepestValue = 16
    private static let tooDeep = "arrays or objects nested deeper than \(deepestValue) levels"

    /// Refuses an input that nests deeper than the features object and ``deepestValue`` levels in it, naming the
    /// feature, before the JSON parser sees it: 100,000 nested `[` made the parser fail with a sentence about the
    /// whole document (or a recursive one overflow its stack). One pass without recursion; the feature is the last
    /// key read at the top level.
    private static func checkNesting(_ json: Data) throws {
        var depth = 0
        var inString = false, escaped = false
        var keyStart = 0, lastKey: Range<Int>? = nil
        for (offset, byte) in json.enumerated() {
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") {
                    inString = false
                    // A string that ends at the features object's own level is a feature name (or a value, which the
                    // parser would then refuse anyway).
                    if depth == 1 { lastKey = keyStart..<(offset + 1) }
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""):
                inString = true
                keyStart = offset
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                depth += 1
                guard depth <= deepestValue + 1 else {
                    guard let lastKey, json.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") else {
                        throw Error.notAnObject
                    }
                    let quoted = json.subdata(in: (json.startIndex + lastKey.lowerBound)..<(json.startIndex + lastKey.upperBound))
                    let name = (try? JSONSerialization.jsonObject(with: quoted, options: [.fragmentsAllowed])) as? String
                    throw Error.invalidValue(name ?? String(decoding: quoted, as: UTF8.self), reason: tooDeep)
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"): depth = max(0, depth - 1)
            default: break
            }
        }
    }

    /// A number or rectangular nested array as a shape and its values in row-major order.
    private static func flatten(_ value: Any, depth: Int, shape: inout [Int], into values: inout [Double], name: String) throws {
        guard depth <= deepestValue else { throw Error.invalidValue(name, reason: tooDeep) }
        if let array = value as? [Any] {
            if depth == shape.count {
                // A new axis only on the first descent: once a number has been read the shape is complete, and an
                // array where numbers were (`[1, [2, 3]]`) would make a shape that does not hold the values.
                guard values.isEmpty else {
                    throw Error.invalidValue(name, reason: "an array where a number was expected at depth \(depth + 1)")
                }
                shape.append(array.count)
            } else if shape[depth] != array.count {
                throw Error.invalidValue(name, reason: "rows of different lengths (\(shape[depth]) and \(array.count)) at depth \(depth + 1)")
            }
            guard !array.isEmpty else { throw Error.invalidValue(name, reason: "an empty array") }
            for item in array { try flatten(item, depth: depth + 1, shape: &shape, into: &values, name: name) }
            return
        }
        guard let number = number(value) else {
            throw Error.invalidValue(name, reason: "expected numbers or nested arrays of numbers")
        }
        if depth == 0 { shape = [1] } else if depth != shape.count {
            throw Error.invalidValue(name, reason: "a number where an array was expected at depth \(depth + 1)")
        }
        values.append(number)
    }

    /// A JSON number (not `true`/`false`, which JSONSerialization also hands out as NSNumber).
    private static func number(_ value: Any) -> Double? {
        guard !(value is String), let number = value as? NSNumber else { return nil }
        if String(cString: number.objCType) == "c" { return nil }
        return number.doubleValue
    }

    /// `{"outputs": {name: value}}` with tensors as nested arrays, keys sorted.
    /// - Throws: ``Error/nonFiniteOutput(_:reason:)`` for an output holding a NaN or an infinity, which JSON cannot
    ///   carry (Foundation's own error said only "the operation failed").
    public static func data(from output: FeatureProvider) throws -> Data {
        var outputs = [String: Any]()
        for name in output.featureNames.sorted() {
            guard let value = output.featureValue(for: name) else { continue }
            if let problem = nonFinite(value) { throw Error.nonFiniteOutput(name, reason: problem) }
            outputs[name] = jsonValue(value)
        }
        return try JSONSerialization.data(withJSONObject: ["outputs": outputs], options: [.sortedKeys])
    }

    /// Where `value` holds a NaN or an infinity, or nil when every number in it is finite.
    private static func nonFinite(_ value: FeatureValue) -> String? {
        let name = nonFiniteName
        switch value {
        case .floatTensor(let tensor):
            return tensor.scalars.firstIndex { !$0.isFinite }.map { "\(name(Double(tensor.scalars[$0]))) at flat index \($0) of shape \(tensor.shape)" }
        case .double(let double):
            return double.isFinite ? nil : name(double)
        case .dictionary(let dictionary):
            return dictionary.sorted { $0.key < $1.key }.first { !$0.value.isFinite }.map { "\(name($0.value)) for key '\($0.key)'" }
        case .int32Tensor, .string, .int:
            return nil
        }
    }

    static func jsonValue(_ value: FeatureValue) -> Any {
        switch value {
        case .floatTensor(let tensor): return nested(tensor.scalars.map { Double($0) }, shape: tensor.shape)
        case .int32Tensor(let tensor): return nested(tensor.scalars.map { Int($0) }, shape: tensor.shape)
        case .string(let string): return string
        case .int(let integer): return integer
        case .double(let double): return double
        case .dictionary(let dictionary): return dictionary
        }
    }

    private static func nested<T>(_ values: [T], shape: [Int]) -> Any {
        guard shape.count > 1 else { return values }
        let stride = shape.dropFirst().reduce(1, *)
        return (0..<shape[0]).map { nested(Array(values[($0 * stride)..<(($0 + 1) * stride)]), shape: Array(shape.dropFirst())) }
    }
}

/// A NaN or an infinity in words for a message: Swift prints a NaN whose sign bit is set (`log(-1)`) as "-nan".
func nonFiniteName(_ number: Double) -> String { number.isNaN ? "NaN" : number > 0 ? "infinity" : "-infinity" }
