import NLUText

/// BIO tags over word tokens: `B-<slot>` on a mention's first token, `I-<slot>` on the others, `O`
/// outside. The slot is the entity name, with `@role` and `#group` appended when the annotation has
/// them, so roles and groups are learned and predicted as part of the tag ("B-city@departure").
///
///     SlotTagScheme.tags(for: Utterance("fly to Paris", entities: [.init(start: 7, end: 12, entity: "city")]),
///                        tokens: WordTokenizer().tokens(in: "fly to Paris"))   // ["O", "O", "B-city"]
enum SlotTagScheme {
    static let outside = "O"

    /// One slot: entity, role, group.
    struct Slot: Hashable, Sendable {
        var entity: String
        var role: String?
        var group: String?

        var key: String { entity + (role.map { "@" + $0 } ?? "") + (group.map { "#" + $0 } ?? "") }

        init(entity: String, role: String?, group: String?) {
            self.entity = entity
            self.role = role
            self.group = group
        }

        /// Parses a key made by ``key`` (entity names containing `@` or `#` are read up to the first one).
        init(key: String) {
            var rest = Substring(key)
            var group: String?
            var role: String?
            if let hash = rest.firstIndex(of: "#") { group = String(rest[rest.index(after: hash)...]); rest = rest[..<hash] }
            if let at = rest.firstIndex(of: "@") { role = String(rest[rest.index(after: at)...]); rest = rest[..<at] }
            self.init(entity: String(rest), role: role, group: group)
        }
    }

    /// The tag of each token: a token is in a mention when it lies wholly inside the annotation's range.
    /// Annotations that cover no whole token, or tokens already tagged, are skipped.
    ///
    /// Tokens are in text order and do not overlap, so those inside an annotation are one run, found by
    /// binary search: filtering every token for every annotation made an utterance of many mentions
    /// quadratic (30,000 annotated words took minutes to train on).
    static func tags(for utterance: Utterance, tokens: [WordTokenizer.Token]) -> [String] {
        var tags = [String](repeating: outside, count: tokens.count)
        let offsets = utterance.text.scalarOffsets(of: tokens.map(\.range))
        for annotation in utterance.entities {
            let inside = Self.tokens(of: offsets, inside: annotation)
            guard !inside.isEmpty, inside.allSatisfy({ tags[$0] == outside }) else { continue }
            let slot = Slot(entity: annotation.entity, role: annotation.role, group: annotation.group).key
            for (position, index) in inside.enumerated() { tags[index] = (position == 0 ? "B-" : "I-") + slot }
        }
        return tags
    }

    /// The indices of the tokens (their scalar `offsets`, in text order, not overlapping) that lie wholly
    /// inside `annotation`: one run, found by binary search.
    static func tokens(of offsets: [Range<Int>], inside annotation: EntityAnnotation) -> Range<Int> {
        let first = offsets.partitioningIndex { $0.lowerBound >= annotation.start }
        return first..<max(first, offsets.partitioningIndex { $0.upperBound > annotation.end })
    }

    /// The mentions in a tag sequence: a `B-x` starts one, following `I-x` continue it; an `I-x` that
    /// continues nothing starts one too (as CoNLL's evaluation reads it).
    static func spans(_ tags: [String]) -> [(slot: String, tokens: Range<Int>)] {
        var spans: [(String, Range<Int>)] = []
        var current: (slot: String, start: Int)?
        for (index, tag) in tags.enumerated() {
            let isBegin = tag.hasPrefix("B-"), isInside = tag.hasPrefix("I-")
            let slot = isBegin || isInside ? String(tag.dropFirst(2)) : nil
            if let open = current, !(isInside && slot == open.slot) {
                spans.append((open.slot, open.start..<index))
                current = nil
            }
            if let slot, current == nil { current = (slot, index) }
        }
        if let open = current { spans.append((open.slot, open.start..<tags.count)) }
        return spans
    }
}
