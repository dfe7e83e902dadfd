import HTTPTypes

/// Every route the server answers, in one place: the router registers these paths, the error
/// middleware tells 405 from 404 with them, and the token check reads which are public.
enum RouteTable {
    struct Route: Sendable {
        var method: HTTPRequest.Method
        var path: String
        /// Answered without the token: liveness probes, the version and the static playground page
        /// carry no model data.
        var isPublic: Bool
    }

    static let playground = Route(method: .get, path: "/", isPublic: true)
    static let health = Route(method: .get, path: "/health", isPublic: true)
    static let version = Route(method: .get, path: "/version", isPublic: true)
    static let status = Route(method: .get, path: "/status", isPublic: false)
    static let metrics = Route(method: .get, path: "/metrics", isPublic: false)
    static let parse = Route(method: .post, path: "/model/parse", isPublic: false)
    static let questionAnswering = Route(method: .post, path: "/question-answering", isPublic: false)
    static let embed = Route(method: .post, path: "/embed", isPublic: false)
    static let openAIEmbeddings = Route(method: .post, path: "/v1/embeddings", isPublic: false)
    static let rasaWebhook = Route(method: .post, path: "/webhooks/rest/webhook", isPublic: false)
    static let conversationMessages = Route(method: .post, path: "/conversations/:id/messages", isPublic: false)
    static let conversation = Route(method: .get, path: "/conversations/:id", isPublic: false)
    static let conversationDeletion = Route(method: .delete, path: "/conversations/:id", isPublic: false)

    static let all = [playground, health, version, status, metrics, parse, questionAnswering, embed, openAIEmbeddings,
                      rasaWebhook, conversationMessages, conversation, conversationDeletion]

    /// The methods `path` accepts (empty for an unknown path).
    static func methods(for path: String) -> [String] {
        let normalized = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        return all.filter { matches($0.path, normalized) }.map(\.method.rawValue)
    }

    /// Whether `path` is an instance of `template`, whose `:name` segments stand for any one non-empty segment.
    static func matches(_ template: String, _ path: String) -> Bool {
        guard template.contains(":") else { return template == path }
        let parts = template.split(separator: "/", omittingEmptySubsequences: false)
        let given = path.split(separator: "/", omittingEmptySubsequences: false)
        return parts.count == given.count && zip(parts, given).allSatisfy { $0.first == ":" ? !$1.isEmpty : $0 == $1 }
    }

    /// The methods a request is counted under in `/metrics`: the ones clients use, so that a client
    /// sending every method NIO's parser knows (34 of them: PROPFIND, MKCOL, ...) cannot make a new
    /// metric series with each.
    static let countedMethods: Set<HTTPRequest.Method> = [.get, .post, .head, .options, .put, .delete, .patch]

    /// The value every label takes for what is not known: other methods, unknown paths.
    static let otherLabel = "other"

    /// The `route` and `method` labels of a request in `/metrics`: a known path and method as they
    /// are (a path with an id as its template, `/conversations/:id`), anything else ``otherLabel``, so the
    /// number of series is bounded whatever clients send.
    static func metricLabels(method: HTTPRequest.Method, path: String) -> (route: String, method: String) {
        (all.first { matches($0.path, path) }?.path ?? otherLabel, countedMethods.contains(method) ? method.rawValue : otherLabel)
    }

    /// Whether `method path` is answered without the token.
    static func isPublic(method: HTTPRequest.Method, path: String) -> Bool {
        all.contains { $0.isPublic && $0.method == method && matches($0.path, path) }
    }
}
