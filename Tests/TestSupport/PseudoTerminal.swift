import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A pseudo-terminal for tests of what a program does on a terminal: `slave` is the terminal the
/// program reads and writes, `master` the side a test types into and reads the screen from.
public final class PseudoTerminal {
    public let master: Int32
    public let slave: Int32
    public let slavePath: String

    public struct Unavailable: Error, CustomStringConvertible {
        public let description: String
    }

    public init() throws {
        // posix_openpt and its kin are not in Swift's Glibc module (they need _XOPEN_SOURCE): looked up by name.
        func function<T>(_ name: String, as type: T.Type) throws -> T {
            #if os(Linux)
            let everywhere: UnsafeMutableRawPointer? = nil          // glibc's RTLD_DEFAULT
            #else
            let everywhere = UnsafeMutableRawPointer(bitPattern: -2)   // Darwin's RTLD_DEFAULT
            #endif
            guard let symbol = dlsym(everywhere, name) else {
                throw Unavailable(description: "\(name) not found")
            }
            return unsafeBitCast(symbol, to: type)
        }
        typealias OnDescriptor = @convention(c) (Int32) -> Int32
        master = try function("posix_openpt", as: OnDescriptor.self)(O_RDWR | O_NOCTTY)
        guard master >= 0 else { throw Unavailable(description: "posix_openpt failed (errno \(errno))") }
        guard try function("grantpt", as: OnDescriptor.self)(master) == 0, try function("unlockpt", as: OnDescriptor.self)(master) == 0,
              let name = try function("ptsname", as: (@convention(c) (Int32) -> UnsafeMutablePointer<CChar>?).self)(master) else {
            close(master)
            throw Unavailable(description: "the pseudo-terminal could not be unlocked (errno \(errno))")
        }
        slavePath = String(cString: name)
        slave = open(slavePath, O_RDWR | O_NOCTTY)
        guard slave >= 0 else {
            close(master)
            throw Unavailable(description: "\(slavePath) could not be opened (errno \(errno))")
        }
    }

    deinit {
        close(slave)
        close(master)
    }

    /// Types `text` once the terminal is out of canonical mode (a program's line editor has taken it),
    /// waiting at most `timeout` seconds for that; from another thread, so the caller can read meanwhile.
    public func type(_ text: String, whenRawWithin timeout: Double = 10) {
        let (master, slave) = (self.master, self.slave)
        Thread {
            var settings = termios()
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if tcgetattr(slave, &settings) == 0, settings.c_lflag & tcflag_t(ICANON) == 0 { break }
                usleep(5_000)
            }
            let bytes = Array(text.utf8)
            _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
        }.start()
    }

    /// What the program has written to the terminal so far (not waiting for more).
    public func screen() -> String {
        let flags = fcntl(master, F_GETFL)
        _ = fcntl(master, F_SETFL, flags | O_NONBLOCK)
        defer { _ = fcntl(master, F_SETFL, flags) }
        var shown: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(master, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            shown += chunk[0..<count]
        }
        return String(decoding: shown, as: UTF8.self)
    }
}
