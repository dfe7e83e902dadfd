/// A key press of a terminal in raw mode, as the line editor acts on it.
public enum TerminalKey: Equatable, Sendable {
    /// A character typed (a whole UTF-8 sequence).
    case character(Character)
    case left, right, home, end, up, down
    case backspace, delete
    /// Ctrl-K, Ctrl-U, Ctrl-W: delete to the end, to the start, the word before the cursor.
    case deleteToEnd, deleteToStart, deleteWord
    case enter
    /// Ctrl-D: end of input on an empty line, else delete under the cursor (as readline does).
    case endOfInput
    /// Ctrl-C.
    case interrupt
    /// Ctrl-L: redraw.
    case redraw
}

/// Turns the bytes a terminal sends in raw mode into ``TerminalKey``s: control bytes, UTF-8 sequences
/// (held until complete), and the escape sequences of arrows, Home, End and Delete in both the
/// `ESC [` and `ESC O` forms terminals send. Sequences it does not know are dropped whole, so a
/// function key never types letters into the line.
///
///     var decoder = TerminalKeyDecoder()
///     decoder.feed(Array("\u{1B}[D".utf8))   // [.left]
public struct TerminalKeyDecoder: Sendable {
    private var pending: [UInt8] = []

    public init() {}

    /// The keys completed by `bytes`, in order; an incomplete sequence waits for the next bytes.
    public mutating func feed(_ bytes: [UInt8]) -> [TerminalKey] {
        var keys: [TerminalKey] = []
        for byte in bytes {
            pending.append(byte)
            if let key = decodePending() {
                if let key = key { keys.append(key) }
                pending.removeAll(keepingCapacity: true)
            }
        }
        return keys
    }

    /// nil while `pending` is incomplete; `.some(nil)` for a complete sequence that is no key.
    private func decodePending() -> TerminalKey?? {
        guard let first = pending.first else { return .some(nil) }
        switch first {
        case 0x1B:
            return decodeEscape()
        case 0x01: return .some(.home)          // Ctrl-A
        case 0x02: return .some(.left)          // Ctrl-B
        case 0x03: return .some(.interrupt)
        case 0x04: return .some(.endOfInput)
        case 0x05: return .some(.end)           // Ctrl-E
        case 0x06: return .some(.right)         // Ctrl-F
        case 0x08, 0x7F: return .some(.backspace)
        case 0x0A, 0x0D: return .some(.enter)
        case 0x0B: return .some(.deleteToEnd)
        case 0x0C: return .some(.redraw)
        case 0x0E: return .some(.down)          // Ctrl-N
        case 0x10: return .some(.up)            // Ctrl-P
        case 0x15: return .some(.deleteToStart)
        case 0x17: return .some(.deleteWord)
        case 0x00..<0x20: return .some(nil)     // other control bytes: ignored
        default: return decodeUTF8()
        }
    }

    private func decodeUTF8() -> TerminalKey?? {
        let first = pending[0]
        let length = first < 0x80 ? 1 : first >= 0xF0 ? 4 : first >= 0xE0 ? 3 : first >= 0xC0 ? 2 : 0
        // A stray continuation byte, or a lead byte followed by a non-continuation: dropped.
        guard length > 0 else { return .some(nil) }
        if pending.count > 1, pending.last.map({ $0 & 0xC0 != 0x80 }) == true { return .some(nil) }
        guard pending.count == length else { return nil }
        guard let text = String(validating: pending, as: UTF8.self), let character = text.first else { return .some(nil) }
        return .some(.character(character))
    }

    private func decodeEscape() -> TerminalKey?? {
        guard pending.count >= 2 else { return nil }
        let kind = pending[1]
        guard kind == UInt8(ascii: "[") || kind == UInt8(ascii: "O") else { return .some(nil) }   // Alt-key: dropped
        guard pending.count >= 3 else { return nil }
        guard let last = pending.last, (0x40...0x7E).contains(last) else {
            // Parameters and intermediates (digits, ';') continue the sequence, up to a sane length.
            return pending.count > 16 ? .some(nil) : nil
        }
        let parameters = String(decoding: pending[2..<(pending.count - 1)], as: UTF8.self)
        switch (last, parameters) {
        case (UInt8(ascii: "A"), _): return .some(.up)
        case (UInt8(ascii: "B"), _): return .some(.down)
        case (UInt8(ascii: "C"), _): return .some(.right)
        case (UInt8(ascii: "D"), _): return .some(.left)
        case (UInt8(ascii: "H"), _): return .some(.home)
        case (UInt8(ascii: "F"), _): return .some(.end)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return .some(.home)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return .some(.end)
        case (UInt8(ascii: "~"), "3"): return .some(.delete)
        default: return .some(nil)
        }
    }
}
