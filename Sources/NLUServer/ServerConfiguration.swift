import Foundation
import NLUDialogue

/// How `nlu serve` listens and how much it accepts: the address, the optional bearer token, the
/// inference concurrency and the limits that protect it from large or slow requests.
///
///     var configuration = ServerConfiguration()
///     configuration.port = 0            // an ephemeral port (tests)
///     configuration.token = "s3cret"    // every route but /health, /version and / needs it
///     try configuration.validate()
public struct ServerConfiguration: Sendable, Equatable {
    /// The address to bind (loopback by default: exposing the server is a deliberate choice).
    public var host: String = "127.0.0.1"
    /// The TCP port (5005 is Rasa's, so Rasa clients work unchanged; 0 picks a free one).
    public var port: Int = 5005
    /// When set, requests need `Authorization: Bearer TOKEN` or Rasa's `?token=TOKEN`.
    public var token: String?
    /// Inference threads: how many requests run a model at once.
    public var workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// Requests waiting for a worker beyond which the server answers 503 at once instead of queueing.
    public var maxQueuedRequests: Int = 1024
    /// The largest request body accepted, in bytes (larger ones get 413 before they are read).
    public var maxBodyBytes: Int = 1 << 20
    /// Seconds a client has to send a whole request (head and body), and the longest a kept-alive
    /// connection may stay idle: slow clients (slowloris) are disconnected after it.
    public var requestTimeout: Double = 30
    /// Seconds a stopping server (SIGTERM, SIGINT) gives requests it has begun: those being answered
    /// may finish and those still arriving may arrive; then every connection is closed and requests
    /// still queued fail with 503, so a stalled client cannot hold the process. Idle connections
    /// and unfinished request heads are closed at once.
    public var gracePeriod: Double = 5
    /// The longest text (a parse text, a QA question or context, each text of an embeddings request)
    /// answered, in Unicode scalars; longer ones get 422. 100,000 is about 40 pages: bounded work per
    /// request whatever the body limit.
    public var maxTextLength: Int = 100_000
    /// The most windows one question-answering request may put through the model; a context that
    /// needs more gets 422 before the model runs. A window is up to 384 tokens, and each one after the
    /// first adds about 250 tokens (1,000 characters of English) of new context. BERT-base reads a
    /// window in about 0.4 s (a 100,000-character context, about 100 windows, took 40 s), so the
    /// default 32 (a context of about 30,000 characters) answers in about 13 s, well within the 30 s
    /// of the default `--timeout` and of common client timeouts.
    public var maxQuestionAnsweringWindows: Int = 32
    /// The most tokens one embeddings request may put through the model: every text's tokens as the
    /// encoder sees them ([CLS] and [SEP] included, each text truncated to the model's
    /// `max_seq_length`), summed; more gets 422 before the model runs (Text Embeddings Inference's
    /// `--max-batch-tokens` plays this part there). The default 65,536 is 2048 texts of 32 tokens, or
    /// 128 of 512.
    public var maxEmbeddingTokens: Int = 65_536
    /// The most texts one embeddings request may hold; more gets 422, counted before any text is
    /// decoded. 2048 is OpenAI's limit.
    public var maxEmbeddingTexts: Int = 2048
    /// The most connections held open at once. When one more opens, the connection idle the longest
    /// (kept alive between requests, or opened without sending a whole request head) is closed; when
    /// none is idle, new connections wait in the listen queue until one closes. So idle clients
    /// cannot use up the process's file descriptors: at most ``connectionCapacity``, the default.
    public var maxConnections: Int = ServerConfiguration.connectionCapacity
    /// Seconds without a message after which a conversation is forgotten (its next message starts it again,
    /// as a Rasa session expires after `session_expiration_time`, 60 minutes by default); `nil`: never.
    public var conversationIdleSeconds: Double? = 3600
    /// The most conversations the store keeps (in memory or in the database); past it, the least recently used
    /// one is forgotten.
    public var maxConversations: Int = 100_000
    /// The largest state of a conversation, in bytes of JSON; a turn that would store more is refused (422).
    public var maxConversationStateBytes: Int = ConversationExpiry.defaultMaxStateBytes
    /// The most texts one encoder batch gathers from concurrent `/embed`, `/v1/embeddings` and
    /// `/model/parse` requests into one encoder call; 1 turns batching off: each request its own encoder call.
    public var maxBatch: Int = 64
    /// Milliseconds a request that finds the encoder idle waits for others to share its batch (0: none;
    /// requests arriving while a batch runs still share the next one).
    public var batchWindowMilliseconds: Double = 2

    /// The conversation stores' expiry from ``conversationIdleSeconds``, ``maxConversations`` and
    /// ``maxConversationStateBytes``.
    /// - Throws: ``ServerConfigurationError`` for a value out of range.
    public func conversationExpiry() throws -> ConversationExpiry {
        do {
            return try ConversationExpiry(idleSeconds: conversationIdleSeconds, maxConversations: maxConversations,
                                          maxStateBytes: maxConversationStateBytes)
        } catch {
            if let idle = conversationIdleSeconds, !(idle.isFinite && idle >= 1 && idle <= ConversationExpiry.maximumIdleSeconds) {
                throw ServerConfigurationError(setting: "conversation idle", expected: "1 ... \(Int(ConversationExpiry.maximumIdleSeconds)) seconds", got: "\(idle)")
            }
            if !ConversationExpiry.stateBytesRange.contains(maxConversationStateBytes) {
                let range = ConversationExpiry.stateBytesRange
                throw ServerConfigurationError(setting: "max conversation state", expected: "\(range.lowerBound)...\(range.upperBound) bytes",
                                               got: "\(maxConversationStateBytes)")
            }
            throw ServerConfigurationError(setting: "max conversations", expected: "1...\(ConversationExpiry.maximumConversations)", got: "\(maxConversations)")
        }
    }

    /// Descriptors the process keeps for itself beyond its connections: standard streams, each event
    /// loop's epoll, event and timer descriptors (about 17 on 2 cores), model and log files, and the few
    /// connections accepted in one go before the limit is checked.
    public static var reservedDescriptors: Int { 32 + 4 * ProcessInfo.processInfo.activeProcessorCount }

    /// The connections this process can hold: its open-files limit (the soft `RLIMIT_NOFILE`,
    /// `ulimit -n`) less ``reservedDescriptors`` (984 under the common limit of 1024, on 2 cores).
    /// More would make `accept` fail with `EMFILE`, which NIO retries at once, spinning a core.
    public static var connectionCapacity: Int {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 1024 - reservedDescriptors }
        // RLIM_INFINITY is the type's largest value: clamped like any other large limit.
        let connections = UInt64(limit.rlim_cur).subtractingReportingOverflow(UInt64(reservedDescriptors))
        if connections.overflow || connections.partialValue == 0 { return 1 }
        return Int(min(connections.partialValue, 1 << 24))
    }

    /// The defaults: 127.0.0.1:5005, no token, one worker per core, 1 MiB bodies, 30 s, a 5 s grace period,
    /// texts of 100,000 characters, 32 QA windows, 2048 texts and 65,536 embedding tokens per request,
    /// as many connections as the open-files limit allows, and encoder batches of up to 64 texts gathered within 2 ms.
    public init() {}

    /// Checks every value before it sizes a pool, a buffer or a timer.
    /// - Throws: ``ServerConfigurationError`` naming the setting and what it expects.
    public func validate() throws {
        func fail(_ setting: String, _ expected: String, _ got: String) -> ServerConfigurationError {
            ServerConfigurationError(setting: setting, expected: expected, got: got)
        }
        guard !host.isEmpty else { throw fail("host", "an IP address or host name", "an empty string") }
        guard (0...65_535).contains(port) else { throw fail("port", "0...65535", "\(port)") }
        if let token, token.isEmpty || token.contains(where: { $0.isWhitespace || $0.isNewline }) {
            throw fail("token", "a non-empty secret without spaces", token.isEmpty ? "an empty string" : "a value with spaces")
        }
        guard (1...1024).contains(workers) else { throw fail("workers", "1...1024", "\(workers)") }
        guard (0...1_000_000).contains(maxQueuedRequests) else { throw fail("max queued requests", "0...1000000", "\(maxQueuedRequests)") }
        guard (1...(1 << 30)).contains(maxBodyBytes) else { throw fail("max body", "1 byte ... 1 GiB", "\(maxBodyBytes)") }
        guard (1...100_000_000).contains(maxTextLength) else { throw fail("max text length", "1...100000000", "\(maxTextLength)") }
        guard (1...100_000).contains(maxQuestionAnsweringWindows) else {
            throw fail("max qa windows", "1...100000", "\(maxQuestionAnsweringWindows)")
        }
        guard (1...100_000_000).contains(maxEmbeddingTokens) else {
            throw fail("max embed tokens", "1...100000000", "\(maxEmbeddingTokens)")
        }
        guard (1...1_000_000).contains(maxEmbeddingTexts) else {
            throw fail("max embed texts", "1...1000000", "\(maxEmbeddingTexts)")
        }
        guard (1...4096).contains(maxBatch) else { throw fail("max batch", "1...4096 texts (1: no batching across requests)", "\(maxBatch)") }
        guard batchWindowMilliseconds.isFinite, batchWindowMilliseconds >= 0, batchWindowMilliseconds <= 1000 else {
            throw fail("batch window ms", "0 ... 1000 milliseconds", "\(batchWindowMilliseconds)")
        }
        let capacity = Self.connectionCapacity
        guard (1...capacity).contains(maxConnections) else {
            throw fail("max connections", "1...\(capacity) (the open-files limit, ulimit -n, less \(Self.reservedDescriptors) for the server's own files)",
                       "\(maxConnections)")
        }
        guard requestTimeout.isFinite, requestTimeout >= 0.01, requestTimeout <= 86_400 else {
            throw fail("timeout", "0.01 ... 86400 seconds", "\(requestTimeout)")
        }
        guard gracePeriod.isFinite, gracePeriod >= 0, gracePeriod <= 86_400 else {
            throw fail("grace period", "0 ... 86400 seconds", "\(gracePeriod)")
        }
        _ = try conversationExpiry()
    }
}

/// A server setting out of range.
public struct ServerConfigurationError: Error, CustomStringConvertible, Equatable {
    /// The setting (as the CLI option names it, without dashes).
    public var setting: String
    /// What it accepts.
    public var expected: String
    /// What it was given.
    public var got: String

    public var description: String { "\(setting): expected \(expected), got \(got)" }
}
