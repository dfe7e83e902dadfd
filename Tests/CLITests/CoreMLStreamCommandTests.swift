#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import NLUTestSupport
import Testing

/// `nlu coreml` given a model through a pipe (it said "input/output error") and an input nested 100,000 levels deep.
@Suite struct CoreMLStreamCommandTests {
    let classifier = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path

    /// `coreml info` on a FIFO another thread writes the fixture into: a stream, as `cat model | nlu coreml info
    /// /dev/stdin` gives it (the same code reads both).
    @Test func infoReadsAModelFromAPipe() throws {
        let fifo = TestScratch.file("nlukit-model", extension: "fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { try? FileManager.default.removeItem(atPath: fifo) }
        let model = try Data(contentsOf: URL(fileURLWithPath: classifier))
        // Opening a FIFO for writing waits for its reader, so the writer runs apart.
        Thread.detachNewThread {
            guard let writer = FileHandle(forWritingAtPath: fifo) else { return }
            writer.write(model)
            try? writer.close()
        }
        let run = try runNLU(["coreml", "info", fifo])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("\(fifo): neuralNetworkClassifier (Core ML specification version 1)\n"), "\(run.stdout)")
        #expect(run.stdout.contains("layers: 4 (innerProduct 2, activation 1, softmax 1)"))
    }

    @Test func deeplyNestedInputNamesTheFeature() throws {
        let url = TestScratch.file("nlukit-deep", extension: "json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data((#"{"embeddings": "# + String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000) + "}").utf8).write(to: url)
        let run = try runNLU(["coreml", "predict", classifier, "--input", "@" + url.path])
        #expect(run.status == 1)
        #expect(run.stderr == "Error: input 'embeddings': arrays or objects nested deeper than 16 levels\n", "\(run.stderr)")
    }
}
