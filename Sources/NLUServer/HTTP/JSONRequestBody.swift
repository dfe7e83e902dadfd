import Foundation
import Hummingbird
import NIOCore
import NLUCore
import NLUInputOutput

/// Reads a request's JSON body within the size limit and decodes it, turning every way it can be
/// wrong into a 400/413 ``APIError`` that says what was expected.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum JSONRequestBody {
    /// The request body as bytes: 413 as soon as the declared length or the bytes received pass
    /// `limit` (the rest is not read: the connection is closed after the answer).
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > limit {
            throw APIError.bodyTooLarge(limit: limit, declared: declared)
        }
        do {
            return try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw APIError.bodyTooLarge(limit: limit, declared: nil)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw APIError.bodyTooLarge(limit: limit, declared: nil)
        }
    }

    /// Decodes `T` from the request's body, the decoder's `userInfo` set to `userInfo` (limits a
    /// type checks while it decodes).
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int,
                                     userInfo: [CodingUserInfoKey: any Sendable] = [:]) async throws -> T {
        let buffer = try await collect(request, limit: limit)
        return try decode(type, from: Data(buffer: buffer), userInfo: userInfo)
    }

    /// Decodes `T` from `data`: 400 naming the field for missing fields and wrong types, and saying
    /// where the JSON breaks for malformed or non-UTF-8 bodies.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data, userInfo: [CodingUserInfoKey: any Sendable] = [:]) throws -> T {
        guard !data.isEmpty else { throw APIError.badRequest("the request body is empty; expected a JSON object") }
        guard String(validating: data, as: UTF8.self) != nil else {
            throw APIError.badRequest("the request body is not valid UTF-8; expected a JSON object")
        }
        do {
            let decoder = JSONDecoder()
            decoder.userInfo = userInfo
            return try decoder.decode(type, from: data)
        } catch let error as DecodingError {
            throw APIError.badRequest(message(for: error, decoding: type, from: data))
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.badRequest("malformed JSON")
        }
    }

    /// A message naming the field (as a JSON path: `inputs.question`, `input[2]`) for a decoding error.
    static func message<T: Decodable>(for error: DecodingError, decoding decodedType: T.Type, from body: Data) -> String {
        func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
            var text = ""
            for key in codingPath + (last.map { [$0] } ?? []) {
                if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
            }
            return text.isEmpty ? "the body" : "field '\(EchoedValue.prefix(text))'"
        }
        func typeName(_ type: Any.Type) -> String {
            switch type {
            case is String.Type: return "a string"
            case is Bool.Type: return "true or false"
            case is Int.Type, is Double.Type, is Float.Type: return "a number"
            default:
                let name = "\(type)"
                if name.hasPrefix("Array") { return "an array" }
                return "an object"
            }
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "missing \(path(context.codingPath, key))"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)): expected \(typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)): expected \(typeName(type)), got null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                // A syntax error, or a number that does not fit its field (Foundation loses the field).
                let (field, reason) = JSONFile.describe(error, decoding: decodedType, from: body)
                // The field path can hold the client's own keys (the reason quotes at most a number, as a Double prints it).
                return field.isEmpty ? (reason.hasPrefix("not valid JSON") ? "malformed JSON: \(reason)" : reason)
                    : "field '\(EchoedValue.prefix(field))': \(reason)"
            }
            // Foundation's own description may quote the value (a number literal of any length).
            return "\(path(context.codingPath)): \(EchoedValue.prefix(context.debugDescription))"
        @unknown default:
            return "malformed JSON: \(error)"
        }
    }
}
