#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which of a repository's files to download: shell patterns matched against the whole path as
/// Python's `fnmatch` does for `huggingface-cli download --include` (`*` also crosses `/`).
///
///     HubFileFilter.nlukit               // *.json, *.txt, *.safetensors: what NLUKit reads
///     HubFileFilter(patterns: ["*"])     // every file, as huggingface-cli does by default
public struct HubFileFilter: Sendable, Equatable {
    /// A file is kept when one pattern matches it.
    public var patterns: [String]

    public init(patterns: [String]) { self.patterns = patterns }

    /// The files NLUKit's models are made of: configurations, vocabularies and safetensors weights
    /// (not the ONNX, TensorFlow, PyTorch-pickle or OpenVINO copies many repositories also carry).
    public static let nlukit = HubFileFilter(patterns: ["*.json", "*.txt", "*.safetensors"])

    /// Every file.
    public static let all = HubFileFilter(patterns: ["*"])

    public func includes(_ path: String) -> Bool {
        patterns.contains { pattern in
            // Python's filter_repo_objects: a pattern ending in "/" means everything below that folder.
            let expanded = pattern.hasSuffix("/") ? pattern + "*" : pattern
            return fnmatch(expanded, path, 0) == 0
        }
    }
}
