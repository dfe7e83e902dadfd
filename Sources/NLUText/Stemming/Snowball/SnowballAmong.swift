/// A Snowball `among (...)` table: strings, each with an optional condition routine and the index
/// of the command it selects (nil: the string matches but runs nothing).
struct SnowballAmong: Sendable {
    struct Entry: Sendable {
        let string: [Unicode.Scalar]
        let condition: Int?
        let command: Int?
    }

    let backward: Bool
    let commands: [SnowballCommand]
    /// Entries that end (backward) or start (forward) with a character, longest first: all the
    /// strings that match at one position are suffixes (prefixes) of each other, so the first one
    /// that matches and whose condition holds is the one Snowball's `find_among` picks.
    private let byEdge: [Unicode.Scalar: [Entry]]
    /// The empty string's entries (they match anywhere).
    private let empty: [Entry]

    init(entries: [Entry], commands: [SnowballCommand], backward: Bool) {
        self.backward = backward
        self.commands = commands
        var byEdge: [Unicode.Scalar: [Entry]] = [:]
        var empty: [Entry] = []
        for entry in entries {
            if let edge = backward ? entry.string.last : entry.string.first {
                byEdge[edge, default: []].append(entry)
            } else {
                empty.append(entry)
            }
        }
        self.byEdge = byEdge.mapValues { $0.sorted { $0.string.count > $1.string.count } }
        self.empty = empty
    }

    /// The candidates for the character at the matching edge, longest first, then the empty string.
    func candidates(edge: Unicode.Scalar?) -> (some Collection<Entry>, [Entry]) {
        (edge.flatMap { byEdge[$0] } ?? [], empty)
    }
}
