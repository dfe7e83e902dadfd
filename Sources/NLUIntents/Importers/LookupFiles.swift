import Foundation

/// Rasa 1.x lookup tables kept in text files (`## lookup:city` followed by `data/lookups/city.txt`,
/// or `"elements": "data/lookups/city.txt"` in JSON): one value per line. The path is relative to
/// the project root, which Rasa takes from its working directory, so it is looked up beside the
/// referring file and then in each folder above it.
enum LookupFiles {
    /// The most values one lookup file may hold.
    static let maxValues = 1_000_000

    /// Whether `line` reads as a path to a lookup file rather than a value.
    static func isReference(_ line: String) -> Bool {
        let lower = line.lowercased()
        return !line.hasPrefix("-") && (lower.hasSuffix(".txt") || lower.hasSuffix(".csv") || lower.hasSuffix(".lookup"))
    }

    /// The values of the lookup file `reference` named in `file` (line `line`), or `nil` with a
    /// warning when it is missing, unreadable or not UTF-8.
    static func values(_ reference: String, from file: String, line: Int?, warnings: inout [String]) -> [String]? {
        let place = line.map { "\(file): line \($0)" } ?? file
        guard let url = locate(reference, from: file) else {
            warnings.append("\(place): lookup file '\(reference)' not found beside the file or in a folder above it; lookup skipped")
            return nil
        }
        guard let data = try? Data(contentsOf: url), let text = String(validating: [UInt8](data), as: UTF8.self) else {
            warnings.append("\(place): lookup file \(url.path) cannot be read as UTF-8; lookup skipped")
            return nil
        }
        let values = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        guard values.count <= maxValues else {
            warnings.append("\(place): lookup file \(url.path) has more than \(maxValues) values; lookup skipped")
            return nil
        }
        return values
    }

    private static func locate(_ reference: String, from file: String) -> URL? {
        if reference.hasPrefix("/") { return FileManager.default.fileExists(atPath: reference) ? URL(fileURLWithPath: reference) : nil }
        var folder = URL(fileURLWithPath: file).deletingLastPathComponent()
        for _ in 0..<8 {
            let candidate = folder.appendingPathComponent(reference)
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { break }
            folder = parent
        }
        return nil
    }
}
