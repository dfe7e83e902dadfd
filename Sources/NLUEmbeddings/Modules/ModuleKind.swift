/// The sentence-transformers module types NLUKit runs, as `modules.json` names them (both the
/// classic `sentence_transformers.models.X` spelling and the newer module paths).
enum ModuleKind: String, CaseIterable {
    case transformer = "Transformer"
    case pooling = "Pooling"
    case dense = "Dense"
    case normalize = "Normalize"

    /// `sentence_transformers.models.Pooling`, `sentence_transformers.sentence_transformer.modules.Pooling`, ...
    /// are all known by their last component.
    init?(moduleType: String) {
        guard moduleType.hasPrefix("sentence_transformers."),
              let name = moduleType.split(separator: ".").last else { return nil }
        self.init(rawValue: String(name))
    }

    static var supportedNames: String {
        allCases.map { "sentence_transformers.models.\($0.rawValue)" }.joined(separator: ", ")
    }
}
