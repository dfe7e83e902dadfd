import Foundation

/// Rasa's inline entity markup: `[text](entity)`, `[text](entity:value)` and
/// `[text]{"entity": "e", "value": "v", "role": "r"}`, turned into plain text plus annotations.
///
///     RasaAnnotationParser.parse("fly to [Paris](city)")   // "fly to Paris", city 7..<12
///
/// Malformed markup stays plain text: a `[` without a later `]`, a `]` followed by neither `(` nor
/// `{`, a `(` without a later `)`, a `{` whose braces never balance.
///
/// Time is linear in the example's length, however much markup is unclosed: a failed `[` skips to
/// its `]` (every `[` before that `]` pairs with it and fails the same way), and closers are found
/// once, not by scanning to the end for each opener (`[x](` repeated over 200,000 characters took
/// minutes when every `(` looked for its `)` from scratch).
enum RasaAnnotationParser {
    static func parse(_ marked: String) -> Utterance {
        let characters = Array(marked)
        var closers = MarkupClosers(characters)
        var builder = UtteranceBuilder()
        var plainStart = 0   // the first character not appended yet
        var search = 0       // where the next `[` is looked for
        while let open = characters[search...].firstIndex(of: "["),
              let close = characters[open...].firstIndex(of: "]") {
            let afterClose = close + 1
            guard afterClose < characters.count, let end = closers.closing(of: afterClose) else {
                search = afterClose
                continue
            }
            let mention = String(characters[(open + 1)..<close])
            let markup = String(characters[(afterClose + 1)..<end])
            builder.append(String(characters[plainStart..<open]))
            if characters[afterClose] == "(" {
                let parts = markup.split(separator: ":", maxSplits: 1).map(String.init)
                builder.append(mention, entity: parts.first ?? markup, value: parts.count > 1 ? parts[1] : mention)
            } else if let object = try? JSONSerialization.jsonObject(with: Data("{\(markup)}".utf8)) as? [String: Any],
                      let entity = object["entity"] as? String {
                builder.append(mention, entity: entity, value: (object["value"] as? String) ?? mention, role: object["role"] as? String,
                               group: (object["group"] as? String) ?? (object["group"] as? Int).map(String.init))
            } else {
                builder.append(mention)
            }
            plainStart = end + 1
            search = plainStart
        }
        builder.append(String(characters[plainStart...]))
        return builder.utterance
    }
}

/// Where the markup after a mention's `]` ends: the first `)` after a `(`, the `}` that balances a
/// `{` (braces nest, as in JSON). Each is found in time independent of the text's length after a
/// single pass, made the first time it is needed.
private struct MarkupClosers {
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
