import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NLUDialogue
import NIOConcurrencyHelpers
import NIOCore
import ServiceLifecycle

/// The NLUKit HTTP server: Rasa's `/model/parse`, question answering in the Hugging Face shape,
/// health, status, Prometheus metrics and a playground page, on Hummingbird.
///
///     let models = try ServedModels.load(intents: "car.nlumodel", questionAnswering: nil)
///     let server = try NLUHTTPServer(models: models, configuration: ServerConfiguration())
///     try await server.run()   // until SIGTERM or SIGINT: in-flight requests finish, then it returns
///
/// Hummingbird 2 needs macOS 14 / iOS 17, hence the availability; on Linux it is always there.
@available(macOS 14, iOS 17, tvOS 17, watchOS 10, *)
public struct NLUHTTPServer: Sendable {
    /// The models served.
    public let models: ServedModels
    /// Address, token and limits.
    public let configuration: ServerConfiguration
    /// The metrics `/metrics` prints.
    public let metrics: ServerMetrics
    /// Where the served dialogue's conversations are kept (`nil` without a dialogue).
    public let conversations: (any ConversationStore)?
    private let logger: Logger

    /// A server for `models` (checked with ``ServerConfiguration/validate()``). With a dialogue among them, its
    /// conversations are kept in `conversations`, by default in this process's memory with the configuration's expiry.
    /// - Throws: ``ServerConfigurationError`` for a setting out of range.
    public init(models: ServedModels, configuration: ServerConfiguration, conversations: (any ConversationStore)? = nil,
                logger: Logger = Logger(label: "nlu.serve")) throws {
        try configuration.validate()
        self.models = models
        self.configuration = configuration
        self.conversations = models.dialogue == nil ? nil
            : try conversations ?? MemoryConversationStore(expiry: configuration.conversationExpiry())
        self.logger = logger
        metrics = ServerMetrics(models: models.info.map(\.task))
    }

    /// Binds the address and answers requests until the task is cancelled or, with
    /// `stopOnSignals`, SIGTERM/SIGINT arrive (or a service group it runs in shuts down gracefully):
    /// then it stops accepting, closes idle connections, lets in-flight requests finish within
    /// ``ServerConfiguration/gracePeriod``, and returns.
    /// - Parameter onRunning: called once the port is bound, with the port (the real one when
    ///   ``ServerConfiguration/port`` is 0).
    /// - Throws: ``ServerBindError`` when the address cannot be bound (port in use, unknown host).
    public func run(stopOnSignals: Bool = true, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }) async throws {
        let pool = InferencePool(workers: configuration.workers, maxQueued: configuration.maxQueuedRequests, metrics: metrics)
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: RequestLogMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware())
        if let token = configuration.token { router.add(middleware: TokenMiddleware(token: token)) }
        let batchers = EncoderBatchers(models: models, configuration: configuration, pool: pool, metrics: metrics)
        ServerRoutes(models: models, conversations: conversations, pool: pool, batchers: batchers, configuration: configuration,
                     metrics: metrics, started: .now)
            .register(on: router)

        let timeout = TimeAmount.nanoseconds(Int64(configuration.requestTimeout * 1e9))
        let gracePeriod = TimeAmount.nanoseconds(Int64(configuration.gracePeriod * 1e9))
        let bound = BindState()
        let limiter = ConnectionLimiter(maxConnections: configuration.maxConnections)
        let http1 = HTTP1Channel.Configuration(
            // The parser's errors reach MalformedRequestResponder first; its own answers bypass the deadline's count.
            additionalChannelHandlers: [MalformedRequestResponder(), RequestDeadlineHandler(timeout: timeout, gracePeriod: gracePeriod),
                                        ConnectionLimitHandler(limiter: limiter)],
            httpDecoderConfiguration: HTTPLimits.decoder)
        let app = Application(
            router: router,
            server: HTTPServerBuilder { responder in HTTP1ServerChannel(responder: responder, configuration: http1) },
            configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "NLUKit",
                                 availableConnectionsDelegate: limiter),
            onServerRunning: { channel in
                bound.set()
                // Before NIO's own accept backoff, which never sees these failures (AcceptFailureBackoff says why).
                try? await channel.eventLoop.submit {
                    try channel.pipeline.syncOperations.addHandler(AcceptFailureBackoff(limiter: limiter), position: .first)
                }.get()
                await onRunning(channel.localAddress?.port ?? configuration.port)
            },
            logger: logger)
        // The connections end themselves when the grace period does (RequestDeadlineHandler); the
        // queue is emptied at the same moment, so the handlers awaiting it return and so does `run`.
        let service = GracePeriodService(wrapping: app, gracePeriod: gracePeriod) {
            pool.stopQueuedCalls(ServerStoppingError(gracePeriod: gracePeriod))
        }
        let group = ServiceGroup(configuration: .init(
            services: [service], gracefulShutdownSignals: stopOnSignals ? [.sigterm, .sigint] : [], logger: logger))
        // Conversations nobody touches again are purged on a schedule (the stores also purge on access).
        let interval = (try? configuration.conversationExpiry())?.purgeInterval ?? 60
        let purging = conversations.map { store in
            Task { [logger] in
                await store.purgeExpiredPeriodically(every: interval) { error in
                    logger.warning("purging expired conversations failed: \(error); trying again in \(interval) s")
                }
            }
        }
        defer { purging?.cancel() }
        do {
            try await group.run()
        } catch {
            try? await pool.shutdown()
            if !bound.isSet { throw ServerBindError(host: configuration.host, port: configuration.port, underlying: error) }
            throw error
        }
        try await pool.shutdown()
    }
}

/// The server could not listen where it was asked to.
public struct ServerBindError: Error, CustomStringConvertible {
    public var host: String
    public var port: Int
    public var underlying: any Error

    public var description: String {
        if let io = underlying as? IOError, io.errnoCode == EADDRINUSE {
            return "cannot listen on \(host):\(port): the port is already in use (another server? pick one with --port)"
        }
        if let io = underlying as? IOError, io.errnoCode == EADDRNOTAVAIL {
            return "cannot listen on \(host):\(port): this machine has no such address (--host)"
        }
        if let unknown = underlying as? SocketAddressError.UnknownHost {
            // NIO's own text ("SocketAddressError.UnknownHost: ... (error -2) for host ...") is for programmers.
            return "cannot listen on \(host):\(port): the host name '\(unknown.host)' could not be resolved "
                + "(\(unknown.errorDescription.lowercased())); give an IP address or a name this machine resolves (--host)"
        }
        return "cannot listen on \(host):\(port): \(underlying)"
    }
}

/// Whether the server got as far as listening (errors before that are bind errors).
private final class BindState: Sendable {
    private let value = NIOLockedValueBox(false)
    func set() { value.withLockedValue { $0 = true } }
    var isSet: Bool { value.withLockedValue { $0 } }
}
