import Foundation
import NLUFuzzSupport
import Testing
@testable import NLUServer

/// Mutated request bodies for every route that reads one (wrong values in well-formed JSON, broken
/// syntax, invalid UTF-8, huge numbers) get 200 or a 4xx JSON error `{"error", "message"}` whose
/// message names the field or the body without raw Foundation text — never a 500, a dropped
/// connection or a server that stops answering.
@Suite("Request body fuzzing")
struct RequestBodyFuzzTests {
    static let bodies: [(path: String, body: String)] = [
        ("/model/parse", #"{"text": "turn on the radio"}"#),
        ("/question-answering", #"{"inputs": {"question": "Who jumped?", "context": "The quick brown fox jumps over the lethargic dog."}, "parameters": {"top_k": 2}}"#),
        ("/embed", #"{"inputs": ["a first text", "a second one"], "normalize": true}"#),
        ("/v1/embeddings", #"{"input": ["a first text"], "model": "m", "encoding_format": "float"}"#),
    ]

    @Test func mutatedBodiesGetAnAnswerOrAClearClientError() async throws {
        try await withTestServer { server in
            for (path, body) in Self.bodies {
                var mutator = Mutator(seed: "server" + path)
                let original = Array(body.utf8)
                for number in 0..<FuzzCases.count(default: 60) {
                    let mutated = mutator.mutateJSON(original)
                    let response = try await server.request("POST", path, json: String(decoding: mutated, as: UTF8.self))
                    let context = "\(path) case \(number): \(String(decoding: mutated.prefix(200), as: UTF8.self))"
                    if response.status == 200 { continue }
                    #expect((400..<500).contains(response.status), "\(context): status \(response.status)")
                    let message = response.object?["message"] as? String ?? ""
                    #expect(!message.isEmpty, "\(context): no message")
                    if let raw = FuzzCases.rawErrorText.first(where: { message.contains($0) }) {
                        Issue.record("\(context): raw '\(raw)' in \(message)")
                    }
                }
            }
            // Still answering after all that.
            #expect(try await server.request("POST", "/model/parse", json: #"{"text": "turn on the radio"}"#).status == 200)
        }
    }

    /// Request heads as a hostile client writes them: every method NIO's parser accepts, invented paths, HTTP/1.0 and
    /// 1.1, `Connection` absent, `close` or `keep-alive` in any case. Each gets an answer; one the client did not ask to
    /// keep says `Connection: close` and is closed after its response (HTTP/1.0 connections stayed open until the idle
    /// timeout); and `/metrics` keeps its labels to the known methods and routes (34 methods × 10 paths made 6,540
    /// new lines).
    @Test func mutatedRequestHeadsCloseWhatTheyShouldAndKeepMetricLabelsBounded() async throws {
        // Not HEAD: its answer declares a body it does not send, which the raw reader would wait for.
        let methods = ["GET", "POST", "PUT", "DELETE", "OPTIONS", "TRACE", "PATCH", "COPY", "LOCK", "MKCOL", "MOVE",
                       "PROPFIND", "PROPPATCH", "SEARCH", "UNLOCK", "BIND", "REBIND", "UNBIND", "ACL", "REPORT", "MKACTIVITY",
                       "CHECKOUT", "MERGE", "M-SEARCH", "NOTIFY", "SUBSCRIBE", "UNSUBSCRIBE", "PURGE", "MKCALENDAR", "LINK",
                       "UNLINK", "SOURCE", "QUERY"]
        let paths = RouteTable.all.map(\.path) + ["/", "/a", "/model/parse/x", "/embed?x=1", "/%2e%2e/etc", "/v1/../health"]
        try await withTestServer { server in
            let port = server.port
            var mutator = Mutator(seed: "server heads")
            for number in 0..<FuzzCases.count(default: 60) {
                let method = methods[mutator.int(0...(methods.count - 1))]
                let path = paths[mutator.int(0...(paths.count - 1))] + (mutator.int(0...3) == 0 ? "/n\(number)" : "")
                let version = mutator.int(0...1) == 0 ? "HTTP/1.0" : "HTTP/1.1"
                let connection = ["", "close", "Close", "keep-alive", "Keep-Alive", "keep-alive, CLOSE"][mutator.int(0...5)]
                let tokens = connection.lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                let kept = !tokens.contains("close") && (version == "HTTP/1.1" || tokens.contains("keep-alive"))
                let head = "\(method) \(path) \(version)\r\nHost: x\r\n" + (connection.isEmpty ? "" : "Connection: \(connection)\r\n") + "\r\n"
                let (response, closed) = try await offThePool {
                    let raw = try RawHTTPConnection(port: port, readTimeout: kept ? 10 : 5)
                    raw.send(head)
                    let response = try raw.readResponse()
                    return (response, kept ? false : raw.waitForClose())
                }
                let context = "case \(number): \(head.debugDescription)"
                #expect(response.status >= 200 && response.status < 500, "\(context): status \(response.status)")
                if !kept {
                    #expect(response.headers["connection"]?.lowercased() == "close", "\(context): \(response.headers)")
                    #expect(closed, "\(context): the connection stayed open after its response")
                }
            }
            let lines = try await MetricsLabelTests.metricLines(server)
            let labelled = MetricsLabelTests.values(of: "method", in: lines)
            #expect(labelled.isSubset(of: ["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "other"]), "\(labelled)")
            let routes = MetricsLabelTests.values(of: "route", in: lines)
            #expect(routes.isSubset(of: Set(RouteTable.all.map(\.path) + ["other"])), "\(routes)")
        }
    }
}
