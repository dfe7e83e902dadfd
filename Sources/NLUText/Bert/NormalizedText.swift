/// Text after the BERT normalizer: its UTF-8 bytes and, for every byte, the index of the Unicode
/// scalar of the original text it came from, so that any slice maps back to the original string.
///
///     let normalized = BertNormalizer(options: .uncased).normalize("Ça va")
///     normalized.string                     // "ca va"
///     normalized.originalRange(of: 0..<2)   // 0..<2 (scalar offsets of "Ça")
public struct NormalizedText: Sendable, Equatable {
    /// The normalized text as UTF-8.
    public var bytes: [UInt8]
    /// For each byte of `bytes`, the scalar offset in the original text of the character it comes from.
    public var origins: [Int32]

    /// Makes normalized text from its bytes and their origins (one origin per byte).
    public init(bytes: [UInt8], origins: [Int32]) {
        self.bytes = bytes
        self.origins = origins
    }

    /// The normalized text as a string.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// The original scalar range covered by the normalized byte range `range` (non-empty): from the
    /// first byte's character to the last byte's character, as the Rust tokenizer's alignments do.
    public func originalRange(of range: Range<Int>) -> Range<Int> {
        Int(origins[range.lowerBound])..<(Int(origins[range.upperBound - 1]) + 1)
    }
}
