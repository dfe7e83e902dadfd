import Foundation
import Testing

/// `nlu serve --max-batch` and `--batch-window-ms`: range-checked by the library and named by their
/// flags (exit 2), listed in `--help`, and passed to the server (`--max-batch 1`: no batch metrics).
@Suite struct ServeBatchingOptionsTests {
    static let model = fixturesDirectory.appendingPathComponent("embeddings/minilm-tiny").path

    @Test func outOfRangeValuesExitWith2NamingTheFlag() throws {
        let noBatch = try runNLU(["serve", "--embed", Self.model, "--max-batch", "0"])
        #expect(noBatch.status == 2)
        #expect(noBatch.stderr.contains("--max-batch: expected 1...4096 texts (1: no batching across requests), got 0"), "\(noBatch.stderr)")
        let negative = try runNLU(["serve", "--embed", Self.model, "--batch-window-ms=-1"])
        #expect(negative.status == 2)
        #expect(negative.stderr.contains("--batch-window-ms: expected 0 ... 1000 milliseconds, got -1.0"), "\(negative.stderr)")
        let long = try runNLU(["serve", "--embed", Self.model, "--batch-window-ms", "5000"])
        #expect(long.status == 2)
        #expect(long.stderr.contains("--batch-window-ms: expected 0 ... 1000 milliseconds, got 5000.0"), "\(long.stderr)")
        let help = try runNLU(["serve", "--help"])
        #expect(help.stdout.contains("--max-batch <texts>") && help.stdout.contains("--batch-window-ms <ms>"))
    }

    @Test func maxBatchOneServesEachRequestAloneAndTheDefaultBatches() throws {
        for (arguments, batches) in [(["--max-batch", "1"], false), (["--batch-window-ms", "0"], true)] {
            let server = try ServeCommandTests.ServeProcess(["--embed", Self.model, "--port", "0"] + arguments)
            let port = try #require(server.port(), "no start line: \(server.stderr)")
            let answer = try ServeCommandTests.post(port, "/embed", #"{"inputs": "a sentence"}"#)
            let metrics = try ServeCommandTests.post(port, "/metrics", "")
            kill(server.process.processIdentifier, SIGTERM)
            #expect(server.wait() == 0)
            #expect(answer.0 == 200, "\(answer.1)")
            #expect(metrics.1.contains(#"nlu_encoder_batch_requests_count{task="embeddings"} 1"#) == batches, "\(arguments): \(metrics.1)")
        }
    }
}
