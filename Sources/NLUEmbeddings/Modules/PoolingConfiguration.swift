import Foundation
import NLUCore
import NLUInputOutput

/// `1_Pooling/config.json`: the embedding width and the pooling modes, in either spelling
/// sentence-transformers writes (`"pooling_mode": "mean"` or a list, or the legacy
/// `"pooling_mode_mean_tokens": true` flags; none set means mean).
///
///     {"word_embedding_dimension": 384, "pooling_mode_mean_tokens": true}
public struct PoolingConfiguration: Sendable, Equatable {
    /// The token embedding width the module expects (`embedding_dimension` / `word_embedding_dimension`).
    public var embeddingDimension: Int?
    /// The modes, concatenated in this order.
    public var modes: [PoolingMode]

    /// A configuration from its parts.
    public init(embeddingDimension: Int? = nil, modes: [PoolingMode] = [.mean]) {
        self.embeddingDimension = embeddingDimension
        self.modes = modes
    }

    /// Reads `config.json` in the pooling module's directory (absent: mean pooling).
    init(directory: URL) throws {
        let url = directory.appendingPathComponent("config.json")
        guard FileManager.default.fileExists(atPath: url.path) else {
            self.init()
            return
        }
        let data: Data?
        do { data = try InputFile.readModelFile(url) } catch is InputReadError { data = nil }
        guard let data,
              let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            throw SentenceEmbedderError.invalidFile(path: url.path, reason: "not a JSON object")
        }
        try self.init(json: object, path: url.path)
    }

    init(json object: [String: Any], path: String) throws {
        func invalid(_ reason: String) -> SentenceEmbedderError { .invalidFile(path: path, reason: reason) }
        for key in ["embedding_dimension", "word_embedding_dimension"] where object[key] != nil {
            guard let value = object[key] as? Int, value > 0 else { throw invalid("field '\(key)' must be a positive integer") }
            embeddingDimension = value
        }
        if let include = object["include_prompt"], (include as? Bool) != true {
            throw invalid("field 'include_prompt' must be true (prompts are not supported)")
        }
        let supported = PoolingMode.allCases.map(\.rawValue).joined(separator: ", ")
        if let mode = object["pooling_mode"] {
            let names: [String]
            if let name = mode as? String { names = [name] } else if let list = mode as? [String] { names = list } else {
                throw invalid("field 'pooling_mode' must be a string or a list of strings")
            }
            modes = try names.map { name in
                guard let mode = PoolingMode(rawValue: name) else {
                    throw invalid("unsupported pooling_mode \"\(name)\" (supported: \(supported))")
                }
                return mode
            }
            if modes.isEmpty { throw invalid("field 'pooling_mode' lists no mode") }
            // Each mode adds a hidden-size block to every embedding: a list repeating one mode 10^5 times made
            // embeddings of 10^5 × hidden floats (gigabytes per batch) from a file of a few hundred kilobytes.
            var seen = Set<PoolingMode>()
            if let repeated = modes.first(where: { !seen.insert($0).inserted }) {
                throw invalid("field 'pooling_mode' lists \"\(repeated.rawValue)\" more than once")
            }
        } else {
            modes = try Self.legacyKeys.compactMap { key, mode in
                guard let flag = object[key] else { return nil }
                guard let isOn = flag as? Bool else { throw invalid("field '\(key)' must be true or false") }
                return isOn ? mode : nil
            }
            if modes.isEmpty { modes = [.mean] }
        }
    }

    /// The legacy boolean keys of `1_Pooling/config.json`, in the order sentence-transformers
    /// concatenates their results.
    static let legacyKeys: [(key: String, mode: PoolingMode)] = [
        ("pooling_mode_cls_token", .cls), ("pooling_mode_max_tokens", .max), ("pooling_mode_mean_tokens", .mean),
        ("pooling_mode_mean_sqrt_len_tokens", .meanSqrtLength), ("pooling_mode_weightedmean_tokens", .weightedMean),
        ("pooling_mode_lasttoken", .lastToken),
    ]
}
