import CYaml

/// How a YAML text nests and how many values it expands to, read from libyaml's event stream (the
/// events Yams builds its nodes from) without building anything: libyaml's parser keeps its state in
/// heap stacks, so 100,000 nested `[` cost memory here, not call-stack frames, while Yams' composer
/// recurses once per level and would overflow.
///
/// Counting events rather than characters measures the nesting the parser will see: a `[` in an
/// example (Rasa's `[Joe's](restaurant)`, snips-nlu's `[city](Paris)`) is text inside a scalar, not a
/// flow sequence, and quotes only start a string where YAML says they do.
///
///     YAMLShape.measure("a: [[1], {b: 2}]\n", stopDepth: 256, stopValues: 1_000_000)   // depth 3
struct YAMLShape {
    /// The deepest nesting of collections seen (sequences and mappings, block or flow).
    var depth = 0
    /// The line (1-based) where ``depth`` was reached.
    var deepestLine = 0
    /// The most values (collections, scalars) one document expands to once aliases are followed.
    var values = 0

    /// Measures `text`, stopping early once `depth` passes `stopDepth` or `values` passes
    /// `stopValues` (the caller refuses the text then: reading on gains nothing). A syntax error ends
    /// the measure where it occurs; what came before it is what Yams would have built before failing.
    static func measure(_ text: String, stopDepth: Int, stopValues: Int) -> YAMLShape {
        var text = text
        return text.withUTF8 { bytes in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else { return YAMLShape() }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
            yaml_parser_set_input_string(&parser, bytes.baseAddress, bytes.count)
            var shape = YAMLShape()
            var walk = ExpansionCount()
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                let type = event.type
                switch type {
                case YAML_STREAM_END_EVENT:
                    return shape
                case YAML_DOCUMENT_START_EVENT:
                    walk = ExpansionCount()   // anchors are per document
                case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
                    let anchor = type == YAML_SEQUENCE_START_EVENT ? event.data.sequence_start.anchor : event.data.mapping_start.anchor
                    walk.open(anchor: anchor.map { String(cString: $0) })
                    if walk.depth > shape.depth {
                        shape.depth = walk.depth
                        shape.deepestLine = Int(event.start_mark.line) + 1
                    }
                case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                    walk.close()
                case YAML_SCALAR_EVENT:
                    walk.scalar(anchor: event.data.scalar.anchor.map { String(cString: $0) })
                case YAML_ALIAS_EVENT:
                    walk.alias(event.data.alias.anchor.map { String(cString: $0) })
                default:
                    break
                }
                shape.values = max(shape.values, walk.values)
                if shape.depth > stopDepth || shape.values > stopValues { return shape }
            }
            return shape
        }
    }

    /// The values of one document as Yams' nodes would hold them once every alias is followed: an
    /// alias counts as many values as its anchor's node, found when that node closed.
    private struct ExpansionCount {
        /// The collections open, each with its anchor and the values inside it so far (itself included).
        private var open: [(anchor: String?, values: Int)] = []
        /// The expanded size of each anchored node.
        private var anchored: [String: Int] = [:]
        /// Every value counted so far, aliases expanded.
        private(set) var values = 0

        var depth: Int { open.count }

        mutating func open(anchor: String?) {
            values += 1
            open.append((anchor, 1))
        }

        mutating func close() {
            guard let closed = open.popLast() else { return }
            if let anchor = closed.anchor { anchored[anchor] = closed.values }
            if !open.isEmpty { open[open.count - 1].values += closed.values }
        }

        mutating func scalar(anchor: String?) {
            if let anchor { anchored[anchor] = 1 }
            add(1)
        }

        /// An alias to an unknown anchor is Yams' error to report; it counts one value here.
        mutating func alias(_ anchor: String?) {
            add(anchor.flatMap { anchored[$0] } ?? 1)
        }

        private mutating func add(_ count: Int) {
            values += count
            if !open.isEmpty { open[open.count - 1].values += count }
        }
    }
}
