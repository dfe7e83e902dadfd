import Foundation
import NLUTestSupport
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// End-to-end tests of `nlu serve`: the real binary, on an ephemeral loopback port.
@Suite struct ServeCommandTests {
    static let qaModel = fixturesDirectory.appendingPathComponent("qa/distilbert-tiny").path

    /// A running `nlu serve`, its port read from the start line on stderr.
    final class ServeProcess: @unchecked Sendable {
        let process = Process()
        // Guarded by `reading`.
        private let reading = NSCondition()
        private var stderrText = ""
        private var paused = false
        private let stderrPipe = Pipe()
        /// Signalled when the reader has read the end of stderr (the server and its descriptors are gone).
        private let readToEnd = DispatchSemaphore(value: 0)

        init(_ arguments: [String], environment: [String: String]? = nil) throws {
            process.executableURL = productsDirectory.appendingPathComponent("nlu")
            process.arguments = ["serve"] + arguments
            if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
            process.standardError = stderrPipe
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            // A thread of its own reads until the end, so that `wait` returns only once every line the server
            // wrote before it ended is here (a readability handler dropped at exit lost the pipe's last 64 KiB).
            let handle = stderrPipe.fileHandleForReading
            Thread.detachNewThread { [self] in
                while true {
                    reading.lock()
                    while paused { reading.wait() }
                    reading.unlock()
                    let data = handle.availableData
                    if data.isEmpty { break }
                    reading.lock()
                    stderrText += String(decoding: data, as: UTF8.self)
                    reading.unlock()
                }
                readToEnd.signal()
            }
        }

        /// Leaves stderr unread, as a supervisor that stopped reading does: the pipe fills (after at most the
        /// one read already waiting).
        func stopReadingStderr() {
            reading.lock()
            paused = true
            reading.unlock()
        }

        /// Reads stderr again as it arrives.
        func resumeReadingStderr() {
            reading.lock()
            paused = false
            reading.broadcast()
            reading.unlock()
        }

        var stderr: String {
            reading.lock()
            defer { reading.unlock() }
            return stderrText
        }

        /// The port from `url=http://127.0.0.1:PORT` in the start line (nil if it never comes).
        func port(within seconds: Double = 60) -> Int? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline, process.isRunning {
                if let range = stderr.range(of: #"url=http://127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
                    return Int(stderr[range].split(separator: ":").last ?? "")
                }
                Thread.sleep(forTimeInterval: 0.02)
            }
            return nil
        }

        /// Waits for the process to end (killing it after `seconds`) and returns its status.
        func wait(seconds: Double = 30) -> Int32 {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
            resumeReadingStderr()
            _ = readToEnd.wait(timeout: .now() + 10)
            return process.terminationStatus
        }
    }

    /// POST `body` to 127.0.0.1:`port``path`; the status and the body.
    static func post(_ port: Int, _ path: String, _ body: String, timeout: Double = 30) throws -> (Int, String) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!, timeoutInterval: timeout)
        request.httpMethod = body.isEmpty ? "GET" : "POST"
        if !body.isEmpty { request.httpBody = Data(body.utf8) }
        let done = DispatchSemaphore(value: 0)
        final class Box: @unchecked Sendable { var result: (Int, String)?; var error: (any Error)? }
        let box = Box()
        URLSession.shared.dataTask(with: request) { data, response, error in
            box.error = error
            if let response = response as? HTTPURLResponse {
                box.result = (response.statusCode, String(decoding: data ?? Data(), as: UTF8.self))
            }
            done.signal()
        }.resume()
        done.wait()
        if let error = box.error { throw error }
        return try #require(box.result)
    }

    @Test func servesLogsEachRequestAndStopsCleanlyOnSIGTERMAfterInFlightRequests() throws {
        let server = try ServeProcess(["--qa", Self.qaModel, "--port", "0", "--workers", "1"])
        let port = try #require(server.port(), "no start line: \(server.stderr)")
        #expect(server.stderr.contains("question-answering \(Self.qaModel)"))
        #expect(try Self.post(port, "/health", "").0 == 200)
        // An idle kept-alive connection and half a request head: closed at once on SIGTERM.
        let idle = try RawHTTPConnection(port: port, readTimeout: 20)
        idle.sendRequest("GET", "/health", close: false)
        #expect(try idle.readResponse().status == 200)
        let halfHead = try RawHTTPConnection(port: port, readTimeout: 20)
        halfHead.send("POST /question-answering HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Ty")

        // A long request in flight when SIGTERM arrives must still be answered.
        let context = String(repeating: "Alice went to Paris on Monday with her friend Bob. ", count: 30)
        let body = String(decoding: try JSONSerialization.data(withJSONObject: ["question": "Who went to Paris?", "context": context]), as: UTF8.self)
        final class Outcome: @unchecked Sendable { var status = 0 }
        let outcome = Outcome()
        let answered = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            outcome.status = (try? Self.post(port, "/question-answering", body).0) ?? -1
            answered.signal()
        }
        // SIGTERM once the request has reached its worker (the queue-depth gauge says so).
        for _ in 0..<500 {
            let metrics = try Self.post(port, "/metrics", "").1
            let depth = metrics.split(separator: "\n").first { $0.hasPrefix("nlu_inference_queue_depth ") }
            if let depth, let value = Double(depth.split(separator: " ").last ?? ""), value >= 1 { break }
            Thread.sleep(forTimeInterval: 0.01)
        }
        kill(server.process.processIdentifier, SIGTERM)
        #expect(idle.waitForClose())
        #expect(halfHead.waitForClose())
        answered.wait()
        #expect(outcome.status == 200)
        #expect(server.wait() == 0)
        let log = server.stderr
        #expect(log.contains("method=GET") && log.contains("path=/health") && log.contains("status=200"))
        #expect(log.contains("path=/question-answering"))
        #expect(log.contains("stopped"))
    }

    /// SIGTERM ends the server within its grace period even with a client that sent a request head
    /// and half its body, then stalled: that request is answered 503 when the grace period ends.
    /// (It held the process for the whole --timeout, 30 s, and then got 408.) `--timeout` here is far beyond
    /// the bounded waits, so the answer and the exit can only come from the grace period.
    @Test func sigtermAnswersAStalledBody503WhenTheGracePeriodEnds() throws {
        let server = try ServeProcess(["--qa", Self.qaModel, "--port", "0", "--grace-period", "0.5", "--timeout", "3600"])
        let port = try #require(server.port(), "no start line: \(server.stderr)")
        let stalled = try RawHTTPConnection(port: port, readTimeout: 120)
        stalled.send("POST /question-answering HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"question\": ")
        #expect(try Self.post(port, "/health", "").0 == 200)
        Thread.sleep(forTimeInterval: 0.2)   // the stalled head read (else it is half a head, closed at once)
        kill(server.process.processIdentifier, SIGTERM)
        let refused = try stalled.readResponse()
        #expect(refused.status == 503)
        #expect(refused.object?["error"] as? String == "stopping")
        #expect(refused.text.contains("--grace-period of 0.5 seconds"), "\(refused.text)")
        #expect(refused.headers["connection"] == "close")
        // A hang bound, not a speed target: a server still waiting for the stalled body (--timeout) is killed at
        // the bound and its status is not 0.
        #expect(server.wait(seconds: 120) == 0, "the server did not exit after SIGTERM and its grace period: \(server.stderr)")
    }

    @Test func gracePeriodOutOfRangeIsAUsageError() throws {
        let negative = try runNLU(["serve", "--qa", Self.qaModel, "--grace-period=-1"])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--grace-period: expected 0 ... 86400 seconds, got -1.0"))
    }

    @Test func modelThatFailsToLoadIsNamedAndNothingIsBound() throws {
        let run = try runNLU(["serve", "--intents", "/nonexistent/car.nlumodel", "--port", "0"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("cannot load the intents model /nonexistent/car.nlumodel: no such file or directory"))
        #expect(!run.stderr.contains("url="))
        let notAModel = try runNLU(["serve", "--qa", fixturesDirectory.appendingPathComponent("intents").path, "--port", "0"])
        #expect(notAModel.status == 1)
        #expect(notAModel.stderr.contains("cannot load the question-answering model \(fixturesDirectory.appendingPathComponent("intents").path)"))
    }

    /// `--qa` and `--embed` take a Hugging Face id found in the cache, as every other `--model` does;
    /// one that is not cached is named with where it was looked for.
    @Test func hubIdsAreServedFromTheCache() throws {
        let cache = try makeHubCache(holding: "acme/tiny-qa", at: Self.qaModel)
        defer { try? FileManager.default.removeItem(at: cache) }
        let environment = ["HF_HUB_CACHE": cache.path]

        let server = try ServeProcess(["--qa", "acme/tiny-qa", "--port", "0"], environment: environment)
        let port = try #require(server.port())
        let (status, body) = try Self.post(port, "/question-answering",
                                           #"{"inputs": {"question": "Who jumped?", "context": "The fox jumped."}}"#)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.wait() == 0)
        #expect(status == 200, "\(body)")
        #expect(body.contains("\"answer\""))

        let missing = try runNLU(["serve", "--embed", "acme/other", "--port", "0"], environment: environment)
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot load the embeddings model acme/other: acme/other: not a local directory, and not in the Hugging Face cache"))
    }

    /// `--qa` takes what `nlu qa ask --model` takes, a Core ML `.mlmodel` with its vocabulary included, and
    /// `--precision` as `qa ask` has it: the server answers what `qa ask` answers with the same options.
    @Test func servesWhatQAAskLoadsWithTheSameOptions() throws {
        let model = CoreMLQuestionAnsweringCommandTests.model
        let vocabulary = CoreMLQuestionAnsweringCommandTests.checkpoint + "/vocab.txt"
        let item = try #require(try CoreMLQuestionAnsweringCommandTests.pipelineCases().first)
        let question = try #require(item["question"] as? String), context = try #require(item["document"] as? String)
        let cases = [(serve: ["--qa", model, "--qa-vocab", vocabulary], ask: ["--model", model, "--vocab", vocabulary]),
                     (serve: ["--qa", Self.qaModel, "--precision", "int8"], ask: ["--model", Self.qaModel, "--precision", "int8"])]
        for (options, askOptions) in cases {
            let asked = try runNLU(["qa", "ask"] + askOptions + ["--question", question, "--context", context, "--json"])
            #expect(asked.status == 0, "\(asked.stderr)")
            let expected = try #require(try CoreMLQuestionAnsweringCommandTests.answers(asked.stdout).first)

            let server = try ServeProcess(options + ["--port", "0", "--workers", "1"])
            let port = try #require(server.port(), "no start line: \(server.stderr)")
            let body = String(decoding: try JSONSerialization.data(withJSONObject: ["question": question, "context": context]), as: UTF8.self)
            let (status, answer) = try Self.post(port, "/question-answering", body)
            kill(server.process.processIdentifier, SIGTERM)
            #expect(server.wait() == 0)
            #expect(status == 200, "\(answer)")
            let served = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            #expect(served["answer"] as? String == expected["answer"] as? String, "\(options)")
            #expect(served["start"] as? Int == expected["start"] as? Int, "\(options)")
            let score = served["score"] as? Double ?? -1, reference = expected["score"] as? Double ?? 1
            #expect(abs(score - reference) <= 1e-6 * max(1, reference), "\(options): \(score) vs \(reference)")
        }
        let vocabularyWithACheckpoint = try runNLU(["serve", "--qa", Self.qaModel, "--qa-vocab", vocabulary])
        #expect(vocabularyWithACheckpoint.status == 2)
        #expect(vocabularyWithACheckpoint.stderr.contains("--qa-vocab and --qa-cased apply to a .mlmodel --qa file"))
        let int8CoreML = try runNLU(["serve", "--qa", model, "--qa-vocab", vocabulary, "--precision", "int8", "--port", "0"])
        #expect(int8CoreML.status == 1)
        #expect(int8CoreML.stderr.contains("cannot load the question-answering model \(model)"), "\(int8CoreML.stderr)")
    }

    @Test func portInUseIsNamed() throws {
        let first = try ServeProcess(["--qa", Self.qaModel, "--port", "0"])
        let port = try #require(first.port())
        defer { first.process.terminate(); _ = first.wait() }
        let second = try runNLU(["serve", "--qa", Self.qaModel, "--port", "\(port)"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("cannot listen on 127.0.0.1:\(port): the port is already in use"))
    }

    @Test func usageErrorsExitWith2() throws {
        let nothing = try runNLU(["serve"])
        #expect(nothing.status == 2)
        #expect(nothing.stderr.contains("nothing to serve: give one or more of --intents MODEL, --qa MODEL, --embed MODEL, --dialogue DIALOGUE"))
        let badPort = try runNLU(["serve", "--qa", Self.qaModel, "--port", "99999"])
        #expect(badPort.status == 2)
        #expect(badPort.stderr.contains("--port: expected 0...65535, got 99999"))
        let badWorkers = try runNLU(["serve", "--qa", Self.qaModel, "--workers", "0"])
        #expect(badWorkers.status == 2)
        // The request limits are range-checked by ServerConfiguration and named by their flags.
        let badWindows = try runNLU(["serve", "--qa", Self.qaModel, "--max-qa-windows", "0"])
        #expect(badWindows.status == 2)
        #expect(badWindows.stderr.contains("--max-qa-windows: expected 1...100000, got 0"))
        let badTokens = try runNLU(["serve", "--qa", Self.qaModel, "--max-embed-tokens=-5"])
        #expect(badTokens.status == 2)
        #expect(badTokens.stderr.contains("--max-embed-tokens: expected 1...100000000, got -5"))
        let badLength = try runNLU(["serve", "--qa", Self.qaModel, "--max-text-length", "0"])
        #expect(badLength.status == 2)
        #expect(badLength.stderr.contains("--max-text-length: expected 1...100000000, got 0"))
        let badTexts = try runNLU(["serve", "--qa", Self.qaModel, "--max-embed-texts", "1000001"])
        #expect(badTexts.status == 2)
        #expect(badTexts.stderr.contains("--max-embed-texts: expected 1...1000000, got 1000001"))
        let badState = try runNLU(["serve", "--qa", Self.qaModel, "--max-conversation-state", "100"])
        #expect(badState.status == 2)
        #expect(badState.stderr.contains("--max-conversation-state: expected 256...67108864 bytes, got 100"))
        let help = try runNLU(["serve", "--help"])
        #expect(help.stdout.contains("--max-qa-windows <max-qa-windows>") && help.stdout.contains("--max-embed-tokens <max-embed-tokens>"))
        #expect(help.stdout.contains("--max-text-length <max-text-length>") && help.stdout.contains("--max-embed-texts <max-embed-texts>"))
    }

    /// `--max-text-length` and `--max-embed-texts` reach the server: requests over the lowered limits
    /// are refused with 422 naming the field, the limit and the flag.
    @Test func loweredTextLimitsRefuseRequestsOverThem() throws {
        let model = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path
        let server = try ServeProcess(["--embed", model, "--port", "0", "--max-text-length", "10", "--max-embed-texts", "2"])
        let port = try #require(server.port(), "no start line: \(server.stderr)")
        let long = try Self.post(port, "/embed", #"{"inputs": "eleven long"}"#)
        let many = try Self.post(port, "/v1/embeddings", #"{"input": ["a", "b", "c"]}"#)
        let within = try Self.post(port, "/v1/embeddings", #"{"input": ["a", "ten chars."]}"#)
        kill(server.process.processIdentifier, SIGTERM)
        #expect(server.wait() == 0)
        #expect(long.0 == 422)
        #expect(long.1.contains("field 'inputs': 11 characters is over this server's limit of 10 (--max-text-length)"), "\(long.1)")
        #expect(many.0 == 422)
        #expect(many.1.contains("field 'input': 3 texts is over this server's limit of 2 per request (--max-embed-texts)"), "\(many.1)")
        #expect(within.0 == 200, "\(within.1)")
    }
}
