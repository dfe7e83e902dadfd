import Foundation
import SwiftCSV

/// CSV with one labelled utterance per row, `text,intent` (RFC 4180 quoting; an optional header
/// row such as `text,intent` is recognized and skipped). Also reads the Watson NLC CSV
/// (`text,class[,class...]`, no header) and Watson Assistant's intent CSV (`example,intent`):
/// where a row has several classes, the first is used, with a warning.
enum CSVImporter {
    static let textHeaders: Set<String> = ["text", "utterance", "example", "sentence", "query", "phrase"]
    static let labelHeaders: Set<String> = ["intent", "class", "label", "category", "intent_name"]

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let text = try source.singleFileText(.csv, warnings: &warnings)
        let delimiter: CSVDelimiter = source.url.pathExtension.lowercased() == "tsv" ? .tab : .comma
        var rows: [[String]] = []
        do {
            let csv = try CSV<Enumerated>(string: text, delimiter: delimiter, loadColumns: false)
            try csv.enumerateAsArray(startAt: 0, rowLimit: nil) { rows.append($0) }
        } catch {
            throw IntentDatasetError.malformedCSV(file: source.name, detail: "\(error)")
        }
        if let header = rows.first, header.count >= 2,
           textHeaders.contains(header[0].lowercased().trimmingCharacters(in: .whitespaces)),
           labelHeaders.contains(header[1].lowercased().trimmingCharacters(in: .whitespaces)) {
            rows.removeFirst()
        }
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: true)
        var multiLabel = 0
        for (index, row) in rows.enumerated() {
            if row.allSatisfy({ $0.trimmingCharacters(in: .whitespaces).isEmpty }) { continue }  // blank line
            guard row.count >= 2 else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "row \(index + 1): expected text,intent, found \(row.count) column")
            }
            let label = row[1].trimmingCharacters(in: .whitespaces)
            guard !label.isEmpty else {
                throw IntentDatasetError.malformedCSV(file: source.name, detail: "row \(index + 1): the intent column is empty")
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
