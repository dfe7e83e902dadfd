import Foundation
import NLUCore

/// Where and how ``HubDownloader`` talks to the Hugging Face Hub, read from the environment the way
/// Python's `huggingface_hub` reads it, so both tools agree on the server, the token and the cache.
///
///     let configuration = HubConfiguration()                 // HF_ENDPOINT, HF_TOKEN, HF_HUB_CACHE / HF_HOME
///     let local = HubConfiguration(endpoint: URL(string: "http://127.0.0.1:8080")!, token: nil, cache: directory)
public struct HubConfiguration: Sendable {
    /// The Hub's base URL: `$HF_ENDPOINT`, else `https://huggingface.co`.
    public var endpoint: URL
    /// Sent as `Authorization: Bearer TOKEN`: `$HF_TOKEN`, else the file `$HF_TOKEN_PATH`, else
    /// `$HF_HOME/token` (what `huggingface-cli login` writes).
    public var token: String?
    /// The cache the files go into (``ModelLocator/hubCache(environment:)``).
    public var cache: URL
    /// Seconds without a byte from the server before a request fails.
    public var timeout: TimeInterval = 30

    public init(endpoint: URL, token: String?, cache: URL) {
        self.endpoint = endpoint
        self.token = token
        self.cache = cache
    }

    /// The configuration `environment` selects.
    /// - Throws: ``HubError/invalidEndpoint(_:)`` when `HF_ENDPOINT` is not an http(s) URL.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let endpointText = environment["HF_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://huggingface.co"
        guard let endpoint = URL(string: endpointText.hasSuffix("/") ? String(endpointText.dropLast()) : endpointText),
              let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", endpoint.host != nil else {
            throw HubError.invalidEndpoint(endpointText)
        }
        self.init(endpoint: endpoint, token: Self.token(environment: environment), cache: ModelLocator.hubCache(environment: environment))
    }

    private static func token(environment: [String: String]) -> String? {
        for name in ["HF_TOKEN", "HUGGING_FACE_HUB_TOKEN"] {
            if let token = environment[name]?.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty { return token }
        }
        let path: String
        if let explicit = environment["HF_TOKEN_PATH"], !explicit.isEmpty {
            path = explicit
        } else if let home = environment["HF_HOME"], !home.isEmpty {
            path = home + "/token"
        } else {
            let base = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
                ?? ((environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()) + "/.cache")
            path = base + "/huggingface/token"
        }
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }
}
