import Foundation
import Hummingbird

/// JSON responses: the encoded value with `Content-Type: application/json`.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
enum JSONResponse {
    static func make<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        let data = try encoder.encode(value)
        var fields = headers
        fields[.contentType] = "application/json"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// The response for an ``APIError``.
    static func make(_ error: APIError) -> Response {
        var fields = error.headers
        fields[.contentType] = "application/json"
        return Response(status: error.status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body(of: error))))
    }

    /// The JSON body `{"error", "message"}` of an ``APIError`` (also written by channel handlers,
    /// which answer before there is a `Response`).
    static func body(of error: APIError) -> Data {
        struct Body: Encodable { var error: String; var message: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        // Encoding two strings cannot fail; the fallback is still the same shape.
        return (try? encoder.encode(Body(error: error.error, message: error.message)))
            ?? Data(#"{"error":"internal_error","message":"cannot encode the error"}"#.utf8)
    }
}
