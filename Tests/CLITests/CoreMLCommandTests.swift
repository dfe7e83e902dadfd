import Foundation
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
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("nlukit-coreml-input-\(UUID()).json")
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
