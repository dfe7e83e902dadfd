import Foundation
import NLUInputOutput

/// Reads a dialogue from what a user points at: NLUKit's own dialogue file, or a platform export with a
/// dialogue in it (a Watson Assistant workspace with `dialog_nodes`, an Alexa interaction model with a
/// `dialog`; a Lex V2 bot or a Dialogflow ES agent as a folder or zip), told apart by their content.
///
///     let (model, warnings) = try DialogueImporter.read(data, file: "car_workspace.json")
///     let (bot, botWarnings) = try DialogueImporter.read(try DialogueExport.files(at: zipURL))   // NLUPipelines
public enum DialogueImporter {
    /// The dialogue in `data` and what its import could not map (empty for NLUKit's own file).
    /// - Throws: `JSONFileError` naming `file` when it is neither kind, or not valid as its kind.
    public static func read(_ data: Data, file: String) throws -> (model: DialogueModel, warnings: [String]) {
        // Measured before any recursive parser sees it: the model's values and their compiled forms recurse.
        let depth = JSONNesting.depth(data)
        guard depth <= JSONNesting.maximumDepth else {
            throw JSONFileError(file: file, field: "", reason: "arrays and objects nest \(depth) deep; at most \(JSONNesting.maximumDepth) levels are accepted")
        }
        let object: [String: Any]
        do {
            guard let parsed = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
                throw JSONFileError(file: file, field: "", reason: "is not a JSON object: expected an NLUKit dialogue or a Watson Assistant workspace")
            }
            object = parsed
        } catch let error as JSONFileError {
            throw error
        } catch {
            // Let the decoder say where the syntax breaks.
            _ = try JSONFile.decode(DialogueModel.self, from: data, file: file)
            throw JSONFileError(file: file, field: "", reason: "is not valid JSON")
        }
        if object["format"] as? String == DialogueModel.formatName {
            return (try DialogueModel.decode(from: data, file: file), [])
        }
        if object["dialog_nodes"] != nil {
            return try WatsonDialogueImporter.read(data, file: file)
        }
        if object["interactionModel"] != nil {
            return try AlexaDialogueImporter.read(data, file: file)
        }
        throw JSONFileError(file: file, field: "", reason: "is neither an NLUKit dialogue (\"format\": \"\(DialogueModel.formatName)\"), a Watson Assistant workspace with dialog_nodes nor an Alexa interaction model")
    }

    /// The dialogue of an export that is a folder or a zip: a Lex V2 bot (`BotLocales/…/Intent.json`), a
    /// Dialogflow CX agent (`agent.json` and `flows/`) or a Dialogflow ES agent (`agent.json` and `intents/`).
    /// - Throws: `JSONFileError` naming the export when it is neither, or the file and field at fault.
    public static func read(_ files: some DialogueExportFiles) throws -> (model: DialogueModel, warnings: [String]) {
        if LexV2DialogueImporter.isBot(files) { return try LexV2DialogueImporter.read(files) }
        // A CX agent has agent.json and intents/ too: its flows/ tell it from an ES agent.
        if DialogflowCXDialogueImporter.isAgent(files) { return try DialogflowCXDialogueImporter.read(files) }
        if DialogflowDialogueImporter.isAgent(files) { return try DialogflowDialogueImporter.read(files) }
        throw JSONFileError(file: files.name, field: "", reason: "is neither a Lex V2 bot export (BotLocales/<locale>/Intents/<Name>/Intent.json), a Dialogflow CX agent (agent.json, flows/), a Dialogflow ES agent (agent.json, intents/) nor a Rasa project (domain.yml)")
    }

    /// What `nlu dialogue import -o` may replace: a dialogue file NLUKit wrote (its `format` says so).
    public static let ownOutput = OutputFile(kind: "an NLUKit dialogue (JSON)") { url in
        isJSONObject(at: url) { $0["format"] as? String == DialogueModel.formatName }
    }

    /// What `nlu dialogue chat --state` may replace: a signed conversation state (its `format` says so), or a bare
    /// one as nlu wrote before states were signed (its keys say so).
    public static let stateOutput = OutputFile(kind: "an NLUKit conversation state (JSON)") { url in
        isJSONObject(at: url) {
            $0["format"] as? String == SignedDialogueState.formatName
                || ($0["dialogue"] is String && $0["turn"] is NSNumber && $0["context"] is [String: Any])
        }
    }

    /// Whether the file at `url` is a JSON object (at most 64 MiB) for which `test` holds.
    private static func isJSONObject(at url: URL, _ test: ([String: Any]) -> Bool) -> Bool {
        let head = OutputFile.prefix(of: url, count: 1)
        guard head.first == UInt8(ascii: "{"), let data = try? InputFile.read(url, name: url.path), data.count < 64 << 20,
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return false }
        return test(object)
    }
}
