import Foundation

/// A paragraph of a document and where it starts (in Unicode scalars).
struct Passage: Equatable {
    var text: String
    var scalarOffset: Int
}

/// Okapi BM25 over the paragraphs of a long document: ranks paragraphs by how well their words
/// match the question's, so the reader model only reads the few that matter.
///
/// Paragraphs are separated by blank lines (or by single line breaks when the text has no blank
/// lines). Terms are lower-cased runs of letters and digits; k1 = 1.5, b = 0.75, and
/// idf = ln(1 + (N - n + 0.5) / (n + 0.5)).
///
///     let best = PassageSearch.passages(of: book, for: "Who wrote the letter?", limit: 3)
enum PassageSearch {
    static let k1 = 1.5
    static let b = 0.75

    /// The `limit` best-matching paragraphs, in document order.
    static func passages(of document: String, for question: String, limit: Int) -> [Passage] {
        let paragraphs = split(document)
        guard paragraphs.count > max(limit, 1) else { return paragraphs }
        let scores = bm25(query: question, documents: paragraphs.map(\.text))
        let chosen = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
            .prefix(max(limit, 1)).sorted()
        return chosen.map { paragraphs[$0] }
    }

    /// BM25 score of each document for the query.
    static func bm25(query: String, documents: [String]) -> [Double] {
        let documentTerms = documents.map(terms)
        let averageLength = Double(documentTerms.map(\.count).reduce(0, +)) / Double(max(documents.count, 1))
        var documentFrequency: [String: Int] = [:]
        for termsOfDocument in documentTerms {
            for term in Set(termsOfDocument) { documentFrequency[term, default: 0] += 1 }
        }
        let queryTerms = Set(terms(query))
        let count = Double(documents.count)
        return documentTerms.map { termsOfDocument in
            var frequencies: [String: Int] = [:]
            for term in termsOfDocument where queryTerms.contains(term) { frequencies[term, default: 0] += 1 }
            let length = Double(termsOfDocument.count)
            return frequencies.reduce(0.0) { total, entry in
                let n = Double(documentFrequency[entry.key] ?? 0)
                let idf = Foundation.log(1 + (count - n + 0.5) / (n + 0.5))
                let tf = Double(entry.value)
                return total + idf * tf * (k1 + 1) / (tf + k1 * (1 - b + b * length / max(averageLength, 1)))
            }
        }
    }

    /// Lower-cased runs of letters and digits. A scalar-level split rather than `WordTokenizer`
    /// (grapheme clusters, apostrophes, number grouping): ranking needs only comparable terms, and
    /// this is several times faster on the megabytes of a long book.
    static func terms(_ text: String) -> [String] {
        var result: [String] = []
        var current = String.UnicodeScalarView()
        var hasUpper = false
        func flush() {
            guard !current.isEmpty else { return }
            let term = String(current)
            result.append(hasUpper ? term.lowercased() : term)
            current = String.UnicodeScalarView()
            hasUpper = false
        }
        for scalar in text.unicodeScalars {
            if scalar.isASCII {
                let value = scalar.value
                if (value >= 0x61 && value <= 0x7A) || (value >= 0x30 && value <= 0x39) {
                    current.append(scalar)
                } else if value >= 0x41 && value <= 0x5A {
                    current.append(Unicode.Scalar(value + 0x20) ?? scalar)
                } else {
                    flush()
                }
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                current.append(scalar)
                hasUpper = hasUpper || scalar.properties.changesWhenLowercased
            } else {
                flush()
            }
        }
        flush()
        return result
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
