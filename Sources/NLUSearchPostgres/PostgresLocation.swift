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

    /// `text` with every password it may hold replaced by `***`, found by the URL's shape alone, so
    /// that a URL too malformed to parse is masked as a parsed one is:
    /// - the user part: everything between the first `:` after the scheme and the last `@` is the
    ///   password when that `:` comes before that `@` (a password may hold an unescaped `@`, `/` or `?`);
    /// - with no `@`, a "port" that is not a number (`postgres://app:secret`, the host forgotten) and
    ///   everything after it;
    /// - the value of every query parameter but `schema` and `sslmode` (libpq reads `?password=`);
    /// - `postgres:` or `postgresql:` without `//` (`postgres:/app:secret@db/d`) counts as the scheme too.
    ///
    /// Masking a little too much (a database name holding `@`) only shortens a message; masking too
    /// little would print a secret.
    ///
    ///     PostgresLocation.redacted("postgresql://app:Hunter2@db:abc/d")        // "postgresql://app:***@db:abc/d"
    ///     PostgresLocation.redacted("postgres://app@db/d?password=Hunter2")    // "postgres://app@db/d?password=***"
    public static func redacted(_ text: String) -> String {
        maskingPasswordParameters(maskingUserAndQuery(text))
    }

    static func maskingUserAndQuery(_ text: String) -> String {
        guard let authority = authorityStart(of: text) else { return text }
        let rest = text[authority...]
        if let at = rest.lastIndex(of: "@") {
            let user = rest[..<at].firstIndex(of: ":").map { String(text[..<$0]) + ":***" } ?? String(text[..<at])
            return user + maskingQueryValues(text[at...])
        }
        let hostEnd = rest.firstIndex { "/?#".contains($0) } ?? rest.endIndex
        if let colon = rest[..<hostEnd].firstIndex(of: ":") {
            let port = rest[rest.index(after: colon)..<hostEnd]
            if !port.allSatisfy(\.isASCII) || !port.allSatisfy(\.isNumber) { return String(text[..<colon]) + ":***" }
        }
        return String(text[..<authority]) + maskingQueryValues(rest)
    }

    /// Where the part after the scheme begins: after `://`, or after `postgres:` / `postgresql:` and any
    /// slashes; nil for a text with no scheme.
    static func authorityStart(of text: String) -> String.Index? {
        if let scheme = text.range(of: "://") { return scheme.upperBound }
        for scheme in ["postgresql:", "postgres:"] where text.lowercased().hasPrefix(scheme) {
            let afterScheme = text.index(text.startIndex, offsetBy: scheme.count)
            return text[afterScheme...].firstIndex { $0 != "/" } ?? text.endIndex
        }
        return nil
    }

    /// `part` (what follows the user part) with the values of its query parameters masked, but those of
    /// `schema` and `sslmode`, which hold no secret and which messages are about.
    static func maskingQueryValues(_ part: Substring) -> String {
        guard let question = part.firstIndex(of: "?") else { return String(part) }
        let query = part[part.index(after: question)...]
        let fragment = query.firstIndex(of: "#").map { String(query[$0...]) } ?? ""
        let parameters = query[..<(query.firstIndex(of: "#") ?? query.endIndex)].split(separator: "&", omittingEmptySubsequences: false)
        let masked = parameters.map { parameter -> String in
            guard let equals = parameter.firstIndex(of: "=") else { return String(parameter) }
            let name = parameter[..<equals]
            return ["schema", "sslmode"].contains(name) ? String(parameter) : name + "=***"
        }
        return String(part[...question]) + masked.joined(separator: "&") + (fragment.isEmpty ? "" : "#***")
    }

    /// `text` with the value of every `password=` masked wherever it is: an `@` in that value (`?password=a@b`)
    /// hides the query from the rules above.
    static func maskingPasswordParameters(_ text: String) -> String {
        var result = "", rest = Substring(text)
        while let found = rest.range(of: "password=", options: .caseInsensitive) {
            result += rest[..<found.upperBound]
            let valueEnd = rest[found.upperBound...].firstIndex { $0 == "&" || $0 == "#" } ?? rest.endIndex
            let value = rest[found.upperBound..<valueEnd]
            result += value.isEmpty || value == "***" ? String(value) : "***"
            rest = rest[valueEnd...]
        }
        return result + rest
    }

    /// Whether `text` begins with a PostgreSQL scheme written otherwise than `postgres://` (`postgres:/x`,
    /// `POSTGRESQL://x`): a URL mistyped, not a file path.
    public static func looksLikeURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return !isURL(text) && (lowered.hasPrefix("postgres:") || lowered.hasPrefix("postgresql:"))
    }
}
