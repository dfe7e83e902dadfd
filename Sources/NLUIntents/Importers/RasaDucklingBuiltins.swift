import Foundation
import NLUCore
import Yams
import NLUInputOutput

/// Rasa gets its built-in entities from Duckling (`DucklingEntityExtractor`), which reports them under
/// the dimension's name (`number`, `time`, `amount-of-money`). A project whose `config.yml` runs Duckling
/// says which dimensions it wants (`dimensions:`, all when absent); those become built-ins. Otherwise
/// annotated entities named like a Duckling dimension are taken for one, since that is how Rasa data
/// annotates Duckling's entities; a project whose config runs no Duckling has none. Mapping:
/// ``PlatformBuiltins/duckling``.
enum RasaDucklingBuiltins {
    /// Adds a built-in definition for each wanted dimension to `dataset`: `dimensions` from a project's
    /// config, or (when `nil`) the annotated entity names that are Duckling dimensions. A name that
    /// already has a dictionary, lookup or regex of its own is left to it.
    static func add(to dataset: inout IntentDataset, dimensions: [String]?, file: String, warnings: inout [String]) {
        let defined = Set(dataset.entities.map(\.name))
        var names: [String]
        if let dimensions {
            names = dimensions
        } else {
            var annotated: [String] = []
            var seen = Set<String>()
            for utterance in dataset.intents.flatMap(\.utterances) + dataset.counterexamples {
                for annotation in utterance.entities where seen.insert(annotation.entity).inserted {
                    annotated.append(annotation.entity)
                }
            }
            names = annotated.filter { PlatformBuiltins.duckling[$0] != nil }
        }
        var builtins = BuiltinCollector(file: file, table: PlatformBuiltins.duckling, noun: "Duckling dimension")
        for name in names where !defined.contains(name) {
            builtins.add(entity: name, platformType: name, warnings: &warnings)
        }
        dataset.entities += builtins.definitions
    }

    /// A project's `config.yml`: the file and its top-level mapping.
    struct Config {
        var url: URL
        var root: [String: Any]

        /// The config's `language` (`de`, `pt-BR`), when it names one.
        var language: String? {
            (root["language"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        }
    }

    /// The `config.yml` in `folder` or its parent (a project's data folder is usually imported), `nil` when
    /// there is none. A config that cannot be read is a warning, not an error: it only adds built-ins and the language.
    static func config(near folder: URL, warnings: inout [String]) -> Config? {
        let candidates = [folder.appendingPathComponent("config.yml"),
                          folder.deletingLastPathComponent().appendingPathComponent("config.yml")]
        guard let url = candidates.first(where: { FileManager.default.fileExists(atPath: $0.path) }) else { return nil }
        do {
            // A pipeline file of more than 1 MiB is not a Rasa config: refused before it is read whole.
            let data = try InputFile.read(url, maximumBytes: 1 << 20)
            guard let text = String(data: data, encoding: .utf8) else {
                warnings.append("\(url.path): not a UTF-8 file of at most 1 MiB; Duckling dimensions not read")
                return nil
            }
            try NestingLimits.checkYAML(text, file: url.path)
            return Config(url: url, root: (try Yams.load(yaml: text)) as? [String: Any] ?? [:])
        } catch {
            warnings.append("\(url.path): \((error as? LocalizedError)?.errorDescription ?? "\(error)"); Duckling dimensions not read")
            return nil
        }
    }

    /// The dimensions `DucklingEntityExtractor` extracts according to `config`: its `dimensions:` list, every
    /// dimension NLUKit has when the list is absent, none when the config runs no Duckling (its entities are learned).
    static func configuredDimensions(in config: Config, warnings: inout [String]) -> [String] {
        let url = config.url
        let pipeline = config.root["pipeline"] as? [Any] ?? []
        for case let component as [String: Any] in pipeline where component["name"] as? String == "DucklingEntityExtractor" {
            guard let dimensions = component["dimensions"] else { return PlatformBuiltins.duckling.keys.sorted() }
            guard let list = dimensions as? [Any] else {
                warnings.append("\(url.path): DucklingEntityExtractor 'dimensions' is not a list; all dimensions taken")
                return PlatformBuiltins.duckling.keys.sorted()
            }
            return list.compactMap { $0 as? String }
        }
        return []
    }
}
