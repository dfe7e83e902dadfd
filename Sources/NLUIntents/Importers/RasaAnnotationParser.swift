import Foundation
import NLUCore
import NLUInputOutput

/// Rasa's inline entity markup: `[text](entity)`, `[text](entity:value)` and
/// `[text]{"entity": "e", "value": "v", "role": "r"}`, turned into plain text plus annotations.
///
///     var problems: [String] = []
///     RasaAnnotationParser.parse("fly to [Paris](city)", problems: &problems)   // "fly to Paris", city 7..<12
///
/// Malformed markup stays plain text: a `[` without a later `]`, a `]` followed by neither `(` nor
/// `{`, a `(` without a later `)`, a `{` whose braces never balance. A `{` right after the `]` is
/// meant as an annotation, so when its braces never balance, or what they hold is not a JSON object
/// with an `"entity"` string, the problem is returned for the importer to warn about (naming file
/// and line): a typo in the JSON silently lost an entity's annotations.
///
/// Time is linear in the example's length, however much markup is unclosed: a failed `[` skips to
/// its `]` (every `[` before that `]` pairs with it and fails the same way), and closers are found
/// once, not by scanning to the end for each opener (`[x](` repeated over 200,000 characters took
/// minutes when every `(` looked for its `)` from scratch).
enum RasaAnnotationParser {
    /// `marked` as an utterance; appends to `problems` a sentence for each `{...}` annotation read as
    /// plain text (quoting it, without file or line).
    static func parse(_ marked: String, problems: inout [String]) -> Utterance {
        let characters = Array(marked)
        var closers = MarkupClosers(characters)
        var builder = UtteranceBuilder()
        var plainStart = 0   // the first character not appended yet
        var search = 0       // where the next `[` is looked for
        while let open = characters[search...].firstIndex(of: "["),
              let close = characters[open...].firstIndex(of: "]") {
            let afterClose = close + 1
            guard afterClose < characters.count, let end = closers.closing(of: afterClose) else {
                if afterClose < characters.count, characters[afterClose] == "{" {
                    problems.append("annotation '\(quoted(characters[open...]))': its '{' is never closed; read as plain text")
                }
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
                problems.append("annotation '\(quoted(characters[open...end]))': the part in braces is not a JSON object with an \"entity\" string; '\(EchoedValue.prefix(mention))' read as plain text")
                builder.append(mention)
            }
            plainStart = end + 1
            search = plainStart
        }
        builder.append(String(characters[plainStart...]))
        return builder.utterance
    }

    /// `marked` as an utterance; each `{...}` annotation read as plain text is a warning that starts
    /// with `place` (the file and line: `nlu.yml: line 12`), one per example.
    static func parse(_ marked: String, at place: String, warnings: inout [String]) -> Utterance {
        var problems: [String] = []
        let utterance = parse(marked, problems: &problems)
        if let first = problems.first {
            warnings.append("\(place): \(first)\(problems.count > 1 ? " (and \(problems.count - 1) more in this example)" : "")")
        }
        return utterance
    }

    /// The start of `markup` as a warning quotes it (``EchoedValue``), without copying all of a long line.
    private static func quoted(_ markup: ArraySlice<Character>) -> String {
        EchoedValue.prefix(String(markup.prefix(EchoedValue.maxScalars + 1)))
    }
}
