import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One HTTP response as read off the wire.
public struct RawHTTPResponse: Sendable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public var text: String { String(decoding: body, as: UTF8.self) }
    /// The body as a JSON object (nil when it is not one).
    public var object: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    public var json: Any? { try? JSONSerialization.jsonObject(with: body) }
}

public struct RawHTTPError: Error, CustomStringConvertible {
    public var description: String

    public init(description: String) {
        self.description = description
    }
}

/// A plain TCP connection to the server on loopback, so tests control every byte: slow headers,
/// bodies larger than they declare, invalid UTF-8, and reading exactly what comes back.
public final class RawHTTPConnection: @unchecked Sendable {
    private let descriptor: Int32
    private var buffered = Data()

    /// Connects to 127.0.0.1:`port`; reads give up after `readTimeout` seconds.
    public init(port: Int, readTimeout: Double = 10) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw RawHTTPError(description: "socket() failed") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            close(descriptor)
            throw RawHTTPError(description: "connect to port \(port) failed (errno \(errno))")
        }
        var timeout = timeval()
        timeout.tv_sec = .init(Int(readTimeout))
        timeout.tv_usec = .init(Int((readTimeout - Double(Int(readTimeout))) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }

    /// Sends `bytes` (false when the server has closed the connection).
    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let result = bytes[sent...].withUnsafeBytes { Glibc_send(descriptor, $0.baseAddress, $0.count) }
            if result <= 0 { return false }
            sent += result
        }
        return true
    }

    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Closes the sending side (the server reads end of stream), keeping the receiving side open.
    public func finishSending() {
        shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Sends a whole request.
    public func sendRequest(_ method: String, _ path: String, headers: [String: String] = [:], body: [UInt8]? = nil,
                     close: Bool = true) {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        if close { head += "Connection: close\r\n" }
        head += "\r\n"
        send(Array(head.utf8) + (body ?? []))
    }

    /// Reads one response (Content-Length or chunked body).
    public func readResponse() throws -> RawHTTPResponse {
        let separator = Data("\r\n\r\n".utf8)
        while buffered.range(of: separator) == nil {
            guard try fill() else { throw RawHTTPError(description: "connection closed before a response head") }
        }
        let headEnd = buffered.range(of: separator)!
        let head = String(decoding: buffered[buffered.startIndex..<headEnd.lowerBound], as: UTF8.self)
        buffered = Data(buffered[headEnd.upperBound...])
        var lines = head.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { throw RawHTTPError(description: "bad status line: \(head)") }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = Data()
        if let length = headers["content-length"].flatMap(Int.init) {
            while buffered.count < length {
                guard try fill() else { throw RawHTTPError(description: "connection closed inside a body") }
            }
            body = Data(buffered.prefix(length))
            buffered = Data(buffered.dropFirst(length))
        } else if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while true {
                let crlf = Data("\r\n".utf8)
                while buffered.range(of: crlf) == nil { guard try fill() else { throw RawHTTPError(description: "closed in chunk") } }
                let lineEnd = buffered.range(of: crlf)!
                let size = Int(String(decoding: buffered[buffered.startIndex..<lineEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
                buffered = Data(buffered[lineEnd.upperBound...])
                while buffered.count < size + 2 { guard try fill() else { throw RawHTTPError(description: "closed in chunk") } }
                body += buffered.prefix(size)
                buffered = Data(buffered.dropFirst(size + 2))
                if size == 0 { break }
            }
        }
        return RawHTTPResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closes the connection within the read timeout (reads and drops any data).
    public func waitForClose() -> Bool {
        while true {
            do { if try !fill() { return true } } catch { return false }
        }
    }

    /// Reads more bytes; false at end of stream. Throws on timeout or a reset.
    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if count == 0 { return false }
        if count < 0 {
            if errno == ECONNRESET { return false }
            throw RawHTTPError(description: "read failed or timed out (errno \(errno))")
        }
        buffered += chunk[0..<count]
        return true
    }
}

/// `send(2)` under a name that does not clash with the method.
private func Glibc_send(_ descriptor: Int32, _ pointer: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.send(descriptor, pointer, count, Int32(MSG_NOSIGNAL))
    #else
    return Darwin.send(descriptor, pointer, count, 0)
    #endif
}
