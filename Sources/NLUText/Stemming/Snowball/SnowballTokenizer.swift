/// One token of a Snowball source (an `.sbl` file).
enum SnowballToken: Equatable {
    /// A name or a keyword (`define`, `among`, `or`...): the parser tells them apart.
    case word(String)
    case number(Int)
    /// A literal string with its `{...}` escapes and `stringdef`s already replaced.
    case literal([Unicode.Scalar])
    /// Punctuation: `(`, `)`, `[`, `]`, `$`, `<-`, `->`, `=>`, `==`, `+=`, `?`...
    case symbol(String)
}

/// Splits a Snowball source into tokens, as the Snowball compiler's tokeniser reads it: `//` and
/// `/* */` comments, `stringescapes` and `stringdef` directives applied here (they are lexical in
/// Snowball), `{U+XXXX}` escapes, and `{'}` for a quote.
struct SnowballTokenizer {
    private let bytes: [UInt8]
    private var position = 0
    private var line = 1
    private var escapeStart: UInt8?
    private var escapeEnd: UInt8?
    private var definitions: [String: [Unicode.Scalar]] = [:]

    init(source: String) {
        bytes = Array(source.utf8)
    }

    /// Every token of the source, each with its line number.
    static func tokens(of source: String) throws(SnowballSyntaxError) -> [(token: SnowballToken, line: Int)] {
        var tokenizer = SnowballTokenizer(source: source)
        var result: [(SnowballToken, Int)] = []
        while let token = try tokenizer.next() { result.append((token, tokenizer.line)) }
        return result
    }

    private func error(_ message: String) -> SnowballSyntaxError {
        SnowballSyntaxError(line: line, message: message)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    private mutating func skipSpaceAndComments() throws(SnowballSyntaxError) {
        while position < bytes.count {
            let byte = bytes[position]
            if Self.isSpace(byte) {
                if byte == 0x0A { line += 1 }
                position += 1
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "/") {
                while position < bytes.count, bytes[position] != 0x0A { position += 1 }
            } else if byte == UInt8(ascii: "/"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "*") {
                position += 2
                while true {
                    guard position + 1 < bytes.count else { throw error("unterminated /* comment") }
                    if bytes[position] == UInt8(ascii: "*"), bytes[position + 1] == UInt8(ascii: "/") {
                        position += 2
                        break
                    }
                    if bytes[position] == 0x0A { line += 1 }
                    position += 1
                }
            } else {
                return
            }
        }
    }

    private mutating func next() throws(SnowballSyntaxError) -> SnowballToken? {
        while true {
            try skipSpaceAndComments()
            guard position < bytes.count else { return nil }
            let byte = bytes[position]
            if Self.isLetter(byte) {
                let start = position
                while position < bytes.count,
                      Self.isLetter(bytes[position]) || Self.isDigit(bytes[position]) || bytes[position] == UInt8(ascii: "_") {
                    position += 1
                }
                let word = String(decoding: bytes[start..<position], as: UTF8.self)
                switch word {
                case "stringescapes":
                    try readStringEscapes()
                    continue
                case "stringdef":
                    try readStringDefinition()
                    continue
                case "get", "hex", "decimal":
                    throw error("'\(word)' is not supported")
                default:
                    return .word(word)
                }
            }
            if Self.isDigit(byte) {
                var value = 0
                while position < bytes.count, Self.isDigit(bytes[position]) {
                    value = value &* 10 &+ Int(bytes[position] - 0x30)
                    position += 1
                }
                return .number(value)
            }
            if byte == UInt8(ascii: "'") {
                position += 1
                return .literal(try readLiteral())
            }
            return .symbol(try readSymbol())
        }
    }

    private mutating func readSymbol() throws(SnowballSyntaxError) -> String {
        let first = Character(Unicode.Scalar(bytes[position]))
        let second: Character? = position + 1 < bytes.count ? Character(Unicode.Scalar(bytes[position + 1])) : nil
        let pairs: Set<String> = ["!=", "*=", "+=", "-=", "->", "/=", "<-", "<=", "<+", "==", "=>", ">="]
        if let second, pairs.contains(String([first, second])) {
            position += 2
            return String([first, second])
        }
        guard "$()*+-/<=>?[]".contains(first) else { throw error("unexpected character '\(first)'") }
        position += 1
        return String(first)
    }

    private mutating func nextNonSpaceByte() throws(SnowballSyntaxError) -> UInt8 {
        try skipSpaceAndComments()
        guard position < bytes.count else { throw error("unexpected end of source") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func readStringEscapes() throws(SnowballSyntaxError) {
        escapeStart = try nextNonSpaceByte()
        escapeEnd = try nextNonSpaceByte()
    }

    /// `stringdef NAME 'value'`: NAME is any run of non-space characters (`e'`, `a^`...).
    private mutating func readStringDefinition() throws(SnowballSyntaxError) {
        try skipSpaceAndComments()
        let start = position
        while position < bytes.count, !Self.isSpace(bytes[position]) { position += 1 }
        let name = String(decoding: bytes[start..<position], as: UTF8.self)
        guard try nextNonSpaceByte() == UInt8(ascii: "'") else { throw error("stringdef \(name) without a string") }
        definitions[name] = try readLiteral()
    }

    /// The characters of a literal up to its closing quote (the opening one is consumed).
    private mutating func readLiteral() throws(SnowballSyntaxError) -> [Unicode.Scalar] {
        var result: [Unicode.Scalar] = []
        while true {
            guard position < bytes.count, bytes[position] != 0x0A else { throw error("string literal not terminated") }
            let byte = bytes[position]
            if let escapeStart, byte == escapeStart {
                position += 1
                let start = position
                var newline = false
                while true {
                    guard position < bytes.count else { throw error("string escape not terminated") }
                    if bytes[position] == 0x0A { newline = true; line += 1 }
                    if bytes[position] == escapeEnd { break }
                    position += 1
                }
                let content = String(decoding: bytes[start..<position], as: UTF8.self)
                position += 1
                // An escape spanning lines only continues a long string on the next line.
                if newline { continue }
                result.append(contentsOf: try expand(content))
                continue
            }
            if byte == UInt8(ascii: "'") {
                position += 1
                return result
            }
            // Sources are ASCII outside escapes; decode UTF-8 anyway so nothing is mangled.
            let start = position
            position += 1
            while position < bytes.count, bytes[position] & 0xC0 == 0x80 { position += 1 }
            result.append(contentsOf: String(decoding: bytes[start..<position], as: UTF8.self).unicodeScalars)
        }
    }

    private func expand(_ content: String) throws(SnowballSyntaxError) -> [Unicode.Scalar] {
        if let defined = definitions[content] { return defined }
        let scalars = Array(content.unicodeScalars)
        if scalars.count == 1, scalars[0] == "'" || scalars[0] == Unicode.Scalar(escapeStart ?? 0) {
            return scalars
        }
        if scalars.count >= 3, scalars[0] == "U", scalars[1] == "+",
           let value = UInt32(String(content.dropFirst(2)), radix: 16), let scalar = Unicode.Scalar(value) {
            return [scalar]
        }
        throw error("string macro '\(content)' undeclared")
    }
}
