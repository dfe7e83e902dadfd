import Foundation

/// Rasa's inline entity markup: `[text](entity)`, `[text](entity:value)` and
/// `[text]{"entity": "e", "value": "v", "role": "r"}`, turned into plain text plus annotations.
///
///     RasaAnnotationParser.parse("fly to [Paris](city)")   // "fly to Paris", city 7..<12
enum RasaAnnotationParser {
    static func parse(_ marked: String) -> Utterance {
        var builder = UtteranceBuilder()
        var rest = Substring(marked)
        while let open = rest.firstIndex(of: "[") {
            guard let close = rest[open...].firstIndex(of: "]") else { break }
            let afterClose = rest.index(after: close)
            guard afterClose < rest.endIndex, let end = closing(of: rest[afterClose], in: rest, from: afterClose) else {
                builder.append(String(rest[...open]))
                rest = rest[rest.index(after: open)...]
                continue
            }
            let mention = String(rest[rest.index(after: open)..<close])
            let markup = rest[rest.index(after: afterClose)..<end]
            builder.append(String(rest[..<open]))
            if rest[afterClose] == "(" {
                let parts = markup.split(separator: ":", maxSplits: 1).map(String.init)
                builder.append(mention, entity: parts.first ?? String(markup), value: parts.count > 1 ? parts[1] : mention)
            } else if let object = try? JSONSerialization.jsonObject(with: Data("{\(markup)}".utf8)) as? [String: Any],
                      let entity = object["entity"] as? String {
                builder.append(mention, entity: entity, value: (object["value"] as? String) ?? mention, role: object["role"] as? String,
                               group: (object["group"] as? String) ?? (object["group"] as? Int).map(String.init))
            } else {
                builder.append(mention)
            }
            rest = rest[rest.index(after: end)...]
        }
        builder.append(String(rest))
        return builder.utterance
    }

    /// The index of the `)` or `}` closing the markup that starts at `start` (braces may nest).
    private static func closing(of opener: Character, in text: Substring, from start: Substring.Index) -> Substring.Index? {
        switch opener {
        case "(":
            return text[start...].firstIndex(of: ")")
        case "{":
            var depth = 0
            var index = start
            while index < text.endIndex {
                if text[index] == "{" { depth += 1 }
                if text[index] == "}" { depth -= 1; if depth == 0 { return index } }
                index = text.index(after: index)
            }
            return nil
        default:
            return nil
        }
    }
}
