import Foundation
import Testing
@testable import NLUServer

/// Addresses the server cannot listen on are reported in words, naming the address and `--host`.
@Suite("Bind errors")
struct BindErrorTests {
    /// `.invalid` never resolves (RFC 6761), with or without a network.
    @Test func unresolvableHostNameIsNamedPlainly() async throws {
        do {
            let server = try await TestServer.start { $0.host = "nosuchhost.invalid" }
            await server.stop()
            Issue.record("a server listened on nosuchhost.invalid")
        } catch let error as ServerBindError {
            #expect(error.description.hasPrefix("cannot listen on nosuchhost.invalid:0: the host name 'nosuchhost.invalid' could not be resolved ("))
            #expect(error.description.hasSuffix("); give an IP address or a name this machine resolves (--host)"))
            #expect(!error.description.contains("SocketAddressError"))
        }
    }
}
