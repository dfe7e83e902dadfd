/// `strip_accents` as the Rust tokenizer does it, alignments included: NFD, canonical reordering of
/// combining marks, then removal of nonspacing marks.
///
/// Alignment follows the Rust `NormalizedString::transform` rule, which is positional: the first
/// character of each decomposition takes the origin of the next input character *in input order*
/// (even after reordering moved it), and the other characters of a decomposition take the origin of
/// the last input character taken. So `x` + U+0301 + U+1B44 (class 230 then 9) becomes `x` + U+1B44
/// with U+1B44 at the origin of U+0301.
///
///     var stripper = AccentStripper()
///     stripper.feed(0xE9, origin: 0) { scalar, origin in print(scalar, origin) }  // nothing yet
///     stripper.finish { scalar, origin in print(scalar, origin) }                  // 0x65 0
struct AccentStripper {
    /// Decomposed characters not yet emitted: one starter (maybe) followed by nonstarters.
    private var pending: [(scalar: UInt32, combiningClass: UInt8, startsDecomposition: Bool)] = []
    /// Origins of the input characters fed, in order; `nextSource` is the next one to take.
    private var sources: [Int32] = []
    private var nextSource = 0
    private var lastOrigin: Int32 = 0

    /// Adds one input character; calls `emit` for the output characters that are final.
    @inline(__always)
    mutating func feed(_ scalar: UInt32, origin: Int32, emit: (UInt32, Int32) -> Void) {
        let classes = BertCharacterClasses.shared
        sources.append(origin)
        if let parts = classes.decomposition(scalar) {
            for (index, part) in parts.enumerated() {
                add(part, combiningClass: classes.combiningClass(part), startsDecomposition: index == 0, emit: emit)
            }
        } else {
            add(scalar, combiningClass: classes.combiningClass(scalar), startsDecomposition: true, emit: emit)
        }
    }

    /// Emits everything still pending (at the end of the text).
    mutating func finish(emit: (UInt32, Int32) -> Void) {
        flush(emit: emit)
    }

    @inline(__always)
    private mutating func add(_ scalar: UInt32, combiningClass: UInt8, startsDecomposition: Bool, emit: (UInt32, Int32) -> Void) {
        // A starter ends the run of marks before it: that run can be put in canonical order now.
        if combiningClass == 0 { flush(emit: emit) }
        pending.append((scalar, combiningClass, startsDecomposition))
    }

    private mutating func flush(emit: (UInt32, Int32) -> Void) {
        guard !pending.isEmpty else { return }
        sortMarksCanonically()
        let classes = BertCharacterClasses.shared
        for item in pending {
            if item.startsDecomposition {
                lastOrigin = sources[nextSource]
                nextSource += 1
            }
            if !classes.isNonspacingMark(item.scalar) { emit(item.scalar, lastOrigin) }
        }
        pending.removeAll(keepingCapacity: true)
        if nextSource == sources.count {
            sources.removeAll(keepingCapacity: true)
            nextSource = 0
        }
    }

    /// Puts the pending marks in canonical order: a stable sort by combining class. Only `pending[0]` can be a
    /// starter (class 0, the smallest; a starter flushes what came before it), so sorting the whole run keeps it
    /// first. Real runs are a few marks, sorted in place by insertion; a long run (a "Zalgo" word of a million
    /// marks, alternating classes 230 and 220) made insertion quadratic, hours for one request, so it goes
    /// through a counting sort over the 256 classes, linear and just as stable (Rust sorts it with a stable
    /// `sort_by_key`: the same order).
    private mutating func sortMarksCanonically() {
        guard pending.count > Self.longestInsertionSortedRun else {
            var index = 1
            while index < pending.count {
                var position = index
                let item = pending[index]
                while position > 0, pending[position - 1].combiningClass > item.combiningClass {
                    pending[position] = pending[position - 1]
                    position -= 1
                }
                pending[position] = item
                index += 1
            }
            return
        }
        var starts = [Int](repeating: 0, count: 257)
        for item in pending { starts[Int(item.combiningClass) + 1] += 1 }
        for combiningClass in 1...256 { starts[combiningClass] += starts[combiningClass - 1] }
        var sorted = pending
        for item in pending {
            sorted[starts[Int(item.combiningClass)]] = item
            starts[Int(item.combiningClass)] += 1
        }
        pending = sorted
    }

    /// Runs up to this long are sorted by insertion (at most this squared over two moves).
    private static let longestInsertionSortedRun = 32
}
