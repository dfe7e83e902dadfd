import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads lines at an interactive prompt with a ``LineEditor``: the terminal is put in raw mode for
/// the time a line is typed (no echo, no line buffering, Ctrl-C as a key), each key redraws the line
/// after the prompt, and the terminal's settings come back once the line is entered, so what the
/// program prints between lines prints as usual. Lines longer than the terminal is wide are not
/// wrapped by the editor (the terminal wraps them; editing far back then redraws only the last row).
///
///     if TerminalLineReader.isInteractive() {
///         let reader = TerminalLineReader(prompt: "> ")
///         while case .line(let text) = try reader.read() { print("you said \(text)") }
///     }
public final class TerminalLineReader {
    public enum Reading: Equatable, Sendable {
        case line(String)
        /// Ctrl-D on an empty line, or the input closed.
        case endOfInput
        /// Ctrl-C on an empty line.
        case interrupt
    }

    /// The terminal refused to be read or set up.
    public struct TerminalError: Error, CustomStringConvertible, LocalizedError {
        public let description: String
        public var errorDescription: String? { description }
    }

    public let prompt: String
    private let input: Int32
    private let output: Int32
    private var editor = LineEditor()
    private var decoder = TerminalKeyDecoder()
    /// Keys read after an entered line (pasted text): the next lines' keys.
    private var pendingKeys: [TerminalKey] = []

    /// Whether both `input` and `output` are terminals (the editor is for people, not pipes).
    public static func isInteractive(input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) -> Bool {
        isatty(input) == 1 && isatty(output) == 1
    }

    public init(prompt: String, input: Int32 = STDIN_FILENO, output: Int32 = STDOUT_FILENO) {
        self.prompt = prompt
        self.input = input
        self.output = output
    }

    /// The lines entered so far (the editor's history).
    public var history: [String] { editor.history }

    /// Shows the prompt and reads one line, key by key.
    /// - Throws: ``TerminalError`` when the terminal's settings cannot be read or set.
    public func read() throws -> Reading {
        var saved = termios()
        guard tcgetattr(input, &saved) == 0 else { throw TerminalError(description: "the terminal's settings could not be read (errno \(errno))") }
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | ISIG | IEXTEN)
        raw.c_iflag &= ~tcflag_t(ICRNL | IXON)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        guard tcsetattr(input, TCSANOW, &raw) == 0 else { throw TerminalError(description: "the terminal could not be put in raw mode (errno \(errno))") }
        defer { _ = tcsetattr(input, TCSANOW, &saved) }
        draw()
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            while !pendingKeys.isEmpty {
                switch editor.apply(pendingKeys.removeFirst()) {
                case .edited:
                    draw()
                case .submit(let line):
                    write("\r\n")
                    return .line(line)
                case .endOfInput:
                    write("\r\n")
                    return .endOfInput
                case .interrupt:
                    write("^C\r\n")
                    return .interrupt
                }
            }
            let count = buffer.withUnsafeMutableBytes { systemRead(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                write("\r\n")
                return .endOfInput
            }
            pendingKeys = decoder.feed(Array(buffer[0..<count]))
        }
    }

    /// The prompt and the line from the start of the row, the rest of the row cleared, the cursor
    /// moved back to its place.
    private func draw() {
        let back = LineEditor.columns(editor.characters[editor.cursor...])
        write("\r" + prompt + editor.text + "\u{1B}[K" + (back > 0 ? "\u{1B}[\(back)D" : ""))
    }

    private func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { systemWrite(output, $0.baseAddress, $0.count) }
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}

// The C calls by names that do not clash with the class's own read() and write(_:).
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
