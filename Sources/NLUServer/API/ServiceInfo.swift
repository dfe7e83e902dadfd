import NLUCore

/// The bodies of `GET /health`, `/version` and `/status`.
enum ServiceInfo {
    struct Health: Encodable, Sendable { var status: String }

    struct Version: Encodable, Sendable {
        var version: String
        var server: String
    }

    struct Status: Encodable, Sendable {
        var version: String
        var models: [ServedModels.Info]
        var workers: Int
        var uptimeSeconds: Double

        enum CodingKeys: String, CodingKey {
            case version, models, workers
            case uptimeSeconds = "uptime_seconds"
        }
    }

    static let version = Version(version: NLUKitVersion.string, server: "nlukit")
}
