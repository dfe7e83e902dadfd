import Foundation
import NLUCore
import NLUInputOutput

/// Reads JSON from dataset files with errors that say where: `line L, column C` for malformed JSON
/// (Foundation reports only a character offset), the field path for a missing or mistyped field.
enum JSONInput {
    /// Decodes `type` from `data`, turning Foundation's errors into ``IntentDatasetError/malformedJSON(file:detail:)``.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws -> T {
        try NestingLimits.checkJSON(data, file: file)
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw IntentDatasetError.malformedJSON(file: file, detail: describe(error, decoding: type, data: data))
        }
    }

    /// Parses `data` into Foundation objects (for format detection and loosely typed formats).
    static func object(from data: Data, file: String) throws -> Any {
        try NestingLimits.checkJSON(data, file: file)
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw IntentDatasetError.malformedJSON(file: file, detail: syntaxErrorLocation(error, data: data))
        }
    }

    private static func describe<T: Decodable>(_ error: DecodingError, decoding type: T.Type, data: Data) -> String {
        func path(_ codingPath: [CodingKey]) -> String {
            var result = ""
            for key in codingPath {
                if let index = key.intValue { result += "[\(index)]" } else { result += (result.isEmpty ? "" : ".") + key.stringValue }
            }
            return result.isEmpty ? "top level" : result
        }
        switch error {
        case let .keyNotFound(key, context):
            let owner = path(context.codingPath)
            return "missing field '\(key.stringValue)' in \(owner)"
        case let .typeMismatch(type, context):
            return "at \(path(context.codingPath)): expected \(typeName(type))"
        case let .valueNotFound(type, context):
            return "at \(path(context.codingPath)): expected \(typeName(type)), found null"
        case let .dataCorrupted(context):
            if context.codingPath.isEmpty {
                // A syntax error (with its line and column), or a number that does not fit its field.
                let (field, reason) = JSONFile.describe(error, decoding: type, from: data)
                return field.isEmpty ? reason : "at \(field): \(reason)"
            }
            return "at \(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "\(error)"
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Double.Type: return "a number"
        case is Bool.Type: return "a boolean"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") { return "an object" }
            return "an object"
        }
    }

    /// "line 3, column 7: Invalid value" from Foundation's "Invalid value around character 31."
    static func syntaxErrorLocation(_ error: Error, data: Data) -> String {
        JSONFile.syntaxErrorLocation(error, data: data)
    }
}
