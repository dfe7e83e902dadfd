import Foundation
import Testing
@testable import NLUServer

/// Connections the client did not ask to keep: closed after their response, which says so.
/// The server's idle timeout is left at its 30 s default, so a close within 2 s is the server
/// honouring the request, not the timeout.
@Suite("Keep-alive")
struct KeepAliveTests {
    /// Sends `head` (a whole request without a body) on a new connection, reads the response, then
    /// waits up to 2 s for the server to close. Returns the response and whether it closed.
    static func answerThenClose(port: Int, _ head: String) async throws -> (RawHTTPResponse, closed: Bool) {
        try await offThePool {
            let connection = try RawHTTPConnection(port: port, readTimeout: 2)
            connection.send(head)
            let response = try connection.readResponse()
            return (response, connection.waitForClose())
        }
    }

    @Test func http10RequestWithoutKeepAliveIsClosedAfterItsResponse() async throws {
        try await withTestServer { server in
            let (response, closed) = try await Self.answerThenClose(port: server.port, "GET /health HTTP/1.0\r\n\r\n")
            #expect(response.status == 200)
            #expect(response.headers["connection"] == "close")
            #expect(closed, "an HTTP/1.0 connection without keep-alive stayed open after its response")
        }
    }

    @Test func connectionCloseInAnyCaseClosesAfterTheResponse() async throws {
        try await withTestServer { server in
            let body = #"{"text": "turn on the radio"}"#
            for value in ["close", "Close", "keep-alive, CLOSE"] {
                let (response, closed) = try await Self.answerThenClose(
                    port: server.port, "POST /model/parse HTTP/1.1\r\nHost: x\r\nConnection: \(value)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                #expect(response.status == 200, "Connection: \(value)")
                #expect(response.headers["connection"] == "close", "Connection: \(value)")
                #expect(closed, "Connection: \(value) stayed open")
            }
        }
    }

    /// An HTTP/1.0 client asking for keep-alive is told it is kept (HTTP/1.0 clients close
    /// otherwise), and its connection answers a second request.
    @Test func http10RequestWithKeepAliveIsKept() async throws {
        try await withTestServer { server in
            let port = server.port
            let (first, second) = try await offThePool {
                let connection = try RawHTTPConnection(port: port, readTimeout: 10)
                connection.send("GET /health HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                let first = try connection.readResponse()
                connection.send("GET /version HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                return (first, try connection.readResponse())
            }
            #expect(first.status == 200 && second.status == 200)
            #expect(first.headers["connection"] == "keep-alive")
            #expect(second.object?["server"] as? String == "nlukit")
        }
    }

    /// HTTP/1.1 stays kept alive by default, and says nothing about it.
    @Test func http11RequestIsKeptWithoutAConnectionHeader() async throws {
        try await withTestServer { server in
            let port = server.port
            let (first, second) = try await offThePool {
                let connection = try RawHTTPConnection(port: port, readTimeout: 10)
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                let first = try connection.readResponse()
                connection.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
                return (first, try connection.readResponse())
            }
            #expect(first.status == 200 && second.status == 200)
            #expect(first.headers["connection"] == nil)
        }
    }
}
