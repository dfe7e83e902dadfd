import Foundation

/// A Rasa project's training data as it lies on disk (`nlu intents import project/data`): every
/// `*.yml`/`*.yaml` file with an `nlu:` key, every legacy Markdown file and every `rasa_nlu_data`
/// JSON file in the folder (and below) is read with its format's importer and merged — intents named
/// alike in several files joined, synonyms, lookups and regexes gathered wherever they are. Files
/// holding no NLU data (`stories.yml`, `rules.yml`, `domain.yml`, `config.yml`, lookup `.txt`
/// files, which Markdown and JSON files reference) are skipped and listed in one note; a file that
/// cannot be read is skipped with a warning naming it. Only a folder with nothing usable fails, or a
/// file naming a lookup file outside the folder (``ExportFolder``).
enum RasaProjectImporter {
    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        var partial = options
        partial.validates = false
        var merger = DatasetMerger()
        var read = 0
        var skipped: [String] = []
        for path in source.paths {
            let url = source.url.appendingPathComponent(path)
            guard let format = try format(of: path, in: source, warnings: &warnings) else {
                skipped.append(path)
                continue
            }
            do {
                // Lookup files a file names may lie anywhere in the project folder, not only beside the file.
                let file = try ImportSource(url: url, exportFolder: source.exportFolder)
                let part = try IntentImporter.importDataset(from: file, format: format, options: partial, warnings: &warnings)
                merger.add(part)
                read += 1
            } catch let error as IntentDatasetError {
                // A path leading outside the project is refused outright, not skipped as a broken file would be.
                if case .outsideExport = error { throw error }
                warnings.append("\(error.description); file skipped")
            } catch {
                warnings.append("\((error as? LocalizedError)?.errorDescription ?? "\(url.path): \(error)"); file skipped")
            }
        }
        if !skipped.isEmpty {
            warnings.append("\(source.name): \(skipped.count) file(s) without NLU data skipped: \(skipped.prefix(10).joined(separator: ", "))\(skipped.count > 10 ? ", ..." : "")")
        }
        guard read > 0 else {
            throw IntentDatasetError.missingFiles(file: source.name, expected: "Rasa NLU data (*.yml with an 'nlu:' key, ## intent: Markdown or rasa_nlu_data JSON)")
        }
        var merged = merger.dataset
        // The synonyms of every file, gathered under one dictionary as the single-file importers do.
        if let index = merged.entities.firstIndex(where: { $0.name == "synonyms" }) {
            let synonyms = merged.entities.remove(at: index)
            merged.entities.append(synonyms)
        }
        try merged.validate(file: source.name)
        return merged
    }

    /// Whether the folder holds Rasa NLU files.
    static func isProject(_ source: ImportSource, warnings: inout [String]) -> Bool {
        source.paths.contains { path in ((try? format(of: path, in: source, warnings: &warnings)) ?? nil) != nil }
    }

    /// The Rasa format of the file at `path`, or `nil` when it holds no NLU data.
    private static func format(of path: String, in source: ImportSource, warnings: inout [String]) throws -> DatasetFormat? {
        let name = (path as NSString).lastPathComponent
        guard !name.hasPrefix(".") else { return nil }
        switch (path as NSString).pathExtension.lowercased() {
        case "yml", "yaml":
            // Cheap test before parsing: an `nlu:` key at the top level.
            let text = try source.text(at: path, warnings: &warnings)
            return text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("nlu:") } ? .rasaYAML : nil
        case "md", "markdown":
            let text = try source.text(at: path, warnings: &warnings)
            return text.split(whereSeparator: \.isNewline).contains { $0.hasPrefix("## intent:") || $0.hasPrefix("## synonym:") || $0.hasPrefix("## lookup:") || $0.hasPrefix("## regex:") } ? .rasaMarkdown : nil
        case "json":
            let text = try source.text(at: path, warnings: &warnings)
            return text.contains("\"rasa_nlu_data\"") ? .rasaJSON : nil
        default:
            return nil
        }
    }
}
