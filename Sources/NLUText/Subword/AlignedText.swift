/// Text in the middle of a tokenizer pipeline, each of its Unicode scalars tied to the range of
/// the original text it came from, as Hugging Face's `NormalizedString` ties its bytes: every step
/// (normalizers, pre-tokenizers) rewrites the scalars and carries the alignments along, so a token
/// made of any slice maps back to original offsets.
///
///     var text = AlignedText("a  b")
///     text.replace(matchesOf: { $0 == " " }, with: "▁")
///     text.string                      // "a▁▁b"
///     text.originalRange(of: 1..<3)    // 1..<3
public struct AlignedText: Sendable, Equatable {
    /// The current scalars.
    public var scalars: [Unicode.Scalar]
    /// For each scalar, the start (in original Unicode-scalar offsets) of the original range it comes from.
    public var starts: [Int32]
    /// For each scalar, the end of that original range.
    public var ends: [Int32]

    /// The text as it is before any step: each scalar aligned to itself. `offset` shifts the
    /// alignments (a piece of a longer text).
    public init<S: StringProtocol>(_ text: S, offset: Int = 0) {
        scalars = Array(text.unicodeScalars)
        starts = (0..<scalars.count).map { Int32($0 + offset) }
        ends = (0..<scalars.count).map { Int32($0 + offset + 1) }
    }

    init(scalars: [Unicode.Scalar], starts: [Int32], ends: [Int32]) {
        self.scalars = scalars
        self.starts = starts
        self.ends = ends
    }

    /// The current text.
    public var string: String {
        var result = String.UnicodeScalarView()
        result.append(contentsOf: scalars)
        return String(result)
    }

    public var isEmpty: Bool { scalars.isEmpty }

    /// The original range of the scalars `range` (non-empty): from the first one's start to the
    /// last one's end, as `NormalizedString.convert_offsets` does.
    public func originalRange(of range: Range<Int>) -> Range<Int> {
        guard !range.isEmpty else { return 0..<0 }
        let start = Int(starts[range.lowerBound]), end = Int(ends[range.upperBound - 1])
        return start..<max(start, end)
    }

    /// The scalars `range` with their alignments.
    public func slice(_ range: Range<Int>) -> AlignedText {
        AlignedText(scalars: Array(scalars[range]), starts: Array(starts[range]), ends: Array(ends[range]))
    }

    /// Rewrites the scalars `range` as `NormalizedString.transform_range` does: the first
    /// `initialOffset` scalars of the range are removed, then each new scalar either replaces the
    /// next old one (`change` 0, its alignment kept), replaces it and removes `-change` more
    /// (`change` < 0), or is inserted (`change` 1: the alignment of the old scalar before it, or
    /// an empty one at the very start).
    mutating func transform(range: Range<Int>, with changes: [(scalar: Unicode.Scalar, change: Int)], initialOffset: Int = 0) {
        var newScalars: [Unicode.Scalar] = [], newStarts: [Int32] = [], newEnds: [Int32] = []
        newScalars.reserveCapacity(changes.count)
        newStarts.reserveCapacity(changes.count)
        newEnds.reserveCapacity(changes.count)
        var old = min(range.lowerBound + initialOffset, range.upperBound)
        for (scalar, change) in changes {
            if change > 0 {
                if old < 1 {
                    newStarts.append(0); newEnds.append(0)
                } else {
                    newStarts.append(starts[old - 1]); newEnds.append(ends[old - 1])
                }
            } else {
                let index = min(old, scalars.count - 1)
                newStarts.append(index >= 0 ? starts[index] : 0)
                newEnds.append(index >= 0 ? ends[index] : 0)
                if old < range.upperBound { old += 1 }
                if change < 0 { old = min(old + (-change), range.upperBound) }
            }
            newScalars.append(scalar)
        }
        scalars.replaceSubrange(range, with: newScalars)
        starts.replaceSubrange(range, with: newStarts)
        ends.replaceSubrange(range, with: newEnds)
    }

    /// Replaces every match (non-overlapping, left to right) with `content`, as
    /// `NormalizedString.replace`: the matched scalars are removed and `content` inserted with the
    /// alignment of the last matched scalar.
    mutating func replace(matches: [Range<Int>], with content: String) {
        guard !matches.isEmpty else { return }
        let inserted = Array(content.unicodeScalars)
        var newScalars: [Unicode.Scalar] = [], newStarts: [Int32] = [], newEnds: [Int32] = []
        var last = 0
        for match in matches {
            newScalars += scalars[last..<match.lowerBound]
            newStarts += starts[last..<match.lowerBound]
            newEnds += ends[last..<match.lowerBound]
            for scalar in inserted {
                newScalars.append(scalar)
                if match.upperBound < 1 {
                    newStarts.append(0); newEnds.append(0)
                } else {
                    newStarts.append(starts[match.upperBound - 1]); newEnds.append(ends[match.upperBound - 1])
                }
            }
            last = match.upperBound
        }
        newScalars += scalars[last...]
        newStarts += starts[last...]
        newEnds += ends[last...]
        self = AlignedText(scalars: newScalars, starts: newStarts, ends: newEnds)
    }

    /// Replaces every scalar for which `isMatch` holds with `content`.
    mutating func replace(matchesOf isMatch: (Unicode.Scalar) -> Bool, with content: String) {
        replace(matches: scalars.indices.filter { isMatch(scalars[$0]) }.map { $0..<($0 + 1) }, with: content)
    }

    /// Puts `prefix` before the text, aligned with the first scalar (`NormalizedString.prepend`);
    /// an empty text stays empty.
    mutating func prepend(_ prefix: String) {
        guard let first = scalars.first else { return }
        let added = Array(prefix.unicodeScalars)
        guard !added.isEmpty else { return }
        var changes = added.enumerated().map { (scalar: $0.element, change: $0.offset == 0 ? 0 : 1) }
        changes.append((scalar: first, change: 1))
        transform(range: 0..<1, with: changes)
    }
}
