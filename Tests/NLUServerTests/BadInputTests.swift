import Foundation
import Testing
@testable import NLUServer

/// Malformed bodies, wrong types, unknown routes and methods, oversized bodies: each gets a JSON
/// error `{"error", "message"}` with the right status, and the server keeps answering.
@Suite("Bad input")
struct BadInputTests {
    func expectError(_ response: RawHTTPResponse, status: Int, error: String, message: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(response.object?["error"] as? String == error, sourceLocation: sourceLocation)
        if let message { #expect(response.object?["message"] as? String == message, sourceLocation: sourceLocation) }
    }

    @Test func missingFieldIsNamed() async throws {
        try await withTestServer { server in
            expectError(try await server.request("POST", "/model/parse", json: #"{"txt": "hello"}"#),
                        status: 400, error: "bad_request", message: "missing field 'text'")
        }
    }

    @Test func wrongTypeIsNamedWithWhatWasExpected() async throws {
        try await withTestServer { server in
            expectError(try await server.request("POST", "/model/parse", json: #"{"text": 42}"#),
                        status: 400, error: "bad_request", message: "field 'text': expected a string")
            expectError(try await server.request("POST", "/model/parse", json: #"{"text": null}"#),
                        status: 400, error: "bad_request", message: "field 'text': expected a string, got null")
            expectError(try await server.request("POST", "/model/parse", json: #"["text"]"#),
                        status: 400, error: "bad_request", message: "the body: expected an object")
        }
    }

    @Test func malformedJSONAndEmptyBodiesAre400() async throws {
        try await withTestServer { server in
            let malformed = try await server.request("POST", "/model/parse", json: #"{"text": "unterminated"#)
            expectError(malformed, status: 400, error: "bad_request")
            #expect(malformed.object?["message"] as? String == "malformed JSON: not valid JSON (ends in the middle of a value at line 1)")
            expectError(try await server.request("POST", "/model/parse", json: "{\"text\":\n \"turn on\",\n"), status: 400, error: "bad_request",
                        message: "malformed JSON: not valid JSON (ends in the middle of a value at line 2)")
            let empty = try RawHTTPConnection(port: server.port)
            empty.sendRequest("POST", "/model/parse", body: [])
            expectError(try await empty.response(), status: 400, error: "bad_request",
                        message: "the request body is empty; expected a JSON object")
        }
    }

    @Test func nonUTF8BodyIs400() async throws {
        try await withTestServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.sendRequest("POST", "/model/parse", headers: ["Content-Type": "application/json"],
                                   body: Array(#"{"text": ""#.utf8) + [0xC3, 0x28, 0xFF] + Array(#""}"#.utf8))
            expectError(try await connection.response(), status: 400, error: "bad_request",
                        message: "the request body is not valid UTF-8; expected a JSON object")
        }
    }

    @Test func tenThousandNestedArraysAre400NotAStackOverflow() async throws {
        try await withTestServer { server in
            let nested = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
            let response = try await server.request("POST", "/model/parse", json: nested)
            expectError(response, status: 400, error: "bad_request")
            let nestedField = #"{"text": "#.appending(nested) + "}"
            expectError(try await server.request("POST", "/model/parse", json: nestedField), status: 400, error: "bad_request")
            // Still serving.
            let health = try await server.request("GET", "/health")
            #expect(health.status == 200)
        }
    }

    @Test func unknownRouteIs404AndWrongMethodIs405WithAllow() async throws {
        try await withTestServer { server in
            expectError(try await server.request("GET", "/v2/nothing"), status: 404, error: "not_found", message: "no route /v2/nothing")
            let wrongMethod = try await server.request("GET", "/model/parse")
            expectError(wrongMethod, status: 405, error: "method_not_allowed",
                        message: "/model/parse does not accept GET; it accepts POST")
            #expect(wrongMethod.headers["allow"] == "POST")
            expectError(try await server.request("DELETE", "/health", json: "{}"), status: 405, error: "method_not_allowed")
        }
    }

    @Test func bodyDeclaredOverTheLimitGets413BeforeItIsSent() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = 1000 }) { server in
            // Only the head is sent: the server must answer from the declared length alone, then close.
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\n\r\n")
            expectError(try await connection.response(), status: 413, error: "body_too_large",
                        message: "the request body of 50000000 bytes is over this server's limit of 1000 bytes (--max-body)")
            let closed = await connection.closes()
            #expect(closed)
        }
    }

    @Test func chunkedBodyGrowingOverTheLimitGets413() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = 1000 }) { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "a", count: 600)
            connection.send("258\r\n\(chunk)\r\n")
            connection.send("258\r\n\(chunk)\r\n")
            expectError(try await connection.response(), status: 413, error: "body_too_large",
                        message: "the request body of more than 1000 bytes, sent in chunks, is over this server's limit of 1000 bytes (--max-body)")
            let closed = await connection.closes()
            #expect(closed)
        }
    }

    @Test func bodyJustUnderTheLimitIsRead() async throws {
        try await withTestServer(configure: { $0.maxBodyBytes = 1000 }) { server in
            let text = String(repeating: "a", count: 1000 - #"{"text":""}"#.utf8.count)
            let response = try await server.request("POST", "/model/parse", json: #"{"text":"\#(text)"}"#)
            #expect(response.status == 200)
        }
    }
}
