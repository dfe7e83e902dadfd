import Foundation
import NLUSearch

/// A paragraph of a document and where it starts (in Unicode scalars).
struct Passage: Equatable {
    var text: String
    var scalarOffset: Int
}

/// The paragraphs of a long document that best match a question, so the reader model only reads
/// the few that matter. Ranking is NLUSearch's in-memory ``BM25`` (a document index's FTS5 ranks
/// whole collections the same way, with its own term statistics).
///
/// Paragraphs are separated by blank lines (or by single line breaks when the text has no blank
/// lines).
///
///     let best = PassageSearch.passages(of: book, for: "Who wrote the letter?", limit: 3)
enum PassageSearch {
    /// The `limit` best-matching paragraphs, in document order.
    static func passages(of document: String, for question: String, limit: Int) -> [Passage] {
        let paragraphs = split(document)
        guard paragraphs.count > max(limit, 1) else { return paragraphs }
        let chosen = BM25.top(max(limit, 1), query: question, documents: paragraphs.map(\.text)).sorted()
        return chosen.map { paragraphs[$0] }
    }

    /// Paragraphs with their scalar offsets; empty paragraphs are dropped.
    static func split(_ document: String) -> [Passage] {
        let scalars = Array(document.unicodeScalars)
        let hasBlankLine = document.contains("\n\n") || document.contains("\r\n\r\n")
        var passages: [Passage] = []
        var start = 0, index = 0
        func flush(_ end: Int) {
            let slice = scalars[start..<end]
            if slice.contains(where: { !CharacterSet.whitespacesAndNewlines.contains($0) }) {
                var view = String.UnicodeScalarView()
                view.append(contentsOf: slice)
                passages.append(Passage(text: String(view), scalarOffset: start))
            }
        }
        while index < scalars.count {
            if scalars[index] == "\n" {
                var next = index + 1
                if hasBlankLine {
                    // A break is a newline followed by optional spaces and another newline.
                    while next < scalars.count, scalars[next] == " " || scalars[next] == "\t" || scalars[next] == "\r" { next += 1 }
                    guard next < scalars.count, scalars[next] == "\n" else { index += 1; continue }
                }
                // The next paragraph starts at its first visible character.
                while next < scalars.count, CharacterSet.whitespacesAndNewlines.contains(scalars[next]) { next += 1 }
                flush(index)
                start = next
                index = next
            } else {
                index += 1
            }
        }
        flush(scalars.count)
        return passages
    }
}
