import Foundation
import Logging
import NIOCore
import NIOPosix
import NLUSearch
import PostgresNIO

/// One connection to the server, used synchronously (the index's API is synchronous, as the
/// SQLite backend's is): every call waits for its result on NIO's shared event loop threads, so
/// it must not be made from an event loop itself. One call at a time (a lock).
final class PostgresSession: @unchecked Sendable {
    let location: PostgresLocation
    private let connection: PostgresConnection
    private let lock = NSLock()

    /// Connects, or says which host and port could not be reached and why.
    ///
    /// - Throws: ``SearchError/storage(path:message:)``.
    init(location: PostgresLocation) throws {
        self.location = location
        var configuration = PostgresConnection.Configuration(
            host: location.host, port: location.port, username: location.user, password: location.password,
            database: location.database, tls: .disable)
        configuration.options.connectTimeout = .seconds(10)
        var logger = Logger(label: "nlukit.postgres")
        logger.logLevel = .critical
        do {
            connection = try PostgresConnection.connect(on: MultiThreadedEventLoopGroup.singleton.next(), configuration: configuration,
                                                        id: 1, logger: logger).wait()
        } catch {
            throw SearchError.storage(path: location.description,
                                      message: "cannot connect to PostgreSQL at \(location.host):\(location.port) as \(location.user), database \(location.database): \(PostgresFailure.reason(error, location: location))")
        }
    }

    deinit {
        try? connection.close().wait()
    }

    /// Runs one statement with `$1, $2, ...` bound to `binds`; returns its rows.
    @discardableResult
    func query(_ sql: String, _ binds: [PostgresData] = []) throws -> [PostgresRow] {
        lock.lock()
        defer { lock.unlock() }
        do {
            return try connection.query(sql, binds).wait().rows
        } catch {
            throw SearchError.storage(path: location.description, message: PostgresFailure.reason(error, location: location))
        }
    }

    /// Runs `body` in one transaction: committed when it returns, rolled back when it throws (and
    /// by the server when this process dies first).
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try query("BEGIN")
        do {
            let result = try body()
            try query("COMMIT")
            return result
        } catch {
            _ = try? query("ROLLBACK")
            throw error
        }
    }
}
