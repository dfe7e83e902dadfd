import Foundation
import NLUSearch

/// Where a PostgreSQL index lives: `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?schema=NAME]`
/// (`postgresql://` too). The index's tables are in the schema NAME (default `nlukit`), so one
/// database can hold several indexes.
///
///     let location = try PostgresLocation(url: "postgres://app@db.local/search?schema=manuals")
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var user: String
    public var password: String?
    public var database: String
    public var schema: String

    /// Whether `text` is a PostgreSQL URL rather than a file path.
    public static func isURL(_ text: String) -> Bool {
        text.hasPrefix("postgres://") || text.hasPrefix("postgresql://")
    }

    /// - Throws: ``SearchError/invalidArgument(_:)`` naming what is wrong with the URL.
    public init(url text: String) throws {
        guard Self.isURL(text), let components = URLComponents(string: text) else {
            throw SearchError.invalidArgument("\"\(Self.redacted(text))\" is not a PostgreSQL URL (postgres://USER@HOST:PORT/DATABASE)")
        }
        guard let host = components.host, !host.isEmpty else {
            throw SearchError.invalidArgument("\(Self.redacted(text)): the URL names no host")
        }
        let port = components.port ?? 5432
        guard (1...65535).contains(port) else { throw SearchError.invalidArgument("\(Self.redacted(text)): port \(port) is not in 1...65535") }
        let user = components.user?.removingPercentEncoding ?? "postgres"
        let database = String(components.path.drop(while: { $0 == "/" }))
        var schema = "nlukit"
        for item in components.queryItems ?? [] {
            switch item.name {
            case "schema": schema = item.value ?? ""
            case "sslmode" where item.value == "disable": break
            default:
                throw SearchError.invalidArgument("\(Self.redacted(text)): unknown URL parameter \"\(item.name)\" (schema=NAME, sslmode=disable are read; TLS is not supported yet)")
            }
        }
        // The schema name goes into SQL as an identifier: only plain lower-case names.
        guard let first = schema.unicodeScalars.first, schema.count <= 63, CharacterSet.lowercaseLetters.contains(first) || first == "_",
              schema.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "_" }) else {
            throw SearchError.invalidArgument("\(Self.redacted(text)): schema \"\(schema)\" must be 1-63 of a-z, 0-9 and _, starting with a letter or _")
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        self.port = port
        self.user = user
        self.password = components.password?.removingPercentEncoding
        self.database = database.isEmpty ? user : (database.removingPercentEncoding ?? database)
        self.schema = schema
    }

    /// The URL without its password (what messages and ``IndexInfo/path`` show).
    public var description: String {
        "postgres://\(user)@\(host.contains(":") ? "[\(host)]" : host):\(port)/\(database)\(schema == "nlukit" ? "" : "?schema=\(schema)")"
    }

    /// `text` with the password of its user part replaced by `***`, found by the URL's shape alone, so
    /// that a URL too malformed to parse (`postgresql://app:secret@db:abc/d`, a password holding an
    /// unescaped `@` or `/`) is masked as a parsed one is: everything between the first `:` after
    /// `://` and the last `@` is the password when that `:` comes before that `@`. Masking a little
    /// too much (a database name holding `@`) only shortens a message; masking too little would print
    /// a secret.
    ///
    ///     PostgresLocation.redacted("postgresql://app:Hunter2@db:abc/d")   // "postgresql://app:***@db:abc/d"
    public static func redacted(_ text: String) -> String {
        guard let scheme = text.range(of: "://") else { return text }
        let rest = text[scheme.upperBound...]
        guard let at = rest.lastIndex(of: "@"), let colon = rest[..<at].firstIndex(of: ":") else { return text }
        return String(text[..<colon]) + ":***" + String(text[at...])
    }
}
