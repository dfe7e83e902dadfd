import Foundation
import NLUBuiltins

extension IntentDataset {
    /// Checks that the dataset is usable: at least one intent, no duplicate intent names, no empty
    /// utterance, every annotation inside its utterance. `file` names the source in the error.
    ///
    ///     try dataset.validate(file: "intents.json")
    /// - Throws: ``IntentDatasetError``.
    public func validate(file: String) throws {
        if version > Self.currentVersion {
            throw IntentDatasetError.newerVersion(file: file, found: version, supported: Self.currentVersion)
        }
        guard version >= 1 else {
            throw IntentDatasetError.unknownFormat(file: file, detail: "field 'version' is \(version), expected 1 to \(Self.currentVersion)")
        }
        guard format == Self.formatName else {
            throw IntentDatasetError.unknownFormat(file: file, detail: "field 'format' is '\(format)', expected '\(Self.formatName)'")
        }
        guard !intents.isEmpty else { throw IntentDatasetError.noIntents(file: file) }
        var seen = Set<String>()
        for intent in intents {
            guard !intent.name.allSatisfy(\.isWhitespace) else { throw IntentDatasetError.emptyName(file: file, what: "an intent") }
            guard seen.insert(intent.name).inserted else {
                throw IntentDatasetError.duplicateIntent(file: file, name: intent.name)
            }
            try Self.validate(intent.utterances, owner: intent.name, file: file)
        }
        try Self.validate(counterexamples, owner: "(counterexamples)", file: file)
        guard intents.contains(where: { !$0.utterances.isEmpty }) else {
            throw IntentDatasetError.noIntents(file: file)
        }
        try validateEntityDefinitions(file: file)
    }

    /// Entity definitions that would be silently useless: an empty name, two definitions of one name
    /// (the second was ignored), an empty value, a `builtin` no recognizer has (it matched nothing).
    private func validateEntityDefinitions(file: String) throws {
        var seen = Set<String>()
        for definition in entities {
            guard !definition.name.allSatisfy(\.isWhitespace) else { throw IntentDatasetError.emptyName(file: file, what: "an entity") }
            guard seen.insert(definition.name).inserted else {
                throw IntentDatasetError.invalidEntity(file: file, entity: definition.name, detail: "is defined more than once")
            }
            if let empty = definition.values.firstIndex(where: { $0.value.allSatisfy(\.isWhitespace) }) {
                throw IntentDatasetError.invalidEntity(file: file, entity: definition.name, detail: "value \(empty) is empty")
            }
            if let builtin = definition.builtin, BuiltinEntityMatcher.types(for: builtin) == nil {
                let known = BuiltinEntityType.allCases.map(\.rawValue).joined(separator: ", ")
                throw IntentDatasetError.invalidEntity(file: file, entity: definition.name, detail: "builtin '\(builtin)' is not one of \(known)")
            }
        }
    }

    /// Checks that the dataset can train a classifier: ``validate(file:)`` plus at least two classes
    /// (two intents, or one intent and counterexamples).
    ///
    ///     try dataset.validateForTraining(file: "intents.json")
    public func validateForTraining(file: String) throws {
        try validate(file: file)
        // Patterns are compiled here, where the dataset's file is known, not first deep in training.
        for definition in entities {
            for value in definition.values {
                for pattern in value.patterns where RegexEntityMatcher.compile(pattern) == nil {
                    throw IntentDatasetError.invalidEntity(file: file, entity: definition.name,
                                                           detail: "value '\(value.value)': pattern '\(pattern)' is not a valid ICU regular expression")
                }
            }
        }
        let populated = intents.filter { !$0.utterances.isEmpty }
        if populated.count + (counterexamples.isEmpty ? 0 : 1) < 2 {
            throw IntentDatasetError.tooFewIntents(file: file, names: populated.map(\.name))
        }
    }

    private static func validate(_ utterances: [Utterance], owner: String, file: String) throws {
        for (index, utterance) in utterances.enumerated() {
            if utterance.text.allSatisfy({ $0.isWhitespace }) {
                throw IntentDatasetError.emptyUtterance(file: file, intent: owner, index: index)
            }
            let length = utterance.text.unicodeScalars.count
            for annotation in utterance.entities
            where annotation.start < 0 || annotation.end > length || annotation.start >= annotation.end {
                throw IntentDatasetError.invalidAnnotation(
                    file: file, intent: owner, index: index,
                    detail: "entity '\(annotation.entity)' range \(annotation.start)..<\(annotation.end) is outside the text (\(length) characters)")
            }
        }
    }
}
