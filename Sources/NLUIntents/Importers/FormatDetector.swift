import Foundation

/// Recognizes an export's format from its structure: the folder layout of a zip or folder, the
/// file extension for YAML, Markdown and CSV, and the top-level keys of a JSON document.
enum FormatDetector {
    static let lexV2Layout = "a Lex V2 bot (<Bot>/BotLocales/<locale>/Intents/<Name>/Intent.json)"
    static let dialogflowLayout = "a Dialogflow agent (agent.json and intents/<Name>_usersays_<lang>.json)"

    static func detect(_ source: ImportSource, warnings: inout [String]) throws -> DatasetFormat {
        switch source.kind {
        case .folder, .zip:
            if source.paths.contains(where: LexV2Importer.isIntentFile) { return .lexV2 }
            if source.paths.contains(where: DialogflowCXImporter.isPhraseFile) { return .dialogflowCX }
            if source.paths.contains(where: DialogflowImporter.isAgentFile) { return .dialogflow }
            if source.paths.contains(where: AlexaImporter.isModelFile) { return .alexa }
            if source.kind == .folder, source.paths.contains(where: { $0.hasSuffix(".lu") }) { return .lu }
            if source.kind == .folder, RasaProjectImporter.isProject(source, warnings: &warnings) { return .rasaYAML }
            let expected = "\(lexV2Layout), \(dialogflowLayout), \(DialogflowCXImporter.layout), \(AlexaImporter.layout), .lu files or Rasa NLU files"
            if source.kind == .zip { throw IntentDatasetError.missingFiles(file: source.name, expected: expected) }
            throw IntentDatasetError.unknownFormat(file: source.name, detail: "the folder holds none of \(expected)")
        case .file:
            return try detectFile(source, warnings: &warnings)
        }
    }

    private static func detectFile(_ source: ImportSource, warnings: inout [String]) throws -> DatasetFormat {
        switch source.url.pathExtension.lowercased() {
        case "yml", "yaml":
            let text = try source.text(at: source.paths[0], warnings: &warnings)
            return SnipsNLUImporter.isYAMLDataset(text) && !text.contains("\nnlu:") && !text.hasPrefix("nlu:") ? .snipsNLU : .rasaYAML
        case "md", "markdown": return .rasaMarkdown
        case "csv", "tsv": return .csv
        case "lu": return .lu
        default: break
        }
        let text = try source.text(at: source.paths[0], warnings: &warnings)
        let trimmed = text.drop { $0.isWhitespace }
        guard !trimmed.isEmpty else { throw IntentDatasetError.emptyInput(file: source.name) }
        guard trimmed.first == "{" || trimmed.first == "[" || source.url.pathExtension.lowercased() == "json" else {
            if trimmed.hasPrefix("## ") { return .rasaMarkdown }
            if trimmed.hasPrefix("version:") || trimmed.hasPrefix("nlu:") { return .rasaYAML }
            throw IntentDatasetError.unknownFormat(
                file: source.name,
                detail: "not JSON, and the extension does not say YAML, Markdown or CSV; use --format (one of \(DatasetFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let object = try JSONInput.object(from: Data(text.utf8), file: source.name)
        guard let root = object as? [String: Any] else {
            throw IntentDatasetError.unknownFormat(file: source.name, detail: "the JSON top level is not an object")
        }
        if let format = detect(root) { return format }
        if let hint = IntentDataset.formatHint(for: root) { throw IntentDatasetError.unknownFormat(file: source.name, detail: hint) }
        let keys = root.keys.sorted().prefix(8).joined(separator: ", ")
        throw IntentDatasetError.unknownFormat(
            file: source.name,
            detail: "no known export has the top-level keys \(keys.isEmpty ? "(none)" : keys); use --format")
    }

    /// The format whose top-level keys `root` has.
    static func detect(_ root: [String: Any]) -> DatasetFormat? {
        if root["format"] as? String == IntentDataset.formatName { return .nlukit }
        if CLUImporter.isProject(root) { return .clu }
        if WatsonxActionsImporter.isActionsSkill(root) { return .watsonxActions }
        // Keys only a Watson workspace has, before Snips NLU (whose `intents` object and `language` a
        // workspace with a mistyped `"intents": {}` also has): its importer then names the field at fault.
        if root["dialog_nodes"] != nil || root["workspace_id"] != nil { return .watson }
        if SnipsNLUImporter.isDataset(root) { return .snipsNLU }
        if root["rasa_nlu_data"] != nil { return .rasaJSON }
        if CLINCImporter.isDataFile(root) { return .clinc }
        if root["interactionModel"] != nil { return .alexa }
        if root["luis_schema_version"] != nil || (root["utterances"] != nil && root["intents"] != nil) { return .luis }
        if let resource = root["resource"] as? [String: Any],
           resource["intents"] != nil || resource["sampleUtterances"] != nil { return .lexV1 }
        if let intents = root["intents"] as? [[String: Any]],
           root["dialog_nodes"] != nil || root["workspace_id"] != nil || intents.contains(where: { $0["intent"] != nil }) {
            return .watson
        }
        if !root.isEmpty, root.values.allSatisfy({ value in
            (value as? [Any])?.allSatisfy { (($0 as? [String: Any])?["data"] as? [Any]) != nil } ?? false
        }) {
            return .snips
        }
        return nil
    }
}
