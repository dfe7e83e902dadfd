import ArgumentParser
import Foundation
import Logging
import NLUKit
import NLUServer

/// `nlu serve`: the HTTP server (Rasa's /model/parse, question answering, metrics, playground).
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve models over HTTP: Rasa's /model/parse, Hugging Face question answering, metrics, a playground.",
        discussion: """
        Routes: GET / (playground page), GET /health, GET /version, GET /status, GET /metrics (Prometheus), \
        POST /model/parse (Rasa: {"text"}), POST /question-answering ({"question", "context"} or Hugging Face's \
        {"inputs": {"question", "context"}, "parameters": {"top_k"}}), POST /embed (Text Embeddings Inference: \
        {"inputs": text or [texts], "normalize"}), POST /v1/embeddings (OpenAI: {"input", "model"}). With --dialogue: \
        POST /webhooks/rest/webhook (Rasa's REST channel: {"sender", "message"}), POST /conversations/ID/messages \
        ({"text"} or {"message": parsed}), GET and DELETE /conversations/ID. Errors are JSON {"error", "message"}. \
        With a token, every route but /, /health and /version needs 'Authorization: Bearer TOKEN' or ?token=TOKEN. \
        Logs go to stderr, one line per request. SIGTERM or SIGINT: stop accepting, close idle connections, let requests in flight finish within --grace-period, exit 0. \
        See docs/server.md.
        """)

    @Option(help: "An intents model package (.nlumodel) for POST /model/parse.")
    var intents: String?

    @Option(help: "A question-answering checkpoint (a directory, or a Hugging Face id in the cache) or a Core ML .mlmodel file (as nlu qa ask --model) for POST /question-answering.")
    var qa: String?

    @Option(help: ArgumentHelp("With a .mlmodel --qa: its WordPiece vocab.txt (default: vocab.txt beside the file).", valueName: "file"))
    var qaVocab: String?

    @Flag(help: "With a .mlmodel --qa: the model is cased (do not lower-case text; Apple's BERT-SQuAD is uncased).")
    var qaCased = false

    @OptionGroup var arithmetic: PrecisionOption

    @Option(help: "A sentence-transformers model (a directory, or a Hugging Face id in the cache) for POST /embed (TEI) and POST /v1/embeddings (OpenAI).")
    var embed: String?

    @Option(help: "A dialogue (NLUKit dialogue JSON, a Watson Assistant workspace, a Rasa project...) for POST /webhooks/rest/webhook and /conversations; text other than Rasa payloads (/intent{...}) needs --intents to be parsed.")
    var dialogue: String?

    @Option(help: "Where conversations are kept: memory (this process), a SQLite file (shared by the processes of one machine) or a postgres:// URL (shared by replicas).")
    var conversations: String = "memory"

    @Option(help: "Seconds without a message after which a conversation is forgotten (its next message starts it again).")
    var conversationIdle: Double = 3600

    @Option(help: "The most conversations kept (in memory, SQLite or PostgreSQL); past it, the least recently used one is forgotten.")
    var maxConversations: Int = ServerConfiguration().maxConversations

    @Option(help: ArgumentHelp("The largest state of a conversation, in bytes of JSON; a turn that would store more is refused (422).",
                               valueName: "bytes"))
    var maxConversationState: Int = ServerConfiguration().maxConversationStateBytes

    @Option(help: "The address to listen on.")
    var host: String = "127.0.0.1"

    @Option(help: "The port (5005 is Rasa's; 0 picks a free one).")
    var port: Int = 5005

    @Option(help: "A bearer token requests must carry (default: $NLUKIT_TOKEN, or none).")
    var token: String?

    @Option(help: "Inference threads (default: one per core).")
    var workers: Int = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: "The largest request body in bytes; larger ones get 413.")
    var maxBody: Int = 1 << 20

    @Option(help: "The longest text answered, in characters (Unicode scalars): a parse text, a QA question or context, each text of an embeddings request; longer ones get 422.")
    var maxTextLength: Int = ServerConfiguration().maxTextLength

    @Option(help: "The most windows one question-answering request may put through the model (a window is up to 384 tokens; 32 are a context of about 30,000 characters, about 13 s on BERT-base); a context that needs more gets 422 before the model runs.")
    var maxQaWindows: Int = ServerConfiguration().maxQuestionAnsweringWindows

    @Option(help: "The most tokens one embeddings request may put through the model, summed over its texts as the model reads them (each at most its max_seq_length); more gets 422 before the model runs.")
    var maxEmbedTokens: Int = ServerConfiguration().maxEmbeddingTokens

    @Option(help: "The most texts one embeddings request may hold (2048 is OpenAI's limit); more gets 422 before any text is read.")
    var maxEmbedTexts: Int = ServerConfiguration().maxEmbeddingTexts

    @Option(help: "The most connections held open at once; when one more opens, the connection idle the longest is closed (default: the open-files limit, ulimit -n, less 32 + 4 per core for its own files).")
    var maxConnections: Int?

    @Option(help: ArgumentHelp("The most texts one encoder batch gathers from concurrent /embed, /v1/embeddings and /model/parse requests (1...4096; 1: no batching across requests, each request its own encoder call).",
                               valueName: "texts"))
    var maxBatch: Int = ServerConfiguration().maxBatch

    @Option(help: ArgumentHelp("Milliseconds a request that finds the encoder idle waits for others to share its batch (0...1000; 0: none, requests that arrive while a batch runs still share the next one).",
                               valueName: "ms"))
    var batchWindowMs: Double = ServerConfiguration().batchWindowMilliseconds

    @Option(help: "Seconds a client has to send a whole request, and the longest idle keep-alive.")
    var timeout: Double = 30

    @Option(help: "Seconds a stopping server (SIGTERM, SIGINT) lets requests it has begun finish before it closes every connection.")
    var gracePeriod: Double = 5

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error.")
    var logLevel: String = "info"

    func validate() throws {
        // A dialogue alone is served: payload messages (`/intent{...}`, Rasa's buttons) and already parsed messages
        // need no model; other text is answered 422 naming --intents.
        guard intents != nil || qa != nil || embed != nil || dialogue != nil else {
            throw ValidationError("nothing to serve: give one or more of --intents MODEL, --qa MODEL, --embed MODEL, --dialogue DIALOGUE")
        }
        if dialogue == nil, conversations != ConversationStoreLocation.memory {
            throw ValidationError("--conversations is where a --dialogue's conversations are kept: give --dialogue too")
        }
        if qaVocab != nil || qaCased, !(qa.map(QuestionAnswererLoading.isCoreMLFile) ?? false) {
            throw ValidationError("--qa-vocab and --qa-cased apply to a .mlmodel --qa file; a checkpoint brings its own tokenizer")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical; got \(logLevel)")
        }
        do { try serverConfiguration().validate() } catch let error as ServerConfigurationError {
            throw ValidationError("--\(error.setting.replacingOccurrences(of: " ", with: "-")): expected \(error.expected), got \(error.got)")
        }
    }

    func serverConfiguration() -> ServerConfiguration {
        var configuration = ServerConfiguration()
        configuration.host = host
        configuration.port = port
        configuration.token = token ?? ProcessInfo.processInfo.environment["NLUKIT_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        configuration.workers = workers
        configuration.maxBodyBytes = maxBody
        configuration.maxQuestionAnsweringWindows = maxQaWindows
        configuration.maxTextLength = maxTextLength
        configuration.maxEmbeddingTokens = maxEmbedTokens
        configuration.maxEmbeddingTexts = maxEmbedTexts
        if let maxConnections { configuration.maxConnections = maxConnections }
        configuration.maxBatch = maxBatch
        configuration.batchWindowMilliseconds = batchWindowMs
        configuration.requestTimeout = timeout
        configuration.gracePeriod = gracePeriod
        configuration.conversationIdleSeconds = conversationIdle
        configuration.maxConversations = maxConversations
        configuration.maxConversationStateBytes = maxConversationState
        return configuration
    }

    func run() throws {
        guard #available(macOS 14, iOS 17, tvOS 17, watchOS 10, *) else {
            throw InputError("nlu serve needs macOS 14 or later (Hummingbird 2)")
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        // Lines are written by a thread of their own: a standard error nobody reads must not stop the server
        // (NonBlockingLogStream says how it did). The last lines are flushed before the process exits.
        let stream = NonBlockingLogStream(fileDescriptor: STDERR_FILENO)
        defer { stream.flush(within: 2) }
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler(label: label, stream: stream)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "nlu.serve")
        // Models load before the port is bound: a bad file fails here, naming it, with nothing listening.
        let models: ServedModels
        do {
            models = try ServedModels.load(intents: intents, questionAnswering: qa, embeddings: embed, dialogue: dialogue, vocabulary: qaVocab,
                                           lowercase: !qaCased, precision: arithmetic.precision)
        } catch {
            throw InputError("\(error)")
        }
        for warning in models.dialogueWarnings { logger.warning("dialogue: \(warning)") }
        let configuration = serverConfiguration()
        let location = conversations
        try BlockingTask.run {
            let store: (any ConversationStore)?
            do {
                store = models.dialogue == nil ? nil
                    : try await ConversationStoreLocation.open(location, expiry: try configuration.conversationExpiry())
            } catch {
                throw InputError("--conversations: \(error)")
            }
            let server = try NLUHTTPServer(models: models, configuration: configuration, conversations: store, logger: logger)
            try await server.run { port in
                let served = models.info.map { "\($0.task) \($0.path) (\($0.detail))" }.joined(separator: "; ")
                logger.notice("serving", metadata: [
                    "url": "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(port)",
                    "models": "\(served)",
                    "conversations": "\(models.dialogue == nil ? "-" : ConversationStoreLocation.name(location))",
                    "workers": "\(configuration.workers)",
                    "batching": "\(configuration.maxBatch > 1 ? "up to \(configuration.maxBatch) texts, window \(configuration.batchWindowMilliseconds) ms" : "off")",
                    "token": "\(configuration.token == nil ? "none" : "required")",
                ])
            }
        }
        logger.notice("stopped")
    }
}
