import Foundation

/// Where and why a text stops being JSON, in our words: Foundation's parser says only "Unexpected
/// end of file during JSON parse." for a truncated document (and for `tru`), "Unexpected end of
/// file during string parse" for a lone `\ud800` (which is not the end of anything), and gives no
/// line for those or for a number out of range. ``JSONFile/syntaxErrorLocation(_:data:)`` asks this
/// scanner whenever Foundation's message has no position.
///
///     JSONSyntaxProblem.find(in: Data("{\"a\":\n \"x\",".utf8))?.description
///     // "ends in the middle of a value at line 2"
///
/// It accepts what Foundation accepts (a trailing comma before `]` or `}`), so the problem it finds
/// is the one Foundation stopped at. It keeps its own stack, so any nesting depth is safe.
struct JSONSyntaxProblem: Equatable, CustomStringConvertible {
    enum Kind: Equatable {
        /// The text ends before the value does.
        case endOfInput
        /// A character that cannot start or continue what is expected.
        case unexpectedCharacter(Unicode.Scalar)
        /// A `\u` escape of half a surrogate pair without its other half.
        case loneSurrogate
        /// A backslash followed by something that is not an escape, or `\u` without four hex digits.
        case invalidEscape
        /// A control character (U+0000-U+001F) inside a string, where JSON needs an escape.
        case controlCharacterInString(Unicode.Scalar)
        /// A number no `Double` holds (`1e309`); `field` is its JSON path.
        case numberOutOfRange(String, field: String)
        /// More text after the document's value.
        case trailingText
    }

    var kind: Kind
    /// 1-based line and column (the column counts Unicode scalars, as editors do).
    var line: Int
    var column: Int

    var description: String {
        let place = "at line \(line), column \(column)"
        switch kind {
        case .endOfInput:
            return "ends in the middle of a value at line \(line)"
        case .unexpectedCharacter(let scalar):
            return "unexpected \(Self.show(scalar)) \(place)"
        case .loneSurrogate:
            return "invalid \\u escape: a lone surrogate \(place)"
        case .invalidEscape:
            return "invalid escape in a string \(place) (expected \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and four hex digits)"
        case .controlCharacterInString(let scalar):
            return "a control character (\(Self.codePoint(scalar))) inside a string \(place); it must be escaped"
        case let .numberOutOfRange(number, field):
            // Both come from the document: 5,000 digits (or a key as long) are not repeated whole.
            return "the number \(EchoedValue.prefix(number))\(field.isEmpty ? "" : " in field '\(EchoedValue.prefix(field))'") is out of range \(place)"
        case .trailingText:
            return "more text after the JSON value \(place)"
        }
    }

    private static func codePoint(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    private static func show(_ scalar: Unicode.Scalar) -> String {
        scalar.value < 0x20 || scalar.value == 0x7F ? "character \(codePoint(scalar))" : "character '\(Character(scalar))'"
    }

    /// The first problem in `data`, or nil when it is valid JSON (as far as syntax goes).
    static func find(in data: Data) -> JSONSyntaxProblem? {
        var scanner = Scanner(bytes: Array(data))
        return scanner.run()
    }

    private enum Container {
        case object(key: String)
        case array(index: Int)
    }

    private enum State {
        case value, valueOrClose, keyOrClose, colon, commaOrClose, done
    }

    private struct Scanner {
        let bytes: [UInt8]
        var position = 0
        var line = 1
        var lineStart = 0
        var stack: [Container] = []

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func run() -> JSONSyntaxProblem? {
            var state = State.value
            while true {
                skipWhitespace()
                guard position < bytes.count else { return state == .done ? nil : problem(.endOfInput) }
                let byte = bytes[position]
                switch state {
                case .done:
                    return problem(.trailingText)
                case .colon:
                    guard byte == UInt8(ascii: ":") else { return unexpected() }
                    position += 1
                    state = .value
                case .keyOrClose:
                    if byte == UInt8(ascii: "}") {
                        position += 1
                        state = closed()
                    } else if byte == UInt8(ascii: "\"") {
                        let start = position + 1
                        if let failure = scanString() { return failure }
                        stack[stack.count - 1] = .object(key: String(decoding: bytes[start..<(position - 1)], as: UTF8.self))
                        state = .colon
                    } else {
                        return unexpected()
                    }
                case .commaOrClose:
                    switch (byte, stack.last) {
                    case (UInt8(ascii: ","), .object?):
                        state = .keyOrClose   // Foundation accepts a trailing comma
                    case (UInt8(ascii: ","), .array(let index)?):
                        stack[stack.count - 1] = .array(index: index + 1)
                        state = .valueOrClose
                    case (UInt8(ascii: "}"), .object?), (UInt8(ascii: "]"), .array?):
                        position += 1
                        state = closed()
                        continue
                    default:
                        return unexpected()
                    }
                    position += 1
                case .value, .valueOrClose:
                    if byte == UInt8(ascii: "]"), state == .valueOrClose, case .array? = stack.last {
                        position += 1
                        state = closed()
                        continue
                    }
                    switch byte {
                    case UInt8(ascii: "{"):
                        position += 1
                        stack.append(.object(key: ""))
                        state = .keyOrClose
                    case UInt8(ascii: "["):
                        position += 1
                        stack.append(.array(index: 0))
                        state = .valueOrClose
                    case UInt8(ascii: "\""):
                        if let failure = scanString() { return failure }
                        state = afterValue()
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        if let failure = scanNumber() { return failure }
                        state = afterValue()
                    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                        if let failure = scanLiteral() { return failure }
                        state = afterValue()
                    default:
                        return unexpected()
                    }
                }
            }
        }

        private mutating func closed() -> State {
            stack.removeLast()
            return afterValue()
        }

        private func afterValue() -> State { stack.isEmpty ? .done : .commaOrClose }

        private mutating func skipWhitespace() {
            while position < bytes.count {
                switch bytes[position] {
                case UInt8(ascii: "\n"):
                    line += 1
                    lineStart = position + 1
                case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    break
                default:
                    return
                }
                position += 1
            }
        }

        /// The string starting at `position` (its opening quote); `position` ends after the closing one.
        private mutating func scanString() -> JSONSyntaxProblem? {
            position += 1
            while position < bytes.count {
                let byte = bytes[position]
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return nil
                case UInt8(ascii: "\\"):
                    if let failure = scanEscape() { return failure }
                case 0..<0x20:
                    return problem(.controlCharacterInString(Unicode.Scalar(byte)))
                default:
                    position += 1
                }
            }
            return problem(.endOfInput)
        }

        /// The escape at `position` (its backslash).
        private mutating func scanEscape() -> JSONSyntaxProblem? {
            let start = position
            guard position + 1 < bytes.count else { return problem(.endOfInput) }
            switch bytes[position + 1] {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
                 UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                position += 2
                return nil
            case UInt8(ascii: "u"):
                switch hexEscape(at: start) {
                case .endOfInput: return problem(.endOfInput)
                case .invalid: return problem(.invalidEscape, at: start)
                case .value(let value) where (0xDC00...0xDFFF).contains(value):
                    return problem(.loneSurrogate, at: start)
                case .value(let value) where (0xD800...0xDBFF).contains(value):
                    switch hexEscape(at: start + 6) {
                    case .value(let low) where (0xDC00...0xDFFF).contains(low): break
                    case .endOfInput where start + 6 >= bytes.count: return problem(.endOfInput)
                    default: return problem(.loneSurrogate, at: start)
                    }
                    position = start + 12
                    return nil
                case .value:
                    position = start + 6
                    return nil
                }
            default:
                return problem(.invalidEscape, at: start)
            }
        }

        private enum HexEscape { case value(UInt32), invalid, endOfInput }

        /// The `\uXXXX` escape at `start`.
        private func hexEscape(at start: Int) -> HexEscape {
            guard start + 1 < bytes.count else { return .endOfInput }
            guard bytes[start] == UInt8(ascii: "\\"), bytes[start + 1] == UInt8(ascii: "u") else { return .invalid }
            var value: UInt32 = 0
            for offset in 2..<6 {
                guard start + offset < bytes.count else { return .endOfInput }
                guard let digit = Character(Unicode.Scalar(bytes[start + offset])).hexDigitValue else { return .invalid }
                value = value * 16 + UInt32(digit)
            }
            return .value(value)
        }

        private mutating func scanNumber() -> JSONSyntaxProblem? {
            let start = position
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            func digits(_ scanner: inout Scanner) -> JSONSyntaxProblem? {
                guard scanner.position < scanner.bytes.count else { return scanner.problem(.endOfInput) }
                guard Self.isDigit(scanner.bytes[scanner.position]) else { return scanner.unexpected() }
                while scanner.position < scanner.bytes.count, Self.isDigit(scanner.bytes[scanner.position]) { scanner.position += 1 }
                return nil
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "0") {
                position += 1
            } else if let failure = digits(&self) {
                return failure
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                if let failure = digits(&self) { return failure }
            }
            if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
                position += 1
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                if let failure = digits(&self) { return failure }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if let value = Double(text), !value.isFinite {
                return problem(.numberOutOfRange(text, field: fieldPath()), at: start)
            }
            return nil
        }

        private mutating func scanLiteral() -> JSONSyntaxProblem? {
            let literal: [UInt8]
            switch bytes[position] {
            case UInt8(ascii: "t"): literal = Array("true".utf8)
            case UInt8(ascii: "f"): literal = Array("false".utf8)
            default: literal = Array("null".utf8)
            }
            for expected in literal {
                guard position < bytes.count else { return problem(.endOfInput) }
                guard bytes[position] == expected else { return unexpected() }
                position += 1
            }
            return nil
        }

        private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

        /// The JSON path of the value being read (`layers[1].size`).
        private func fieldPath() -> String {
            var text = ""
            for container in stack {
                switch container {
                case .object(let key): text += (text.isEmpty ? "" : ".") + key
                case .array(let index): text += "[\(index)]"
                }
            }
            return text
        }

        private func unexpected() -> JSONSyntaxProblem {
            // The whole scalar, not its first byte: a stray "é" is shown as such.
            let end = bytes[position...].dropFirst().firstIndex { $0 & 0xC0 != 0x80 } ?? bytes.count
            let scalar = String(decoding: bytes[position..<end], as: UTF8.self).unicodeScalars.first ?? "\u{FFFD}"
            return problem(.unexpectedCharacter(scalar))
        }

        private func problem(_ kind: Kind) -> JSONSyntaxProblem { problem(kind, at: position) }

        /// A problem at byte `offset`, on the current line: strings hold no raw newline and the
        /// other tokens are one line long. The end of input is placed after the last character that
        /// is not white space, on the line a reader sees it end.
        private func problem(_ kind: Kind, at offset: Int) -> JSONSyntaxProblem {
            if kind == .endOfInput {
                let end = (bytes.lastIndex { ![UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"), UInt8(ascii: "\n")].contains($0) } ?? -1) + 1
                let newlines = bytes[..<end].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
                let start = (bytes[..<end].lastIndex(of: UInt8(ascii: "\n")) ?? -1) + 1
                return JSONSyntaxProblem(kind: kind, line: 1 + newlines, column: 1 + scalarCount(start..<end))
            }
            return JSONSyntaxProblem(kind: kind, line: line, column: 1 + scalarCount(lineStart..<max(lineStart, offset)))
        }

        private func scalarCount(_ range: Range<Int>) -> Int {
            bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
    }
}
