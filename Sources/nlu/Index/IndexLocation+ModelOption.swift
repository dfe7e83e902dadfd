import ArgumentParser
import NLUKit

extension IndexLocation {
    /// A `--model` whose built-in name is malformed (`hashing:0`) is a usage error, found before any work.
    static func validateModelOption(_ model: String?) throws {
        guard let model else { return }
        do { try EmbedderLoading.checkBuiltInName(model) } catch { throw ValidationError("--model: \(error)") }
    }
}
