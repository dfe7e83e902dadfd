import Foundation
import NLUTestSupport
import Testing

/// `nlu coreml info` and `nlu coreml predict` on the coremltools-written fixtures (scripts/fixtures/coreml.py).
@Suite struct CoreMLCommandTests {
    let classifier = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path

    private func fixtureCases(_ name: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: fixturesDirectory.appendingPathComponent("coreml/\(name).json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    @Test func infoListsFeaturesLayersAndMetadata() throws {
        let result = try runNLU(["coreml", "info", classifier])
        #expect(result.status == 0)
        #expect(result.stdout == """
            \(classifier): neuralNetworkClassifier (Core ML specification version 1)
            inputs:
              embeddings  float32 tensor [8]
            outputs:
              entities  string→double dictionary
              label     string
            layers: 4 (innerProduct 2, activation 1, softmax 1)
            metadata:
              author: NLUKit fixtures
              shortDescription: SwiftNLC-like intent classifier
              vocabulary: bag-of-words-8

            """)
    }

    @Test func infoJSONGivesShapes() throws {
        let result = try runNLU(["coreml", "info", "--json", fixturesDirectory.appendingPathComponent("coreml/bert_qa.mlmodel").path])
        #expect(result.status == 0)
        let info = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let inputs = try #require(info["inputs"] as? [[String: Any]])
        #expect(inputs.map { $0["name"] as? String } == ["wordIDs", "wordTypes"])
        #expect(inputs.first?["shape"] as? [Int] == [1, 12])
        #expect(inputs.first?["type"] as? String == "int32")
        #expect((info["layers"] as? [String: Int])?["layerNormalization"] == 5)
    }

    @Test func predictPrintsClassifierLabelAndProbabilities() throws {
        let fixture = try #require(try fixtureCases("dense_classifier").first)
        let input = String(decoding: try JSONSerialization.data(withJSONObject: try #require(fixture["inputs"])), as: UTF8.self)
        let result = try runNLU(["coreml", "predict", classifier, "--input", input])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let outputs = try #require(printed["outputs"] as? [String: Any])
        let expected = try #require(fixture["outputs"] as? [String: Any])
        #expect(outputs["label"] as? String == expected["label"] as? String)
        let probabilities = try #require(outputs["entities"] as? [String: Double])
        for (label, value) in try #require(expected["entities"] as? [String: Double]) {
            #expect(abs((probabilities[label] ?? .nan) - value) <= 1e-4)
        }
    }

    @Test func predictReadsInputFromAFile() throws {
        let fixture = try #require(try fixtureCases("bert_qa").first)
        let url = TestScratch.file("nlukit-coreml-input", extension: "json")
        try JSONSerialization.data(withJSONObject: try #require(fixture["inputs"])).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let result = try runNLU(["coreml", "predict", fixturesDirectory.appendingPathComponent("coreml/bert_qa.mlmodel").path,
                                 "--input", "@" + url.path])
        #expect(result.status == 0, "\(result.stderr)")
        let printed = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let outputs = try #require(printed["outputs"] as? [String: Any])
        let start = try #require((outputs["startLogits"] as? [[Double]])?.first)
        let expected = try #require(((fixture["outputs"] as? [String: Any])?["startLogits"] as? [[Double]])?.first)
        #expect(start.count == 12)
        #expect(zip(start, expected).allSatisfy { abs($0 - $1) <= 1e-4 })
    }

    @Test func errorsNameTheProblemAndExitOne() throws {
        let missing = try runNLU(["coreml", "info", "/nonexistent/model.mlmodel"])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("cannot read '/nonexistent/model.mlmodel': no such file"))

        let wrongShape = try runNLU(["coreml", "predict", classifier, "--input", #"{"embeddings": [1, 2, 3]}"#])
        #expect(wrongShape.status == 1)
        #expect(wrongShape.stderr.contains("input feature 'embeddings' has shape [3], expected [8]"))

        let twoRows = try runNLU(["coreml", "predict", classifier, "--input", #"{"embeddings": [[[1, 2, 3, 4, 5, 6, 7, 8]], [[1, 2, 3, 4, 5, 6, 7, 8]]]}"#])
        #expect(twoRows.status == 1)
        #expect(twoRows.stderr.contains("input feature 'embeddings': shape [2, 1, 8] holds 2 rows, but the classifier makes one prediction from one row: expected shape [8]"))
        #expect(!twoRows.stderr.contains("invalid model"))

        let unknown = try runNLU(["coreml", "predict", classifier, "--input", #"{"embedding": [1]}"#])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("the model has no input 'embedding' (inputs: embeddings)"))
    }

    @Test func missingInputOptionIsUsageError() throws {
        let result = try runNLU(["coreml", "predict", classifier])
        #expect(result.status == 2)
        #expect(result.stderr.contains("--input"))
    }
}

/// `nlu qa ask --model FILE.mlmodel`: a BERT QA model from coremltools' PyTorch converter
/// (scripts/fixtures/coreml_converted_bert.py) answers through the same windows and span decoding as a checkpoint.
@Suite struct CoreMLQuestionAnsweringCommandTests {
    static let model = fixturesDirectory.appendingPathComponent("coreml/bert_qa_converted.mlmodel").path
    static let checkpoint = fixturesDirectory.appendingPathComponent("coreml/bert_qa_converted").path

    static func pipelineCases() throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: checkpoint).appendingPathComponent("answers.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
    }

    @Test func coreMLModelGivesThePipelinesAnswersOfTheSameWeights() throws {
        // Each question's window fills the model's 32 positions exactly, so the converted model (no attention
        // mask) and transformers' pipeline on the checkpoint with the same weights see the same tokens.
        for item in try Self.pipelineCases() {
            let question = try #require(item["question"] as? String), document = try #require(item["document"] as? String)
            let expected = try #require(item["answers"] as? [[String: Any]])
            let run = try runNLU(["qa", "ask", "--model", Self.model, "--vocab", Self.checkpoint + "/vocab.txt",
                                  "--question", question, "--context", document, "--top-k", "3", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            let answers = try Self.answers(run.stdout)
            #expect(answers.map { $0["answer"] as? String } == expected.map { $0["text"] as? String }, "\(question)")
            #expect(answers.map { $0["start"] as? Int } == expected.map { $0["start"] as? Int })
            for (actual, wanted) in zip(answers, expected) {
                let score = actual["score"] as? Double ?? -1, reference = wanted["score"] as? Double ?? 1
                #expect(abs(score - reference) <= 1e-4 * reference, "\(question): score \(score) vs \(reference)")
            }
            // The checkpoint of the same weights answers the same through the safetensors path.
            let viaCheckpoint = try runNLU(["qa", "ask", "--model", Self.checkpoint, "--question", question,
                                            "--context", document, "--top-k", "3", "--json"])
            let checkpointAnswers = try Self.answers(viaCheckpoint.stdout)
            #expect(checkpointAnswers.map { $0["answer"] as? String } == answers.map { $0["answer"] as? String })
            for (a, b) in zip(checkpointAnswers, answers) {
                let x = a["score"] as? Double ?? -1, y = b["score"] as? Double ?? 1
                #expect(abs(x - y) <= 1e-4 * y)
            }
        }
    }

    static func answers(_ json: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        return try #require(object["answers"] as? [[String: Any]])
    }

    @Test func longDocumentsAreReadInPaddedWindowsOfTheModelsLength() throws {
        let cases = try Self.pipelineCases()
        let document = cases.compactMap { $0["document"] as? String }.joined(separator: " . ")
        let run = try runNLU(["qa", "ask", "--model", Self.model, "--vocab", Self.checkpoint + "/vocab.txt",
                              "--question", "who fed the cat ?", "--context", document, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let answer = try #require((object["answers"] as? [[String: Any]])?.first)
        let start = try #require(answer["start"] as? Int), end = try #require(answer["end"] as? Int)
        let scalars = Array(document.unicodeScalars)
        #expect(0 <= start && start < end && end <= scalars.count)
        #expect(answer["answer"] as? String == String(String.UnicodeScalarView(scalars[start..<end])))
        // A window longer than the file's fixed input is refused, naming the flag.
        let tooLong = try runNLU(["qa", "ask", "--model", Self.model, "--vocab", Self.checkpoint + "/vocab.txt",
                                  "--question", "who ?", "--context", document, "--max-seq-length", "64"])
        #expect(tooLong.status != 0)
        #expect(tooLong.stderr.contains("32"), "\(tooLong.stderr)")
    }

    @Test func missingVocabularyAndNonQAModelsAreClearErrors() throws {
        let scratch = try TestScratch.folder("nlu-coreml-qa")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let copy = scratch.appendingPathComponent("model.mlmodel")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.model), to: copy)
        let noVocabulary = try runNLU(["qa", "ask", "--model", copy.path, "--question", "who ?", "--context", "alice fed the cat"])
        #expect(noVocabulary.status == 1)
        #expect(noVocabulary.stderr.contains("vocab.txt") && noVocabulary.stderr.contains("--vocab"), "\(noVocabulary.stderr)")

        let classifier = fixturesDirectory.appendingPathComponent("coreml/dense_classifier.mlmodel").path
        let notQA = try runNLU(["qa", "ask", "--model", classifier, "--vocab", Self.checkpoint + "/vocab.txt",
                                "--question", "who ?", "--context", "alice fed the cat"])
        #expect(notQA.status == 1)
        #expect(notQA.stderr.contains("wordIDs") && notQA.stderr.contains("dense_classifier.mlmodel"), "\(notQA.stderr)")

        let vocabularyWithCheckpoint = try runNLU(["qa", "ask", "--model", Self.checkpoint, "--vocab", "x.txt",
                                                   "--question", "who ?", "--context", "alice"])
        #expect(vocabularyWithCheckpoint.status == 2)
    }
}
