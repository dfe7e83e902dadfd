import NLUCore

/// The architecture a training run was asked for explicitly, each field nil where the caller left it to the
/// default. Resuming continues the checkpoint's own architecture; a choice that differs from it is an error
/// rather than silently ignored (`nlu lm train --resume --layers 3` on a 2-layer checkpoint trained 2 layers).
///
///     let asked = LanguageModelArchitectureChoices(layers: 3)
///     try asked.check(against: checkpoint.configuration, checkpoint: url)  // throws: layers 3, the checkpoint has 2
public struct LanguageModelArchitectureChoices: Sendable, Equatable {
    public var cell: RecurrentCell?
    public var level: LanguageModelConfiguration.Level?
    public var embeddingSize: Int?
    public var hiddenSize: Int?
    public var layers: Int?
    public var lowercase: Bool?

    public init(cell: RecurrentCell? = nil, level: LanguageModelConfiguration.Level? = nil, embeddingSize: Int? = nil,
                hiddenSize: Int? = nil, layers: Int? = nil, lowercase: Bool? = nil) {
        self.cell = cell
        self.level = level
        self.embeddingSize = embeddingSize
        self.hiddenSize = hiddenSize
        self.layers = layers
        self.lowercase = lowercase
    }

    /// Throws ``LanguageModelError/invalidOption(_:_:)`` naming every choice that differs from `configuration`,
    /// the configuration of the checkpoint at `checkpoint` that a run resumes.
    public func check(against configuration: LanguageModelConfiguration, checkpoint: String) throws {
        var differences: [String] = []
        func compare<Value: Equatable>(_ name: String, _ asked: Value?, _ has: Value, _ describe: (Value) -> String) {
            if let asked, asked != has { differences.append("\(name) \(describe(asked)) (the checkpoint has \(describe(has)))") }
        }
        compare("cell", cell, configuration.cell) { $0.rawValue }
        compare("level", level, configuration.level) { $0.rawValue }
        compare("embedding size", embeddingSize, configuration.embeddingSize) { "\($0)" }
        compare("hidden size", hiddenSize, configuration.hiddenSize) { "\($0)" }
        compare("layers", layers, configuration.layers) { "\($0)" }
        compare("case", lowercase, configuration.lowercase) { $0 ? "lowercased" : "kept" }
        guard differences.isEmpty else {
            throw LanguageModelError.invalidOption(
                "resume", "\(checkpoint) continues with its own architecture, and this run asks for "
                    + differences.joined(separator: ", ")
                    + ": leave those options out to continue it, or train a new model without --resume")
        }
    }
}
