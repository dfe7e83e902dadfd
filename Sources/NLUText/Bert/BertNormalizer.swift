/// The first step of the BERT pipeline, identical to the Rust `BertNormalizer`: clean text, isolate
/// CJK ideographs, strip accents, lowercase, in that order, each output character remembering the
/// original character it came from.
///
/// Differences from the slow Python `BasicTokenizer`; the fast behaviour is implemented. Found by
/// running both on "xa" + scalar + "b" for every Unicode scalar; each observable one is pinned by a case
/// in `slow-differences.json` (`BertFastSlowDifferenceTests`):
/// 1. Unassigned code points (Python `Cn`): slow deletes them as "control", fast keeps them
///    (U+0378 stays inside the word).
/// 2. Punctuation from a newer Unicode version: slow isolates U+2E43, U+2E4F, U+061D, …; fast (old
///    `unicode_categories` tables) does not. Conversely fast isolates U+166D (punctuation in old
///    Unicode, a symbol now), slow does not.
/// 3. Nonspacing marks: slow strips marks newer than fast's tables (U+07FD is kept by fast); fast
///    strips U+1734, which was `Mn` in old Unicode and is `Mc` now.
/// 4. Format characters newer than fast's tables (U+0890): slow deletes them, fast keeps them.
/// 5. CJK: fast's extension range starts at U+2B920, slow's at U+2B820 (U+2B820–U+2B91F are isolated
///    by slow only).
/// The code also differs where no scalar shows it: fast strips accents *before* lowercasing (slow
/// after), and fast's whitespace is Unicode White_Space where slow's is `Zs` plus tab/LF/CR (slow then
/// splits on Python's `str.split()`, which gives the same words).
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
