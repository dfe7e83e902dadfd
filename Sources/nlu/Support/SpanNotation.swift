/// How the text output of every `nlu` subcommand shows a span of text: `[start..<end]`, the offsets
/// in Unicode scalars that the JSON form gives as `start` and `end` (as Python counts them), the end
/// excluded, as Swift's `..<` says.
///
///     SpanNotation.text(start: 9, end: 14)    // "[9..<14]": Python's text[9:14]
///
/// One place, so that intents, entities, answers and search results cannot drift apart again (they
/// once printed `[9..<14]`, `9-14` and `#0 [9..<14]`); the `..<` keeps a span apart from number
/// ranges (`1-2` n-grams), clock times (`10:25`) and negative numbers in the same lines.
enum SpanNotation {
    /// `[start..<end]`.
    static func text(start: Int, end: Int) -> String {
        "[\(start)..<\(end)]"
    }
}
