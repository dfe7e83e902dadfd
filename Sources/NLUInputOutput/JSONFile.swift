import Foundation

/// A JSON file (or request body) that parsed but does not hold what was expected, or did not
/// parse: names the file, the field as a JSON path (`config.hiddenSize`, `data[0].qas[1].id`)
/// and what was expected, never Foundation's own text.
public struct JSONFileError: Error, Equatable, CustomStringConvertible, LocalizedError {
    /// The file (or "request body") at fault.
    public var file: String
    /// The field as a JSON path; empty for the document as a whole.
    public var field: String
    public var reason: String

    public init(file: String, field: String, reason: String) {
        self.file = file
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(file): " + (field.isEmpty ? reason : "field '\(field)': \(reason)") }
    public var errorDescription: String? { description }
}

/// Decodes JSON with errors that say where: one place for every reader (model manifests,
/// safetensors headers, config.json, SQuAD, datasets, server bodies).
///
/// Foundation's decoder reports a number that does not fit the expected type (4.5 or 1e30 for an
/// integer) as "not valid JSON" for the whole document; this finds the field by elimination.
///
///     let config = try JSONFile.decode(BertConfiguration.self, from: data, file: url.path)
///     // .../config.json: field 'num_attention_heads': 4.5 is not a whole number in range
public enum JSONFile {
    /// Decodes `type` from `data`.
    /// - Throws: ``JSONFileError`` naming `file` and the field.
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data, file: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch where isDecoderError(error) {
            let (field, reason) = describe(anyError: error, decoding: type, from: data)
            throw JSONFileError(file: file, field: field, reason: reason)
        }
    }

    /// The field and reason for any error raised while decoding `type` from `data`. Foundation's
    /// decoder sometimes lets its internal error out (`numberIsNotRepresentableInSwift`, from a
    /// nested decode): it is described like the document-level "not valid JSON" it stands for.
    /// Whether `error` comes from Foundation's JSON decoder (a `DecodingError`, or its internal `JSONError`),
    /// as opposed to an error a type's own `init(from:)` threw on purpose.
    public static func isDecoderError(_ error: any Error) -> Bool {
        error is DecodingError || String(reflecting: type(of: error)).hasSuffix("JSONError")
    }

    public static func describe<T: Decodable>(anyError error: any Error, decoding type: T.Type, from data: Data) -> (field: String, reason: String) {
        if let error = error as? DecodingError { return describe(error, decoding: type, from: data) }
        return syntaxOrNumberProblem(decoding: type, from: data)
    }

    /// The field (a JSON path) and a plain reason for `error`, raised while decoding `type` from `data`.
    public static func describe<T: Decodable>(_ error: DecodingError, decoding type: T.Type, from data: Data) -> (field: String, reason: String) {
        switch error {
        case let .keyNotFound(key, context):
            return (path(context.codingPath + [key]), "missing")
        case let .typeMismatch(expected, context):
            return (path(context.codingPath), "expected \(jsonName(expected))\(found(at: context.codingPath, in: data))")
        case let .valueNotFound(expected, context):
            return (path(context.codingPath), "expected \(jsonName(expected)), found null")
        case let .dataCorrupted(context) where !context.codingPath.isEmpty:
            return (path(context.codingPath), context.debugDescription)
        case .dataCorrupted:
            return syntaxOrNumberProblem(decoding: type, from: data)
        @unknown default:
            return ("", "cannot be decoded")
        }
    }

    /// `codingPath` as a JSON path: keys joined by ".", array positions as "[i]".
    public static func path(_ codingPath: [any CodingKey]) -> String {
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text
    }

    /// "an integer", "a string"… for the types readers decode.
    public static func jsonName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Int.Type, is Int32.Type, is Int64.Type, is UInt.Type, is UInt32.Type, is UInt64.Type, is Int16.Type,
             is UInt16.Type, is Int8.Type, is UInt8.Type: return "an integer"
        case is Double.Type, is Float.Type: return "a number"
        case is Bool.Type: return "true or false"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") || name.hasPrefix("Set") { return "an array" }
            return "an object"
        }
    }

    /// ", found a string" — what the document holds at `codingPath`, when it can be told.
    private static func found(at codingPath: [any CodingKey], in data: Data) -> String {
        guard var value = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else { return "" }
        for key in codingPath {
            if let index = key.intValue, let array = value as? [Any], array.indices.contains(index) {
                value = array[index]
            } else if let object = value as? [String: Any], let child = object[key.stringValue] {
                value = child
            } else {
                return ""
            }
        }
        switch value {
        case is String: return ", found a string"
        case is [Any]: return ", found an array"
        case is [String: Any]: return ", found an object"
        case is NSNull: return ", found null"
        case let number as NSNumber:
            return isBoolean(number) ? ", found \(number.boolValue)" : ", found \(number)"
        default: return ""
        }
    }

    /// A document-level "not valid JSON": a real syntax error (with its line and column), or a
    /// number Foundation could not convert, found by replacing candidates until decoding gets past it.
    private static func syntaxOrNumberProblem<T: Decodable>(decoding type: T.Type, from data: Data) -> (field: String, reason: String) {
        let root: Any
        do {
            root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            return ("", "not valid JSON (\(syntaxErrorLocation(error, data: data)))")
        }
        var candidates: [(path: [PathElement], number: NSNumber)] = []
        collectNumbers(root, path: [], into: &candidates)
        let suspicious = candidates.filter { candidate in
            let value = candidate.number.doubleValue
            return !value.isFinite || value.rounded() != value || abs(value) >= 9.2e18 || value > Double(Float.greatestFiniteMagnitude)
        }
        for candidate in suspicious.prefix(64) {
            let replaced = replacing(root, at: candidate.path[...], with: 1)
            guard let patched = try? JSONSerialization.data(withJSONObject: replaced, options: [.fragmentsAllowed]) else { continue }
            do {
                _ = try JSONDecoder().decode(type, from: patched)
            } catch let DecodingError.dataCorrupted(context) where context.codingPath.isEmpty {
                continue  // still the same problem: this number was not it
            } catch where isDecoderError(error) && !(error is DecodingError) {
                continue  // Foundation's internal error for the same problem
            } catch {
                // Another error (a later field, or the type's own validation of the 1 put there): past it.
            }
            let shown = candidate.path.map { element -> String in
                switch element { case .key(let key): return key; case .index(let index): return "[\(index)]" }
            }.reduce("") { $0 + ($1.hasPrefix("[") || $0.isEmpty ? $1 : "." + $1) }
            return (shown, "\(candidate.number) does not fit the expected type (a whole number, or a number in range)")
        }
        return ("", "a value does not fit its expected type (a number too large, or a fraction where a whole number is expected)")
    }

    /// JSONSerialization's true and false are NSNumbers whose type code is "c" (`is Bool` also holds for 0 and 1).
    private static func isBoolean(_ number: NSNumber) -> Bool { String(cString: number.objCType) == "c" }

    private enum PathElement { case key(String), index(Int) }

    private static func collectNumbers(_ value: Any, path: [PathElement], into result: inout [(path: [PathElement], number: NSNumber)]) {
        switch value {
        case let object as [String: Any]:
            for key in object.keys.sorted() { collectNumbers(object[key]!, path: path + [.key(key)], into: &result) }
        case let array as [Any]:
            for (index, element) in array.enumerated() { collectNumbers(element, path: path + [.index(index)], into: &result) }
        case let number as NSNumber where !isBoolean(number):
            result.append((path, number))
        default:
            break
        }
    }

    private static func replacing(_ value: Any, at path: ArraySlice<PathElement>, with replacement: Any) -> Any {
        guard let first = path.first else { return replacement }
        switch (first, value) {
        case let (.key(key), object as [String: Any]):
            var copy = object
            if let child = object[key] { copy[key] = replacing(child, at: path.dropFirst(), with: replacement) }
            return copy
        case let (.index(index), array as [Any]) where array.indices.contains(index):
            var copy = array
            copy[index] = replacing(array[index], at: path.dropFirst(), with: replacement)
            return copy
        default:
            return value
        }
    }

    /// "line 3, column 7: Invalid value" from Foundation's "Invalid value around character 31."; for
    /// Foundation's messages without a position ("Unexpected end of file during JSON parse.", a lone
    /// surrogate, a number out of range) our own scanner's account, with the line (and column).
    public static func syntaxErrorLocation(_ error: Error, data: Data) -> String {
        let nsError = error as NSError
        let debug = (nsError.userInfo["NSDebugDescription"] as? String) ?? ""
        guard let range = debug.range(of: "character "),
              let offset = Int(debug[range.upperBound...].prefix { $0.isNumber }) else {
            if data.allSatisfy({ [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains($0) }) {
                return "the file is empty"
            }
            if let problem = JSONSyntaxProblem.find(in: data) { return problem.description }
            // The scanner found nothing: a number Foundation holds in no type (an underflow), or a
            // disagreement; Foundation's own sentence never reaches the user either way.
            if let range = debug.range(of: " is not representable in Swift") {
                return "the " + debug[..<range.lowerBound].lowercased() + " is out of range"
            }
            return "the text is not JSON"
        }
        var line = 1, column = 1
        for byte in data.prefix(offset) {
            if byte == UInt8(ascii: "\n") { line += 1; column = 1 } else if byte & 0xC0 != 0x80 { column += 1 }
        }
        let message = debug.replacingOccurrences(of: " around character \(offset)", with: "")
            .trimmingCharacters(in: CharacterSet(charactersIn: ". "))
        return "line \(line), column \(column): \(message)"
    }
}
