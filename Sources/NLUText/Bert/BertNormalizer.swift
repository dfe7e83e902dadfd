/// The first step of the BERT pipeline, identical to the Rust `BertNormalizer`: clean text, isolate
/// CJK ideographs, strip accents, lowercase, in that order, each output character remembering the
/// original character it came from.
///
/// Differences from the slow Python `BasicTokenizer` (the fast behaviour is implemented; each is pinned
/// by a test in `BertFastSlowDifferenceTests`):
/// 1. Order: the fast tokenizer strips accents (NFD, drop `Mn`) *before* lowercasing, the slow one
///    lowercases first.
/// 2. Whitespace: fast uses Rust's `char::is_whitespace` (Unicode White_Space, e.g. U+2028, U+0085 in
///    the pre-tokenizer), slow uses `Zs` plus tab/LF/CR.
/// 3. CJK: fast's range U+2B920–U+2CEAF, slow's U+2B820–U+2CEAF (U+2B820–U+2B91F are not isolated).
/// 4. Unicode version: fast's control, `Mn` and punctuation tables come from an old Unicode version
///    (the `unicode_categories` crate), slow uses Python's `unicodedata`; e.g. U+2E43 is punctuation
///    only for the slow one, U+166D only for the fast one. The generated ``BertUnicodeTables`` copy fast.
///
/// Accent stripping reorders combining marks canonically and aligns them as the Rust tokenizer does
/// (see ``AccentStripper``).
///
///     let n = BertNormalizer(options: .uncased).normalize("Héllo\u{200B} 世界")
///     n.string // "hello  世  界 "
public struct BertNormalizer: Sendable {
    /// Remove control characters and map every kind of whitespace to a space.
    public var cleanText: Bool
    /// Put spaces around CJK ideographs so each becomes a word.
    public var handleChineseChars: Bool
    /// NFD, then drop nonspacing marks.
    public var stripAccents: Bool
    /// Lowercase (Rust `char::to_lowercase`, one character at a time).
    public var lowercase: Bool

    /// Makes the normalizer a tokenizer's options describe (`stripAccents: nil` follows `lowercase`).
    public init(options: BertTokenizer.Options) {
        cleanText = options.cleanText
        handleChineseChars = options.handleChineseChars
        lowercase = options.lowercase
        stripAccents = options.stripAccents ?? options.lowercase
    }

    /// Normalizes `text`; origins are scalar offsets into `text`.
    ///
    ///     BertNormalizer(options: .cased).normalize("a\u{0}b").string // "ab"
    public func normalize(_ text: String) -> NormalizedText {
        var output = NormalizedText(bytes: [], origins: [])
        var stripper = AccentStripper()
        var scalarIndex: Int32 = 0
        for scalar in text.unicodeScalars {
            append(scalar.value, origin: scalarIndex, stripper: &stripper, to: &output.bytes, &output.origins)
            scalarIndex += 1
        }
        finish(&stripper, to: &output.bytes, &output.origins)
        return output
    }

    /// Normalizes one original scalar, appending its UTF-8 output and `origin` per byte. With accent
    /// stripping, output may wait in `stripper` until the next starter or ``finish(_:to:_:)``.
    @inline(__always)
    func append(_ scalar: UInt32, origin: Int32, stripper: inout AccentStripper,
                to bytes: inout [UInt8], _ origins: inout [Int32]) {
        var value = scalar
        if cleanText {
            if value < 0x80 {
                if value == 0x09 || value == 0x0A || value == 0x0D {
                    value = 0x20
                } else if value < 0x20 || value == 0x7F {
                    return
                }
            } else {
                let classes = BertCharacterClasses.shared
                if classes.isRemovedByCleaning(value) { return }
                if classes.isCleanedToSpace(value) { value = 0x20 }
            }
        }
        if handleChineseChars && BertCharacterClasses.isChineseCharacter(value) {
            appendAccentsAndCase(0x20, origin: origin, stripper: &stripper, to: &bytes, &origins)
            appendAccentsAndCase(value, origin: origin, stripper: &stripper, to: &bytes, &origins)
            appendAccentsAndCase(0x20, origin: origin, stripper: &stripper, to: &bytes, &origins)
        } else {
            appendAccentsAndCase(value, origin: origin, stripper: &stripper, to: &bytes, &origins)
        }
    }

    /// Emits what accent stripping still holds (call once at the end of the text).
    func finish(_ stripper: inout AccentStripper, to bytes: inout [UInt8], _ origins: inout [Int32]) {
        stripper.finish { scalar, origin in appendCase(scalar, origin: origin, to: &bytes, &origins) }
    }

    @inline(__always)
    private func appendAccentsAndCase(_ value: UInt32, origin: Int32, stripper: inout AccentStripper,
                                      to bytes: inout [UInt8], _ origins: inout [Int32]) {
        if stripAccents {
            stripper.feed(value, origin: origin) { scalar, origin in appendCase(scalar, origin: origin, to: &bytes, &origins) }
        } else {
            appendCase(value, origin: origin, to: &bytes, &origins)
        }
    }

    @inline(__always)
    private func appendCase(_ value: UInt32, origin: Int32, to bytes: inout [UInt8], _ origins: inout [Int32]) {
        guard lowercase else {
            Self.appendUTF8(value, origin: origin, to: &bytes, &origins)
            return
        }
        if value < 0x80 {
            let lower = value >= 0x41 && value <= 0x5A ? value + 0x20 : value
            Self.appendUTF8(lower, origin: origin, to: &bytes, &origins)
        } else if let lowered = BertCharacterClasses.shared.lowercasing(value) {
            for part in lowered { Self.appendUTF8(part, origin: origin, to: &bytes, &origins) }
        } else {
            Self.appendUTF8(value, origin: origin, to: &bytes, &origins)
        }
    }

    @inline(__always)
    static func appendUTF8(_ value: UInt32, origin: Int32, to bytes: inout [UInt8], _ origins: inout [Int32]) {
        switch value {
        case 0..<0x80:
            bytes.append(UInt8(value))
            origins.append(origin)
        case 0x80..<0x800:
            bytes.append(UInt8(0xC0 | (value >> 6)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
            origins.append(origin); origins.append(origin)
        case 0x800..<0x10000:
            bytes.append(UInt8(0xE0 | (value >> 12)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
            origins.append(origin); origins.append(origin); origins.append(origin)
        default:
            bytes.append(UInt8(0xF0 | (value >> 18)))
            bytes.append(UInt8(0x80 | ((value >> 12) & 0x3F)))
            bytes.append(UInt8(0x80 | ((value >> 6) & 0x3F)))
            bytes.append(UInt8(0x80 | (value & 0x3F)))
            origins.append(origin); origins.append(origin); origins.append(origin); origins.append(origin)
        }
    }
}
