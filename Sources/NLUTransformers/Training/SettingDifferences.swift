/// The settings that differ between a checkpoint's run and the run resuming it, each named by its path in the
/// checkpoint's JSON with both values ("joint.wordShapes: false in the checkpoint, true in this run"), so that a
/// refused `--resume` says which option to give again (every trainer's checkpoint: intents, joint, few-shot,
/// sentence embeddings).
///
/// Settings are walked by reflection, so a field added to an options type is compared without being listed here.
public enum SettingDifferences {
    /// The differing leaves of `saved` and `current` (values of one type), in declaration order.
    public static func between<Value>(saved: Value, current: Value, path: String) -> [String] {
        let old = Mirror(reflecting: saved), new = Mirror(reflecting: current)
        if old.displayStyle == .optional {
            switch (old.children.first?.value, new.children.first?.value) {
            case (nil, nil): return []
            case (let oldValue?, let newValue?): return between(saved: oldValue, current: newValue, path: path)
            case (let oldValue, let newValue): return [leaf(path, oldValue.map(describe) ?? "absent", newValue.map(describe) ?? "absent")]
            }
        }
        guard old.displayStyle == .struct, old.children.count == new.children.count else {
            let before = describe(saved), after = describe(current)
            return before == after ? [] : [leaf(path, before, after)]
        }
        return zip(old.children, new.children).flatMap { pair in
            between(saved: pair.0.value, current: pair.1.value, path: path + "." + (pair.0.label ?? "?"))
        }
    }

    private static func leaf(_ path: String, _ saved: String, _ current: String) -> String {
        "\(path): \(saved) in the checkpoint, \(current) in this run"
    }

    /// A leaf value as a person reads it: optionals unwrapped ("absent" for none).
    private static func describe(_ value: Any) -> String {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .optional else { return "\(value)" }
        return mirror.children.first.map { describe($0.value) } ?? "absent"
    }
}
