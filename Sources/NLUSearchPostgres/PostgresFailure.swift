import Foundation
import NIOCore
import NIOPosix
import PostgresNIO

/// Why talking to the server failed, in words a user can act on: which host and port, what happened
/// (refused, unreachable, timed out, closed, authentication failed) and what to check. postgres-nio's
/// and SwiftNIO's own texts (`PSQLError(code: connectionError, underlying: NIOConnectionError(...
/// SingleConnectionFailure(...)))`, `serverClosedConnection`) name types, not causes.
///
///     PostgresFailure.reason(error, location: location)
///     // "nothing listens on 127.0.0.1:1 (connection refused): is the server running, on this host and port?"
public enum PostgresFailure {
    /// One sentence for `error`, met while connecting to or querying the server at `location`.
    public static func reason(_ error: any Error, location: PostgresLocation) -> String {
        let address = "\(location.host):\(location.port)"
        if let error = error as? PSQLError {
            if let server = error.serverInfo { return serverReason(server, location: location) }
            switch error.code {
            case .serverClosedConnection, .uncleanShutdown:
                if let underlying = error.underlying, !(underlying is ChannelError) {
                    return reason(underlying, location: location)
                }
                return "the server at \(address) closed the connection (it shut down or restarted, ended this session, or is no PostgreSQL server): check that \(address) is PostgreSQL's address and the server's log"
            case .clientClosedConnection:
                return "the connection to \(address) was closed before the statement ended"
            case .authMechanismRequiresPassword:
                return "the server at \(address) asks for a password and the URL gives none (postgres://\(location.user):PASSWORD@...)"
            case .unsupportedAuthMechanism:
                return "the server at \(address) asks for an authentication method this client does not support (password, md5 and scram-sha-256 are supported): check the server's pg_hba.conf"
            case .saslError:
                return "authentication as \(location.user) failed during the SCRAM exchange: check the URL's user and password"
            case .sslUnsupported, .failedToAddSSLHandler, .receivedUnencryptedDataAfterSSLRequest:
                return "the server at \(address) requires TLS, which this client does not support yet (sslmode=disable only)"
            case .queryCancelled:
                return "the statement was cancelled"
            case .tooManyParameters:
                return "the statement has more parameters than PostgreSQL accepts (65,535)"
            case .connectionError:
                if let underlying = error.underlying { return reason(underlying, location: location) }
                return "the connection to \(address) failed"
            default:
                if let underlying = error.underlying { return reason(underlying, location: location) }
                return "the PostgreSQL client failed (\(error.code)) talking to \(address)"
            }
        }
        if let error = error as? NIOConnectionError {
            // Every address the name resolved to was tried; one cause is enough, the first.
            if let failure = error.connectionErrors.first { return reason(failure.error, location: location) }
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                return "the host name \"\(location.host)\" was not found (DNS): check the URL's host"
            }
            return "cannot connect to \(address)"
        }
        if let error = error as? ChannelError {
            switch error {
            case let .connectTimeout(time):
                return "no answer from \(address) within \(time.nanoseconds / 1_000_000_000) s (timed out): check the host and port, and that no firewall drops the connection"
            case .eof, .ioOnClosedChannel, .alreadyClosed, .outputClosed, .inputClosed:
                return "the server at \(address) closed the connection (it shut down or restarted, ended this session, or is no PostgreSQL server): check that \(address) is PostgreSQL's address and the server's log"
            default:
                return "the connection to \(address) failed (\(error))"
            }
        }
        if let error = error as? IOError { return ioReason(error.errnoCode, address: address) }
        if let error = error as? SocketAddressError {
            return "the host name \"\(location.host)\" was not found (\(error)): check the URL's host"
        }
        return "\(error)"
    }

    /// What an operating-system error on the connection means for the user.
    static func ioReason(_ code: CInt, address: String) -> String {
        let text = String(cString: strerror(code))
        switch code {
        case ECONNREFUSED:
            return "nothing listens on \(address) (connection refused): is the server running, on this host and port?"
        case ETIMEDOUT:
            return "no answer from \(address) (timed out): check the host and port, and that no firewall drops the connection"
        case EHOSTUNREACH, ENETUNREACH:
            return "\(address) cannot be reached (\(text)): check the host and the network"
        case ECONNRESET, EPIPE:
            return "the server at \(address) closed the connection (\(text)): check that \(address) is PostgreSQL's address and the server's log"
        default:
            return "the connection to \(address) failed: \(text)"
        }
    }

    /// The server's own message, which is already words, with what to check for the classes of error
    /// a URL causes (authentication, an unknown database).
    static func serverReason(_ info: PSQLError.ServerInfo, location: PostgresLocation) -> String {
        let message = info[.message] ?? "the server refused the request"
        let detail = info[.detail].map { " (\($0))" } ?? ""
        switch info[.sqlState] {
        case "28P01", "28000":
            return "authentication failed: \(message)\(detail): check the URL's user and password, and the server's pg_hba.conf"
        case "3D000":
            return "\(message): check the URL's database (postgres://USER@HOST:PORT/DATABASE)"
        case "57P01", "57P02", "57P03":
            return "\(message): the server at \(location.host):\(location.port) is shutting down or starting; try again when it is up"
        default:
            return message + detail
        }
    }
}
