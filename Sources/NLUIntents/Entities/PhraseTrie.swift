/// The phrases of one entity dictionary as a trie over their tokens: finds the longest phrase that
/// starts at a position in time proportional to that phrase's length, whatever the number of phrases.
///
///     var trie = PhraseTrie()
///     trie.insert(["short", "black"], value: "espresso")
///     trie.longestPhrase(in: ["a", "short", "black"], from: 1)   // (length: 2, value: "espresso")
///
/// The edges of all nodes live in one dictionary keyed by (node, token): one hash table rather than
/// one per node, so a million phrases cost a few entries each.
struct PhraseTrie: Sendable {
    private struct Edge: Hashable, Sendable {
        var node: Int32
        var token: String
    }

    /// The child of each (node, token); node 0 is the root.
    private var children: [Edge: Int32] = [:]
    /// The value of the phrase ending at each node, `nil` where none ends.
    private var values: [String?] = [nil]

    /// Whether the trie holds no phrase.
    var isEmpty: Bool { children.isEmpty }

    /// Adds the phrase `tokens` with `value`; a phrase already present keeps its first value, an empty
    /// one is ignored.
    mutating func insert(_ tokens: [String], value: String) {
        guard !tokens.isEmpty else { return }
        var node: Int32 = 0
        for token in tokens {
            let edge = Edge(node: node, token: token)
            if let child = children[edge] {
                node = child
            } else {
                let child = Int32(values.count)
                values.append(nil)
                children[edge] = child
                node = child
            }
        }
        if values[Int(node)] == nil { values[Int(node)] = value }
    }

    /// The longest phrase that `tokens` hold from `start` on: its length in tokens and its value.
    func longestPhrase(in tokens: [String], from start: Int) -> (length: Int, value: String)? {
        var node: Int32 = 0
        var found: (length: Int, value: String)?
        var position = start
        while position < tokens.count, let child = children[Edge(node: node, token: tokens[position])] {
            node = child
            position += 1
            if let value = values[Int(node)] { found = (position - start, value) }
        }
        return found
    }
}
