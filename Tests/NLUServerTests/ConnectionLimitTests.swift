import Foundation
import Testing
@testable import NLUServer

/// `--max-connections`: idle connections cannot use up the server's file descriptors; when one more
/// connection opens than the limit, the one idle the longest is closed and the newcomer is served.
@Suite("Connection limit")
struct ConnectionLimitTests {
    /// Lets the server register a connection before the next opens, so "idle the longest" is well
    /// defined (ordering only: nothing here depends on how fast the machine is).
    static func settle() { Thread.sleep(forTimeInterval: 0.3) }

    @Test func oneConnectionOverTheLimitClosesTheOldestIdleOneAndIsServed() async throws {
        try await withTestServer(configure: { $0.maxConnections = 3 }) { server in
            let port = server.port
            let (oldestClosed, othersOpen, newcomer, kept) = try await offThePool {
                // Three idle connections: none sends anything.
                let oldest = try RawHTTPConnection(port: port, readTimeout: 10)
                Self.settle()
                let second = try RawHTTPConnection(port: port, readTimeout: 1)
                Self.settle()
                let third = try RawHTTPConnection(port: port, readTimeout: 1)
                Self.settle()
                // The fourth pushes the first out, and gets its answer.
                let newcomer = try RawHTTPConnection(port: port, readTimeout: 10)
                newcomer.sendRequest("POST", "/model/parse", body: Array(#"{"text": "turn on the radio"}"#.utf8), close: false)
                let answer = try newcomer.readResponse()
                let oldestClosed = oldest.waitForClose()
                // The others were not idle the longest: still open (a read times out instead of ending).
                let othersOpen = !second.waitForClose() && !third.waitForClose()
                // And still served.
                second.sendRequest("GET", "/health")
                let kept = try second.readResponse()
                return (oldestClosed, othersOpen, answer, kept)
            }
            #expect(oldestClosed, "the connection idle the longest was not closed")
            #expect(othersOpen)
            #expect(newcomer.status == 200)
            #expect(kept.status == 200)
        }
    }

    /// A connection with a request in progress is never the one closed: with it busy, a newcomer
    /// over the limit is served beside it rather than pushing it out.
    @Test func aConnectionBeingAnsweredIsNotClosedForANewOne() async throws {
        let (models, probe) = try TokenizerProbe.servedModels(holding: "hold the worker")
        try await withTestServer(models: models, configure: { $0.maxConnections = 1 }) { server in
            let port = server.port
            let (waiting, held) = try await offThePool {
                try probe.holdingAWorker(port: port) {
                    let waiting = StartedThread { try blockingRequest(port: port, "GET", "/health", readTimeout: 60) }
                    Self.settle()
                    return waiting
                }
            }
            #expect(held.status == 200)
            #expect(try await waiting.value().status == 200)
        }
    }

    /// The default is as many connections as the open-files limit leaves room for, and more is
    /// refused: beyond it `accept` fails with EMFILE, which NIO retries at once (a core spinning).
    @Test func theLimitFollowsTheOpenFilesLimit() throws {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        try #require(getrlimit(resource, &limit) == 0)
        let reserved = ServerConfiguration.reservedDescriptors
        let capacity = min(Int(clamping: limit.rlim_cur) - reserved, 1 << 24)
        #expect(ServerConfiguration().maxConnections == capacity)
        var configuration = ServerConfiguration()
        for value in [0, capacity + 1] {
            configuration.maxConnections = value
            #expect(throws: ServerConfigurationError(
                setting: "max connections",
                expected: "1...\(capacity) (the open-files limit, ulimit -n, less \(reserved) for the server's own files)", got: "\(value)")) {
                try configuration.validate()
            }
        }
    }
}
