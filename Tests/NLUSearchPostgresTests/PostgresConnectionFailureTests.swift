#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUSearch
@testable import NLUSearchPostgres
import Testing

/// What a user reads when the server cannot be used, and what a URL shows of its password. None of
/// these needs a PostgreSQL server: a loopback port where nothing listens, and one where a listener
/// closes every connection at once.
@Suite struct PostgresConnectionFailureTests {
    /// A URL too malformed to parse (`db:abc`, no port number) was echoed whole, password included,
    /// though a parsed one shows `app:***`.
    @Test func aURLThatDoesNotParseIsShownWithoutItsPassword() throws {
        let error = #expect(throws: SearchError.self) { try PostgresLocation(url: "postgresql://app:Hunter2Secret@db:abc/d") }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(!message.contains("Hunter2Secret") && message.contains("postgresql://app:***@db:abc/d"), "\(message)")
        // A parsed URL refused for another reason is masked the same way.
        let schema = #expect(throws: SearchError.self) { try PostgresLocation(url: "postgres://app:Hunter2Secret@db/d?schema=Bad") }
        #expect("\(schema.map { "\($0)" } ?? "")".hasPrefix("postgres://app:***@db/d?schema=Bad:"))
        let cases = [
            ("postgresql://app:Hunter2Secret@db:abc/d", "postgresql://app:***@db:abc/d"),
            // Unescaped @, / and ? in the password: everything up to the last @ goes.
            ("postgres://app:p@ss/w?rd@db/d", "postgres://app:***@db/d"),
            ("postgres://app:secret@", "postgres://app:***@"),
            ("postgres://app@db:5432/d", "postgres://app@db:5432/d"),
            ("postgres://db:5432/d", "postgres://db:5432/d"),
            ("not a url", "not a url"),
        ]
        for (url, shown) in cases { #expect(PostgresLocation.redacted(url) == shown, "\(url)") }
    }

    /// Every other shape a URL can be mistyped in keeps its password out of the message: a `?password=`
    /// parameter (libpq reads one; it was echoed, parsed or not), the host forgotten (`app:secret` read as
    /// host and port), the scheme without `//`, an `@` inside a query password.
    @Test func everyShapeOfAMistypedURLIsShownWithoutItsPassword() throws {
        let cases = [
            ("postgres://app@db:5/d?password=Hunter2Secret", "postgres://app@db:5/d?password=***"),
            ("postgres://app@db:abc/d?password=Hunter2Secret", "postgres://app@db:abc/d?password=***"),
            ("postgres://app:Hunter2Secret@db/d?password=Hunter2Secret&schema=s", "postgres://app:***@db/d?password=***&schema=s"),
            ("postgres://app@db/d?sslmode=require&sslpassword=Hunter2Secret", "postgres://app@db/d?sslmode=require&sslpassword=***"),
            ("postgres://app@db/d?PASSWORD=Hunter2@Secret", "postgres://app@db/d?PASSWORD=***"),
            ("postgres://app:Hunter2Secret", "postgres://app:***"),
            ("postgres://app:Hunter2/Secret", "postgres://app:***"),
            ("postgres:/app:Hunter2Secret@db/d", "postgres:/app:***@db/d"),
            ("postgresql:app:Hunter2Secret@db/d", "postgresql:app:***@db/d"),
            ("POSTGRES://app:Hunter2Secret@db/d", "POSTGRES://app:***@db/d"),
            ("postgres://app:Hunter2%53ecret@db:abc/d", "postgres://app:***@db:abc/d"),
            // Nothing secret: left as written.
            ("postgres://db:5432/d?schema=s&sslmode=disable", "postgres://db:5432/d?schema=s&sslmode=disable"),
            ("postgres://db/d", "postgres://db/d"),
        ]
        for (url, shown) in cases {
            #expect(PostgresLocation.redacted(url) == shown, "\(url)")
            // And through the errors the URL's parsing throws, whatever it finds wrong first.
            do { _ = try PostgresLocation(url: url) } catch {
                #expect(!"\(error)".contains("Hunter2"), "\(url): \(error)")
            }
        }
        #expect(PostgresLocation.looksLikeURL("postgres:/app@db/d") && PostgresLocation.looksLikeURL("POSTGRESQL://db/d"))
        #expect(!PostgresLocation.looksLikeURL("postgres://db/d") && !PostgresLocation.looksLikeURL("postgres.db"))
    }

    /// A loopback port on which nothing listens: the host and port, "connection refused" and what to
    /// check, not `PSQLError(code: connectionError, underlying: NIOConnectionError(... SingleConnectionFailure(...)))`.
    @Test func nobodyListeningIsSaidInWords() throws {
        let port = try Self.unusedLoopbackPort()
        let error = #expect(throws: SearchError.self) {
            try PostgresDocumentIndex(url: "postgres://app:Hunter2Secret@127.0.0.1:\(port)/search")
        }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message == "postgres://app@127.0.0.1:\(port)/search: cannot connect to PostgreSQL at 127.0.0.1:\(port) as app, database search: "
                + "nothing listens on 127.0.0.1:\(port) (connection refused): is the server running, on this host and port?")
    }

    /// A listener that closes every connection before answering (not a PostgreSQL server, or one that
    /// drops this client): said in words, not `serverClosedConnection`.
    @Test func aServerThatClosesTheConnectionIsSaidInWords() throws {
        let listener = try ClosingListener()
        defer { listener.stop() }
        let error = #expect(throws: SearchError.self) { try PostgresDocumentIndex(url: "postgres://app@127.0.0.1:\(listener.port)/search") }
        let message = "\(error.map { "\($0)" } ?? "")"
        #expect(message.contains("cannot connect to PostgreSQL at 127.0.0.1:\(listener.port)"), "\(message)")
        #expect(message.contains("closed the connection") && message.contains("the server's log"), "\(message)")
        for raw in ["serverClosedConnection", "PSQLError", "NIOConnectionError", "SingleConnectionFailure", "ChannelError"] {
            #expect(!message.contains(raw), "\(message)")
        }
    }

    /// A port the kernel handed out and took back: nothing listens there now.
    static func unusedLoopbackPort() throws -> Int {
        let socket = try ClosingListener.boundSocket()
        defer { close(socket.descriptor) }
        return socket.port
    }
}

/// A loopback TCP listener that accepts connections and closes each at once, on its own thread.
final class ClosingListener: @unchecked Sendable {
    let descriptor: Int32
    let port: Int
    private let thread: Thread

    struct Failure: Error { let call: String }

    init() throws {
        (descriptor, port) = try Self.boundSocket()
        guard listen(descriptor, 8) == 0 else { close(descriptor); throw Failure(call: "listen") }
        let descriptor = descriptor
        thread = Thread {
            while true {
                let connection = accept(descriptor, nil, nil)
                if connection < 0 { return }
                close(connection)
            }
        }
        thread.start()
    }

    /// Stops accepting: shutting the socket down wakes the blocked `accept`, which then fails.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }

    /// A TCP socket bound to 127.0.0.1 on a port the kernel chooses.
    static func boundSocket() throws -> (descriptor: Int32, port: Int) {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Failure(call: "socket") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) == 0 && getsockname(descriptor, $0, &length) == 0 }
        }
        guard bound else { close(descriptor); throw Failure(call: "bind") }
        return (descriptor, Int(UInt16(bigEndian: address.sin_port)))
    }
}
