import Foundation
import NLUCore
import NLUInputOutput

/// Where and how ``HubDownloader`` talks to the Hugging Face Hub, read from the environment the way
/// Python's `huggingface_hub` reads it, so both tools agree on the server, the token and the cache.
///
///     let configuration = HubConfiguration()                 // HF_ENDPOINT, HF_TOKEN, HF_HUB_CACHE / HF_HOME, HF_HUB_OFFLINE
///     let local = HubConfiguration(endpoint: URL(string: "http://127.0.0.1:8080")!, token: nil, cache: directory)
public struct HubConfiguration: Sendable {
    /// The Hub's base URL: `$HF_ENDPOINT`, else `https://huggingface.co`.
    public var endpoint: URL
    /// Sent as `Authorization: Bearer TOKEN`: `$HF_TOKEN`, else the file `$HF_TOKEN_PATH`, else
    /// `$HF_HOME/token` (what `huggingface-cli login` writes).
    public var token: String?
    /// The cache the files go into (``ModelLocator/hubCache(environment:)``).
    public var cache: URL
    /// The stall timeout: seconds in which a request must make progress (its answer's head, or at least
    /// 1 KiB of body) before it fails; a server trickling a byte now and then stalls too.
    /// `$HF_HUB_DOWNLOAD_TIMEOUT` when set (huggingface_hub's download timeout), else ``defaultStallTimeout``.
    public var stallTimeout: Double = HubConfiguration.defaultStallTimeout
    /// Seconds one ``HubDownloader/download(_:filter:progress:)`` may take in all, or nil for no deadline (the default).
    public var deadline: Double?
    /// Offline mode, as huggingface_hub has it: no request is made, a revision already in the cache is answered
    /// from it and any other is an error (``HubError/notCachedOffline(id:revision:cache:setting:)``). Set from
    /// `HF_HUB_OFFLINE` (else `TRANSFORMERS_OFFLINE`) being 1, ON, YES or TRUE, in any case.
    public var offline = false
    /// How offline mode was asked for, as error messages quote it ("HF_HUB_OFFLINE=1").
    public var offlineSetting = "HF_HUB_OFFLINE=1"

    /// 60 s: long enough for a slow link or a busy mirror, short enough that a dead one is noticed.
    public static let defaultStallTimeout: Double = 60
    /// The longest stall timeout or deadline accepted, in seconds (about 11.5 days).
    public static let longestTimeLimit: Double = 1_000_000

    /// The seconds `text` gives for a time limit named `setting` (an option or a variable, for the error).
    /// - Throws: ``HubError/invalidTimeLimit(setting:value:)`` unless it is a number above 0 and at most ``longestTimeLimit``.
    public static func timeLimit(_ text: String, setting: String) throws -> Double {
        guard let seconds = Double(text.trimmingCharacters(in: .whitespaces)), seconds > 0, seconds <= longestTimeLimit else {
            throw HubError.invalidTimeLimit(setting: setting, value: text)
        }
        return seconds
    }

    public init(endpoint: URL, token: String?, cache: URL) {
        self.endpoint = endpoint
        self.token = token
        self.cache = cache
    }

    /// The configuration `environment` selects.
    /// - Throws: ``HubError/invalidEndpoint(_:)`` when `HF_ENDPOINT` is not an http(s) URL,
    ///   ``HubCacheProblem/variableIsAFile(variable:path:)`` when the cache variable names a file,
    ///   ``HubCacheProblem/noCacheFolder`` when no variable chooses the cache (not even HOME),
    ///   ``HubError/invalidTimeLimit(setting:value:)`` for an `HF_HUB_DOWNLOAD_TIMEOUT` that is no number of seconds.
    public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        let endpointText = environment["HF_ENDPOINT"].flatMap { $0.isEmpty ? nil : $0 } ?? "https://huggingface.co"
        guard let endpoint = URL(string: endpointText.hasSuffix("/") ? String(endpointText.dropLast()) : endpointText),
              let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", endpoint.host != nil else {
            throw HubError.invalidEndpoint(endpointText)
        }
        try HubCacheProblem.checkVariables(environment: environment)
        self.init(endpoint: endpoint, token: Self.token(environment: environment), cache: try ModelLocator.hubCache(environment: environment))
        if let setting = Self.offlineSetting(environment: environment) {
            offline = true
            offlineSetting = setting
        }
        if let text = environment["HF_HUB_DOWNLOAD_TIMEOUT"], !text.isEmpty {
            stallTimeout = try Self.timeLimit(text, setting: "HF_HUB_DOWNLOAD_TIMEOUT")
        }
    }

    /// "NAME=VALUE" of the variable that turns offline mode on, or nil. huggingface_hub reads
    /// `HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE` (the second only when the first is unset or empty) and takes
    /// 1, ON, YES and TRUE, in any case, as true.
    private static func offlineSetting(environment: [String: String]) -> String? {
        let name = environment["HF_HUB_OFFLINE"].map { $0.isEmpty } ?? true ? "TRANSFORMERS_OFFLINE" : "HF_HUB_OFFLINE"
        guard let value = environment[name], ["1", "ON", "YES", "TRUE"].contains(value.uppercased()) else { return nil }
        return name + "=" + value
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
        } else if let base = environment["XDG_CACHE_HOME"].flatMap({ $0.isEmpty ? nil : $0 })
                    ?? environment["HOME"].flatMap({ $0.isEmpty ? nil : $0 + "/.cache" }) {
            path = base + "/huggingface/token"
        } else {
            return nil
        }
        // A token is tens of bytes: a file past 64 KiB (HF_TOKEN_PATH naming a huge or endless file) is no token file.
        guard let data = try? InputFile.read(URL(fileURLWithPath: path), maximumBytes: 64 << 10),
              let text = String(data: data, encoding: .utf8) else { return nil }
        let token = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return token.isEmpty ? nil : token
    }
}
