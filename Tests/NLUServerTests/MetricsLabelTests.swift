import Foundation
import Testing
@testable import NLUServer

/// `/metrics` labels are bounded: a client sending every method NIO's parser knows to made-up paths
/// cannot grow the metric set (each method made a new series per route and status: 20 lines each).
@Suite("Metrics labels")
struct MetricsLabelTests {
    /// Methods NIO's HTTP/1 parser accepts that the server does not route (WebDAV, caching, ...).
    static let unusualMethods = ["PROPFIND", "MKCOL", "COPY", "MOVE", "LOCK", "UNLOCK", "PURGE", "REPORT", "SEARCH",
                                 "PROPPATCH", "MKCALENDAR", "SUBSCRIBE", "UNSUBSCRIBE", "NOTIFY", "LINK", "UNLINK"]

    static func metricLines(_ server: TestServer) async throws -> [String] {
        let response = try await server.request("GET", "/metrics")
        // The scrape itself is counted from the second one on: its own series are left out.
        return response.text.split(separator: "\n").map(String.init).filter { !$0.hasPrefix("#") && !$0.contains(#"route="/metrics""#) }
    }

    /// The label values of `label` over the request counters.
    static func values(of label: String, in lines: [String]) -> Set<String> {
        Set(lines.filter { $0.hasPrefix("nlu_http_requests_total{") }.compactMap { line in
            line.range(of: "\(label)=\"").flatMap { start in
                line[start.upperBound...].firstIndex(of: "\"").map { String(line[start.upperBound..<$0]) }
            }
        })
    }

    @Test func unknownMethodsAndPathsShareTheOtherLabel() async throws {
        try await withTestServer { server in
            func send(_ methods: ArraySlice<String>, paths: [String]) async throws {
                for method in methods {
                    for path in paths { _ = try await server.request(method, path) }
                }
            }
            try await send(Self.unusualMethods.prefix(8), paths: ["/a", "/model/parse", "/health"])
            let first = try await Self.metricLines(server)
            // New methods and new paths: no new series.
            try await send(Self.unusualMethods.dropFirst(8), paths: ["/b", "/c/d", "/model/parse", "/health"])
            let second = try await Self.metricLines(server)
            #expect(second.count == first.count, "the metric set grew from \(first.count) to \(second.count) lines")
            let methods = Self.values(of: "method", in: second)
            #expect(methods.isSubset(of: ["GET", "POST", "HEAD", "OPTIONS", "PUT", "DELETE", "PATCH", "other"]), "\(methods)")
            #expect(methods.contains("other"))
            let routes = Self.values(of: "route", in: second)
            #expect(routes.isSubset(of: Set(RouteTable.all.map(\.path) + ["other"])), "\(routes)")
            #expect(routes.contains("other") && routes.contains("/model/parse"))
        }
    }

    @Test func knownMethodsKeepTheirNames() async throws {
        try await withTestServer { server in
            _ = try await server.request("DELETE", "/health")
            _ = try await server.request("PATCH", "/nowhere")
            let lines = try await Self.metricLines(server)
            #expect(lines.contains { $0.hasPrefix(#"nlu_http_requests_total{route="/health",method="DELETE",status="405"}"#) })
            #expect(lines.contains { $0.hasPrefix(#"nlu_http_requests_total{route="other",method="PATCH",status="404"}"#) })
        }
    }
}
