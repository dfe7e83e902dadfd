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
