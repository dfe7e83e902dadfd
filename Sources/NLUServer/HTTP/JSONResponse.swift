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
        struct Body: Encodable { var error: String; var message: String }
        // Encoding two strings cannot fail; the fallback keeps the status even so.
        return (try? make(Body(error: error.error, message: error.message), status: error.status, headers: error.headers))
            ?? Response(status: error.status, headers: error.headers)
    }
}
