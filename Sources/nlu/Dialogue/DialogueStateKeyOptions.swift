import ArgumentParser
import Foundation
import NLUKit

/// `--state-key` and `--old-state-key` of `nlu dialogue chat`: the key that signs the `--state` file, so that a
/// state file edited by hand, or made with someone else's key, is refused.
struct DialogueStateKeyOptions: ParsableArguments {
    /// A key given as 64 hex digits instead of a file (a container's secret).
    static let keyVariable = "NLUKIT_DIALOGUE_STATE_KEY"
    /// Previous keys, comma-separated hex, that still verify.
    static let oldKeysVariable = "NLUKIT_DIALOGUE_STATE_OLD_KEYS"

    @Option(help: ArgumentHelp("""
        The key that signs the --state file: 64 hex digits in a file, made (readable by you only) when it does \
        not exist. Default: $\(keyVariable) (the hex digits themselves), else $XDG_CONFIG_HOME/nlu/dialogue-state.key \
        or ~/.config/nlu/dialogue-state.key.
        """, valueName: "key-file"))
    var stateKey: String?

    @Option(help: ArgumentHelp("""
        A key the --state file may still be signed with (after changing --state-key); repeatable. Also \
        $\(oldKeysVariable), comma-separated hex.
        """, valueName: "key-file"))
    var oldStateKey: [String] = []

    /// Whether a key option was given (they apply to --state only).
    var isGiven: Bool { stateKey != nil || !oldStateKey.isEmpty }

    /// The signer of the state file `statePath`: the key from --state-key, the environment or the default file
    /// (made on first use, its path said on standard error; the key itself is never printed), and the old keys.
    /// - Throws: `ValidationError` (exit 2) when no default location can be named or a key file is the state file
    ///   (each turn would write the state over the key); ``DialogueStateKeyError`` for a key that cannot be read or made.
    func signer(forStateFile statePath: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> DialogueStateSigner {
        let stateFile = URL(fileURLWithPath: statePath)
        func checkApart(_ keyPath: String, _ option: String) throws {
            guard !keyPath.isEmpty else { throw ValidationError("\(option) is empty; give a file path") }
            if OutputPath.isSameDestination(stateFile, URL(fileURLWithPath: keyPath)) {
                throw ValidationError("--state \(statePath) and the key file of \(option) are the same file; keep the key apart from the state")
            }
        }
        let key: DialogueStateKey
        if let stateKey {
            try checkApart(stateKey, "--state-key")
            key = try Self.loadOrCreate(stateKey)
        } else if let hex = environment[Self.keyVariable], !hex.isEmpty {
            key = try DialogueStateKey(hex: hex, source: "$\(Self.keyVariable)")
        } else if let path = Self.defaultKeyPath(environment: environment) {
            try checkApart(path, "the default key (\(path))")
            key = try Self.loadOrCreate(path)
        } else {
            throw ValidationError("no place for the key that signs --state: HOME and XDG_CONFIG_HOME are unset; "
                                  + "pass --state-key FILE or set \(Self.keyVariable)")
        }
        var previous: [DialogueStateKey] = []
        for path in oldStateKey {
            try checkApart(path, "--old-state-key")
            previous.append(try DialogueStateKey(contentsOf: URL(fileURLWithPath: path)))
        }
        if let list = environment[Self.oldKeysVariable], !list.isEmpty {
            for (index, hex) in list.split(separator: ",", omittingEmptySubsequences: false).enumerated() {
                previous.append(try DialogueStateKey(hex: hex, source: "$\(Self.oldKeysVariable) item \(index + 1)"))
            }
        }
        return DialogueStateSigner(key: key, previousKeys: previous)
    }

    /// `$XDG_CONFIG_HOME/nlu/dialogue-state.key`, else `$HOME/.config/nlu/dialogue-state.key` (the XDG base
    /// directory rule: a relative XDG_CONFIG_HOME is ignored).
    static func defaultKeyPath(environment: [String: String]) -> String? {
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") { return base + "/nlu/dialogue-state.key" }
        if let home = environment["HOME"], !home.isEmpty { return home + "/.config/nlu/dialogue-state.key" }
        return nil
    }

    private static func loadOrCreate(_ path: String) throws -> DialogueStateKey {
        let (key, created) = try DialogueStateKey.loadOrCreate(at: URL(fileURLWithPath: path))
        if created { Console.log("made a new key for signing conversation states: \(path) (keep it; states signed with it need it)") }
        warnIfShared(path)
        return key
    }

    /// A warning when others may read the key file (as ssh says of a private key): whoever reads it can forge
    /// states. Not an error: the owner may share it on purpose, with a group that runs the same bot.
    private static func warnIfShared(_ path: String) {
        guard let permissions = (try? FileManager.default.attributesOfItem(atPath: path))?[.posixPermissions] as? Int,
              permissions & 0o077 != 0 else { return }
        Console.log("warning: state key \(path) can be read by other users (mode \(String(permissions, radix: 8))): "
                    + "whoever reads it can forge conversation states; chmod 600 \(path)")
    }
}
