/// GPT-2's byte-level pre-tokenizer (Hugging Face `ByteLevel`): splits text as GPT-2's regex does
/// (`'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`), then writes
/// every UTF-8 byte as one printable scalar (the `bytes_to_unicode` table), so a BPE vocabulary
/// covers any text without an unknown token. Each byte's scalar keeps the alignment of the
/// character it comes from, so a token holding part of a character's bytes has that character's offsets.
///
///     ByteLevel.split(AlignedText("Hello world")).map(\.string)   // ["Hello", " world"]
///     ByteLevel.bytesToScalars(AlignedText(" é")).string          // "ĠÃ©"
public enum ByteLevel {
    /// `bytes_to_unicode`: printable Latin-1 bytes stand for themselves, the other 68 bytes
    /// (controls, space, soft hyphen...) for U+0100 onwards, in byte order.
    public static let byteScalars: [Unicode.Scalar] = {
        var table = [Unicode.Scalar](repeating: " ", count: 256)
        var next: UInt32 = 256
        for byte in 0..<256 {
            let printable = (0x21...0x7E).contains(byte) || (0xA1...0xAC).contains(byte) || (0xAE...0xFF).contains(byte)
            if printable {
                table[byte] = Unicode.Scalar(UInt8(byte))
            } else {
                table[byte] = Unicode.Scalar(next)!
                next += 1
            }
        }
        return table
    }()

    /// The byte-level scalar of the space byte ("Ġ").
    public static let spaceScalar = byteScalars[0x20]

    /// Each scalar of `text` as the byte-level scalars of its UTF-8 bytes, all aligned as it was.
    public static func bytesToScalars(_ text: AlignedText) -> AlignedText {
        var result = AlignedText(scalars: [], starts: [], ends: [])
        result.scalars.reserveCapacity(text.scalars.count * 2)
        for (index, scalar) in text.scalars.enumerated() {
            for byte in String(scalar).utf8 {
                result.scalars.append(byteScalars[Int(byte)])
                result.starts.append(text.starts[index])
                result.ends.append(text.ends[index])
            }
        }
        return result
    }

    enum CharacterClass { case letter, number, whitespace, other }

    /// The class GPT-2's regex sees: `\p{L}`, `\p{N}`, `\s` (Unicode White_Space, as Oniguruma's), or other.
    static func characterClass(_ scalar: Unicode.Scalar) -> CharacterClass {
        let properties = scalar.properties
        if properties.isWhitespace { return .whitespace }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter: return .letter
        case .decimalNumber, .letterNumber, .otherNumber: return .number
        default: return .other
        }
    }

    /// The scalar ranges of GPT-2's regex matches in `scalars` (they cover every scalar).
    public static func splitRanges(_ scalars: [Unicode.Scalar]) -> [Range<Int>] {
        let classes = scalars.map(characterClass)
        let count = scalars.count
        var ranges: [Range<Int>] = []
        var index = 0
        func run(from start: Int, _ kind: CharacterClass) -> Int {
            var end = start
            while end < count && classes[end] == kind { end += 1 }
            return end
        }
        while index < count {
            let start = index
            // 's 't 're 've 'm 'll 'd (case-sensitive, as the regex).
            if scalars[index] == "'" && index + 1 < count {
                let next = scalars[index + 1]
                if next == "s" || next == "t" || next == "m" || next == "d" {
                    ranges.append(start..<(index + 2)); index += 2; continue
                }
                if index + 2 < count {
                    let pair = (next, scalars[index + 2])
                    if pair == ("r", "e") || pair == ("v", "e") || pair == ("l", "l") {
                        ranges.append(start..<(index + 3)); index += 3; continue
                    }
                }
            }
            // An optional space, then a run of letters, numbers or other symbols.
            let body = scalars[index] == " " && index + 1 < count && classes[index + 1] != .whitespace ? index + 1 : index
            if classes[body] != .whitespace {
                index = run(from: body, classes[body])
                ranges.append(start..<index)
                continue
            }
            // Whitespace: `\s+(?!\S)` keeps the run's last scalar for the word after it.
            let end = run(from: index, .whitespace)
            if end == count || end - index == 1 {
                index = end
            } else {
                index = end - 1
            }
            ranges.append(start..<index)
        }
        return ranges
    }
}
