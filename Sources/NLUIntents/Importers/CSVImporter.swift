import Foundation

/// CSV with one labelled utterance per row, `text,intent` (RFC 4180 quoting, read by ``CSVRows``; an optional header
/// row such as `text,intent` is recognized and skipped). Also reads the Watson NLC CSV
/// (`text,class[,class...]`, no header) and Watson Assistant's intent CSV (`example,intent`):
/// where a row has several classes, the first is used, with a warning.
enum CSVImporter {
    static let textHeaders: Set<String> = ["text", "utterance", "example", "sentence", "query", "phrase"]
    static let labelHeaders: Set<String> = ["intent", "class", "label", "category", "intent_name"]

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let text = try source.singleFileText(.csv, warnings: &warnings)
        let delimiter: Unicode.Scalar = source.url.pathExtension.lowercased() == "tsv" ? "\t" : ","
        var rows: [CSVRows.Row]
        do {
            rows = try CSVRows.parse(text, delimiter: delimiter)
        } catch {
            throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(error.line): a quoted field opens here and is never closed")
        }
        if let header = rows.first?.fields, header.count >= 2,
           textHeaders.contains(header[0].lowercased().trimmingCharacters(in: .whitespaces)),
           labelHeaders.contains(header[1].lowercased().trimmingCharacters(in: .whitespaces)) {
            rows.removeFirst()
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var multiLabel = 0
        for (line, row) in rows.map({ ($0.line, $0.fields) }) {
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }  // blank line
            guard row.count >= 2 else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(line): expected text,intent, found \(row.count) column")
            }
            let label = row[1].trimmingCharacters(in: .whitespaces)
            guard !label.isEmpty else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "line \(line): the intent column is empty")
            }
            if row.dropFirst(2).contains(where: { !$0.isEmpty }) { multiLabel += 1 }
            assembler.add(Utterance(row[0]), to: label)
        }
        if multiLabel > 0 {
            warnings.append("\(source.name): \(multiLabel) row(s) have several classes; the first class of each is used")
        }
        return try assembler.dataset(warnings: &warnings)
    }
}
