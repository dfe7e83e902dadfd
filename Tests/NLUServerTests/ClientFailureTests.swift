import Foundation
import Testing
@testable import NLUServer

/// Requests that fail on the client's side — a body that stops short, bytes the HTTP parser refuses,
/// a head over the limits — are client errors: a JSON 4xx answer, counted as such in `/metrics`,
/// never a 500.
@Suite("Client failures")
struct ClientFailureTests {
    /// The `nlu_http_requests_total` lines of `/metrics`.
    static func requestCounts(_ server: TestServer) async throws -> [Substring] {
        try await server.request("GET", "/metrics").text.split(separator: "\n").filter { $0.hasPrefix("nlu_http_requests_total{") }
    }

    static func expectJSONError(_ response: RawHTTPResponse, status: Int, error: String,
                                sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == status, sourceLocation: sourceLocation)
        #expect(response.headers["content-type"] == "application/json", sourceLocation: sourceLocation)
        #expect(response.object?["error"] as? String == error, sourceLocation: sourceLocation)
        #expect((response.object?["message"] as? String)?.isEmpty == false, sourceLocation: sourceLocation)
    }

    @Test func bodyStallingShortOfItsLengthIs408NotA500() async throws {
        try await withTestServer(configure: { $0.requestTimeout = 0.5 }) { server in
            let connection = try RawHTTPConnection(port: server.port, readTimeout: 20)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"text\":")
            let response = try await connection.response()
            Self.expectJSONError(response, status: 408, error: "request_timeout")
            #expect(response.object?["message"] as? String
                    == "the request did not arrive whole within the server's --timeout of 0.5 seconds")
            #expect(response.headers["connection"] == "close")
            #expect(await connection.closes())
            let counts = try await Self.requestCounts(server)
            #expect(counts.contains { $0.contains(#"route="/model/parse""#) && $0.contains(#"status="408""#) })
            #expect(!counts.contains { $0.contains(#"status="500""#) })
        }
    }

    @Test func clientEndingInsideItsBodyIsCountedAs400() async throws {
        try await withTestServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"text\":")
            connection.finishSending()
            _ = await connection.closes()
            var counts: [Substring] = []
            for _ in 0..<200 {
                counts = try await Self.requestCounts(server)
                if counts.contains(where: { $0.contains(#"route="/model/parse""#) }) { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            #expect(counts.contains { $0.contains(#"route="/model/parse""#) && $0.contains(#"status="400""#) })
            #expect(!counts.contains { $0.contains(#"status="500""#) })
        }
    }

    @Test(arguments: ["zzzz", "ffffffffffffffffff"])
    func malformedChunkSizeIs400(size: String) async throws {
        try await withTestServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.send("POST /model/parse HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n\(size)\r\n{\"text\": \"hi\"}\r\n0\r\n\r\n")
            let response = try await connection.response()
            Self.expectJSONError(response, status: 400, error: "bad_request")
            #expect(response.object?["message"] as? String
                    == "the chunked request body is malformed: a chunk size is not a hexadecimal number of bytes")
            let counts = try await Self.requestCounts(server)
            #expect(!counts.contains { $0.contains(#"status="500""#) })
        }
    }

    /// Refused by the parser before there is a request to route: the same JSON error shape all the same.
    @Test(arguments: [
        ("garbage", "\u{1}\u{2} nonsense\r\n\r\n", 400, "bad_request"),
        ("unknown method", "FROB /health HTTP/1.1\r\nHost: x\r\n\r\n", 400, "bad_request"),
        ("200 KB header", "GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 200_000))\r\n\r\n", 431, "headers_too_large"),
        ("20k headers", "GET /health HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-A: b\r\n", count: 20_000) + "\r\n", 431, "headers_too_large"),
    ])
    func requestsTheParserRefusesGetAJSONError(name: String, request: String, status: Int, error: String) async throws {
        try await withTestServer { server in
            let connection = try RawHTTPConnection(port: server.port)
            connection.send(request)
            let response = try await connection.response()
            Self.expectJSONError(response, status: status, error: error)
            #expect(response.headers["connection"] == "close")
            #expect(await connection.closes())
            let health = try await server.request("GET", "/health")
            #expect(health.status == 200)
        }
    }
}
