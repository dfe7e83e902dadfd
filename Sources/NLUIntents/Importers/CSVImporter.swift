import Foundation

/// CSV with one labelled utterance per row, `text,intent` (RFC 4180 quoting, read by ``CSVRows``). An
/// optional header row names the columns: a text name (``textHeaders``) and a label name
/// (``labelHeaders``) in either order (`intent,text` swaps the columns). A file without a header
/// holds `text,intent` rows: the Watson NLC CSV (`text,class[,class...]`) and Watson Assistant's
/// intent CSV (`example,intent`) are such files; where a row has several classes, the first is used,
/// with a warning. A first row that reads as some other header (`text,tag`, `sentence_text,intent_label`)
/// is an error naming the accepted ones, rather than an utterance `text` of an intent `tag`.
enum CSVImporter {
    static let textHeaders: Set<String> = ["text", "utterance", "example", "sentence", "query", "phrase"]
    static let labelHeaders: Set<String> = ["intent", "class", "label", "category", "intent_name"]

    /// What the first row is.
    enum Header: Equatable {
        /// A `text,intent` header (or another accepted pair).
        case textFirst
        /// An `intent,text` header: the label comes first in every row.
        case labelFirst
        /// An utterance and its label: the file has no header.
        case none
    }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let text = try source.singleFileText(.csv, warnings: &warnings)
        let delimiter: Unicode.Scalar = source.url.pathExtension.lowercased() == "tsv" ? "\t" : ","
        var rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(text, delimiter: delimiter)
        } catch {
            throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(error.line): a quoted field opens here and is never closed")
        }
        let header = try rows.first.map { try Self.header($0.fields, file: source.name) } ?? .none
        if header != .none { rows.removeFirst() }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var multiLabel = 0
        for (line, row) in rows.map({ ($0.line, $0.fields) }) {
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }  // blank line
            guard row.count >= 2 else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(line): expected text,intent, found \(row.count) column")
            }
            let (text, label) = header == .labelFirst ? (row[1], row[0].trimmingCharacters(in: .whitespaces))
                : (row[0], row[1].trimmingCharacters(in: .whitespaces))
            guard !label.isEmpty else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(line): the intent column is empty")
            }
            if row.dropFirst(2).contains(where: { !$0.isEmpty }) { multiLabel += 1 }
            assembler.add(Utterance(text), to: label)
        }
        if multiLabel > 0 {
            warnings.append("\(source.name): \(multiLabel) row(s) have several classes; the first class of each is used")
        }
        return try assembler.dataset(warnings: &warnings)
    }

    /// How the first row `fields` of `file` reads.
    /// - Throws: ``IntentDatasetError/malformedCSV(file:detail:)`` for a row that looks like a header but
    ///   is not one of the accepted pairs: one column an exact header name and the other a short name, or
    ///   both single words built on header names (`sentence_text`, `intent_label`).
    static func header(_ fields: [String], file: String) throws -> Header {
        guard fields.count >= 2 else { return .none }
        let first = fields[0].trimmingCharacters(in: .whitespaces).lowercased()
        let second = fields[1].trimmingCharacters(in: .whitespaces).lowercased()
        if textHeaders.contains(first), labelHeaders.contains(second) { return .textFirst }
        if labelHeaders.contains(first), textHeaders.contains(second) { return .labelFirst }
        let known = textHeaders.union(labelHeaders)
        let exact = known.contains(first) || known.contains(second)
        let short = [first, second].allSatisfy { $0.split(separator: " ").count <= 3 }
        guard (exact && short) || [first, second].allSatisfy(isHeaderLikeWord) else { return .none }
        throw IntentDatasetError.malformedCSV(
            file: file,
            detail: "line 1: '\(fields.prefix(2).joined(separator: ","))' looks like a header, but not one NLUKit reads: a header pairs a text column "
                + "(\(textHeaders.sorted().joined(separator: ", "))) with a label column (\(labelHeaders.sorted().joined(separator: ", "))), "
                + "in either order, e.g. 'text,intent'; rename the columns, or remove the row if the file has no header (rows are then text,intent)")
    }

    /// Whether `name` is one word (letters, digits, `_`, `-`) with a part that is a header name: `sentence_text`, `intent-label`.
    private static func isHeaderLikeWord(_ name: String) -> Bool {
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else { return false }
        return name.split(whereSeparator: { $0 == "_" || $0 == "-" }).contains { textHeaders.contains(String($0)) || labelHeaders.contains(String($0)) }
    }
}
