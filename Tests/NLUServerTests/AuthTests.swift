import Foundation
import Testing
@testable import NLUServer

/// With a token: Bearer header or Rasa's ?token=; everything else 401 and nothing more.
@Suite("Token")
struct AuthTests {
    static let token = "s3cret-token"

    @Test func requestsWithoutTheTokenGet401AndLearnNothing() async throws {
        try await withTestServer(configure: { $0.token = Self.token }) { server in
            for (method, path) in [("POST", "/model/parse"), ("GET", "/status"), ("GET", "/metrics"), ("GET", "/no/such/route")] {
                let response = try await server.request(method, path, json: method == "POST" ? #"{"text": "turn on the radio"}"# : nil)
                #expect(response.status == 401)
                #expect(response.headers["www-authenticate"] == "Bearer")
                #expect(response.object?["error"] as? String == "unauthorized")
                #expect(!response.text.contains("intent"))
            }
            let wrong = try await server.request("POST", "/model/parse", headers: ["Authorization": "Bearer nope"],
                                           json: #"{"text": "turn on the radio"}"#)
            #expect(wrong.status == 401)
            let wrongQuery = try await server.request("GET", "/status?token=s3cret-tokenX")
            #expect(wrongQuery.status == 401)
        }
    }

    @Test func bearerHeaderAndRasaQueryTokenAreAccepted() async throws {
        try await withTestServer(configure: { $0.token = Self.token }) { server in
            let header = try await server.request("POST", "/model/parse", headers: ["Authorization": "Bearer \(Self.token)"],
                                            json: #"{"text": "turn on the radio"}"#)
            #expect(header.status == 200)
            let query = try await server.request("POST", "/model/parse?token=\(Self.token)", json: #"{"text": "turn on the radio"}"#)
            #expect(query.status == 200)
            #expect((query.object?["intent"] as? [String: Any])?["name"] as? String == "turn_on")
        }
    }

    /// RFC 9110 §11.1: an authentication scheme's name is case-insensitive.
    @Test(arguments: ["bearer", "BEARER", "bEaReR"])
    func bearerSchemeIsAcceptedInAnyCase(scheme: String) async throws {
        try await withTestServer(configure: { $0.token = Self.token }) { server in
            let response = try await server.request("POST", "/model/parse", headers: ["Authorization": "\(scheme) \(Self.token)"],
                                                    json: #"{"text": "turn on the radio"}"#)
            #expect(response.status == 200)
        }
    }

    @Test func bearerCredentialsAreReadAfterTheScheme() {
        #expect(AuthorizationHeader.bearerCredentials("bearer abc") == "abc")
        #expect(AuthorizationHeader.bearerCredentials("Bearer   abc") == "abc")
        #expect(AuthorizationHeader.bearerCredentials("Basic abc") == nil)
        #expect(AuthorizationHeader.bearerCredentials("Bearerabc") == nil)
    }

    @Test func healthVersionAndPageNeedNoToken() async throws {
        try await withTestServer(configure: { $0.token = Self.token }) { server in
            var statuses: [Int] = []
            for path in ["/health", "/version", "/"] { statuses.append(try await server.request("GET", path).status) }
            #expect(statuses == [200, 200, 200])
        }
    }

    @Test func tokenComparisonIsExact() {
        #expect(TokenComparison.constantTimeEqual("abc", "abc"))
        #expect(!TokenComparison.constantTimeEqual("abc", "abd"))
        #expect(!TokenComparison.constantTimeEqual("abc", "abcd"))
        #expect(!TokenComparison.constantTimeEqual("", "a"))
    }
}
