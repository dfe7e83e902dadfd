import Foundation
@testable import NLUEmbeddings
import NLUText
@testable import NLUServer

/// A tokenizer that records the texts it tokenizes, passing each to the model's own tokenizer, and
/// can hold the thread tokenizing one text until the test releases it: what a route tokenized and
/// how many times, and a worker kept busy for exactly as long as a test needs, without timing either.
final class TokenizerProbe: EncoderTokenizer, @unchecked Sendable {
    private let wrapped: any EncoderTokenizer
    private let heldText: String?
    private let lock = NSLock()
    private var tokenized: [String] = []   // guarded by `lock`
    private let holding = DispatchSemaphore(value: 0)
    private let release = DispatchSemaphore(value: 0)

    /// Wraps `tokenizer`; a thread tokenizing `heldText` waits in ``tokenize(_:)`` until ``releaseHeld()``
    /// (or ``bound``, so that a server that wrongly waits for it is answered late instead of never).
    init(wrapping tokenizer: any EncoderTokenizer, holding heldText: String? = nil) {
        wrapped = tokenizer
        self.heldText = heldText
    }

    /// The texts tokenized so far, in order.
    var texts: [String] { lock.withLock { tokenized } }

    /// How long a wait here lasts at most. The held request reaches the tokenizer through threads of its
    /// own (the client's, the server's, the inference workers), never the concurrency pool that the suite's
    /// synchronous tests may hold for minutes; a test holds the worker only for a few requests of its own.
    static let bound = 60

    /// Waits until a thread is held tokenizing the held text, blocking the calling thread (off the
    /// pool: in ``offThePool(_:)``, with the request sent from a ``StartedThread``); throws after
    /// ``bound`` seconds (the request never reached the tokenizer) instead of hanging the test.
    func waitUntilHolding() throws {
        guard holding.wait(timeout: .now() + .seconds(Self.bound)) == .success else {
            throw RawHTTPError(description: "no thread tokenized \(heldText ?? "") within \(Self.bound) s")
        }
    }

    /// Lets the held thread go on.
    func releaseHeld() {
        release.signal()
    }

    /// Sends the held text to `/embed` on the server at `port`, waits until its worker is held, runs
    /// `whileHeld`, then lets the worker go on: `whileHeld`'s result and the held request's answer. Blocks the
    /// calling thread throughout, so call it in ``offThePool(_:)``: nothing between the hold and its release
    /// then waits for a thread of the concurrency pool, which other tests may hold for longer than ``bound``.
    func holdingAWorker<T>(port: Int, while whileHeld: () throws -> T) throws -> (T, held: RawHTTPResponse) {
        // The held request's reads wait out the hold as well as its own answer.
        let body = try jsonString(["inputs": heldText ?? ""])
        let held = StartedThread { try blockingRequest(port: port, "POST", "/embed", json: body, readTimeout: Double(2 * Self.bound)) }
        let outcome = Result { try waitUntilHolding(); return try whileHeld() }
        releaseHeld()
        let value = try outcome.get()
        return (value, try held.join())
    }

    func tokenize(_ text: String) -> TokenizedSequence {
        lock.withLock { tokenized.append(text) }
        if text == heldText {
            holding.signal()
            _ = release.wait(timeout: .now() + .seconds(Self.bound))
        }
        return wrapped.tokenize(text)
    }

    var clsID: Int32 { wrapped.clsID }
    var sepID: Int32 { wrapped.sepID }
    var padID: Int32 { wrapped.padID }
    func token(for id: Int32) -> String? { wrapped.token(for: id) }

    /// The fixture models (intents and embeddings) with the embedder's tokenizer probed.
    static func servedModels(holding heldText: String? = nil) throws -> (ServedModels, TokenizerProbe) {
        let fixtures = try Fixtures.models()
        guard var embedder = fixtures.embeddings else { throw RawHTTPError(description: "the fixtures serve no embeddings model") }
        let probe = TokenizerProbe(wrapping: embedder.tokenizer, holding: heldText)
        embedder.tokenizer = probe
        return (ServedModels(intents: fixtures.intents, intentsPath: "intents-test",
                             embeddings: embedder, embeddingsPath: "embeddings/minilm-tiny"), probe)
    }
}
