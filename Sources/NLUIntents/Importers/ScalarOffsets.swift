import NLUText

/// Offset conversions for exports that count in UTF-16 code units (Watson, LUIS: JavaScript and .NET
/// strings) or UTF-8 bytes (CLU's `Utf8CodeUnit`) into the Unicode-scalar offsets NLUKit uses, and
/// back for export.
///
/// One text's conversions share one walk over it (``init(_:unit:)``), then each offset costs a
/// binary search: converting every mention by counting from the start of the text was quadratic
/// in the mentions of one long utterance (40,000 Watson mentions took 7 s, 200,000 `.lu` labels
/// more than a minute).
///
///     let offsets = ScalarOffsets("naïve 😀 café", unit: .utf16)
///     offsets.scalarRange(offset: 9, length: 4)   // 8..<12, "café"
struct ScalarOffsets {
    /// The units an export counts offsets in.
    enum Unit: String {
        case utf16 = "Utf16CodeUnit", utf8 = "Utf8CodeUnit", scalar = "UnicodeCodePoint"

        func width(of scalar: Unicode.Scalar) -> Int {
            switch self {
            case .utf16: return scalar.utf16.count
            case .utf8: return scalar.utf8.count
            case .scalar: return 1
            }
        }
    }

    let unit: Unit
    /// Where each scalar starts, in `unit`s, and then the text's length: ascending, one more
    /// element than the text has scalars.
    private let unitStarts: [Int]

    /// Walks `text` once.
    init(_ text: String, unit: Unit) {
        self.unit = unit
        var starts: [Int] = []
        starts.reserveCapacity(text.utf8.count + 1)
        var units = 0
        for scalar in text.unicodeScalars {
            starts.append(units)
            units += unit.width(of: scalar)
        }
        starts.append(units)
        unitStarts = starts
    }

    /// The text's length in `unit`s.
    var length: Int { unitStarts[unitStarts.count - 1] }

    /// The text's length in scalars.
    var scalarCount: Int { unitStarts.count - 1 }

    /// The scalar range of the span `offset ..< offset + length` counted in `unit`s, or `nil` when
    /// it is empty, lies outside the text or cuts a character's encoding in two.
    func scalarRange(offset: Int, length: Int) -> Range<Int>? {
        guard offset >= 0, length > 0, offset <= Int.max - length,
              let start = scalarOffset(exactly: offset), let end = scalarOffset(exactly: offset + length) else { return nil }
        return start..<end
    }

    /// The scalar offset where unit offset `offset` falls, `nil` when it is outside the text or
    /// inside a character's encoding.
    func scalarOffset(exactly offset: Int) -> Int? {
        let index = firstStart(atLeast: offset)
        return index < unitStarts.count && unitStarts[index] == offset ? index : nil
    }

    /// The first scalar offset at or after unit offset `offset`, clamped to the text (`0` for a
    /// negative offset, the scalar count past the end).
    func scalarOffset(roundingUp offset: Int) -> Int {
        min(firstStart(atLeast: offset), scalarCount)
    }

    /// The offset in `unit`s of scalar offset `scalarOffset` (clamped to the text), for export.
    func unitOffset(ofScalar scalarOffset: Int) -> Int {
        unitStarts[min(max(scalarOffset, 0), scalarCount)]
    }

    /// The index of the first element of `unitStarts` not below `offset` (`unitStarts.count` if none).
    private func firstStart(atLeast offset: Int) -> Int {
        unitStarts.partitioningIndex { $0 >= offset }
    }
}
