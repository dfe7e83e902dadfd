/// Where the markup after a mention's `]` ends: the first `)` after a `(`, the `}` that balances a
/// `{` (braces nest, as in JSON). Each is found in time independent of the text's length after a
/// single pass, made the first time it is needed, so that markup left unclosed many times over
/// stays linear (Rasa's `[text](entity)` and snips-nlu's `[slot](text)` alike).
struct MarkupClosers {
    private let characters: [Character]
    /// The index of the first `)` at or after each index (nil: none); made on the first `(`.
    private var nextParenthesis: [Int?]?
    /// The index of the `}` balancing each `{` (nil: it never balances, or no `{` there); made on the first `{`.
    private var matchingBrace: [Int?]?

    init(_ characters: [Character]) {
        self.characters = characters
    }

    /// The index of the `)` or `}` closing the markup whose opener is at `start`, nil when there is
    /// none or `start` holds neither `(` nor `{`.
    mutating func closing(of start: Int) -> Int? {
        switch characters[start] {
        case "(":
            if nextParenthesis == nil {
                var next: Int? = nil
                var table = [Int?](repeating: nil, count: characters.count)
                for index in characters.indices.reversed() {
                    if characters[index] == ")" { next = index }
                    table[index] = next
                }
                nextParenthesis = table
            }
            return nextParenthesis?[start] ?? nil
        case "{":
            if matchingBrace == nil {
                var table = [Int?](repeating: nil, count: characters.count)
                var open: [Int] = []
                for (index, character) in characters.enumerated() {
                    if character == "{" { open.append(index) }
                    if character == "}", let opener = open.popLast() { table[opener] = index }
                }
                matchingBrace = table
            }
            return matchingBrace?[start] ?? nil
        default:
            return nil
        }
    }
}
