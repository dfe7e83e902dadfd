import Foundation

/// The Snips NLU benchmark JSON: `{"Intent": [{"data": [{"text": "play "}, {"text": "jazz",
/// "entity": "genre"}]}]}`. The parts join into the utterance; parts with `entity` become
/// annotations. The benchmark's files are partly Latin-1, read with a warning.
enum SnipsImporter {
    struct Example: Decodable { var data: [Part] }
    struct Part: Decodable { var text: String; var entity: String? }

    static func read(_ source: ImportSource, options: ImportOptions, warnings: inout [String]) throws -> IntentDataset {
        let data = try source.singleFileData(.snips, warnings: &warnings)
        let intents = try JSONInput.decode([String: [Example]].self, from: data, file: source.name)
        var assembler = DatasetAssembler(file: source.name, options: options, mergesDuplicates: false)
        for name in intents.keys.sorted() {
            try assembler.addIntent(name, utterances: (intents[name] ?? []).map { example in
                var builder = UtteranceBuilder()
                for part in example.data {
                    if let entity = part.entity { builder.append(part.text, entity: entity, value: part.text) } else { builder.append(part.text) }
                }
                return builder.utterance
            })
        }
        return try assembler.dataset(warnings: &warnings)
    }
}
