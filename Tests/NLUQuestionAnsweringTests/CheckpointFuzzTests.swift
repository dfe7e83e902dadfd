import Foundation
import NLUFuzzSupport
import NLUTestSupport
import Testing
@testable import NLUQuestionAnswering

/// Every file of a Hugging Face checkpoint that NLUKit reads as text (config.json, vocab.txt,
/// tokenizer.json, tokenizer_config.json, special_tokens_map.json), mutated: the model loads and
/// answers, or fails with an error naming that file — no trap, hang or huge allocation.
/// Also SQuAD files (`qa evaluate`), whose errors name the file.
@Suite struct CheckpointFuzzTests {
    static let cases: [(model: String, file: String)] = [
        ("bert-tiny", "config.json"), ("bert-tiny", "vocab.txt"), ("bert-tiny", "tokenizer_config.json"),
        ("bert-tiny", "special_tokens_map.json"), ("distilbert-tiny", "tokenizer.json"), ("distilbert-tiny", "config.json"),
    ]

    @Test(arguments: 0..<cases.count) func mutatedCheckpointFilesLoadOrFailNamingTheFile(_ index: Int) throws {
        let (model, file) = Self.cases[index]
        let directory = TestScratch.file("nlukit-qa-fuzz")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: QAFixtures.model(model), to: directory)
        let url = directory.appendingPathComponent(file)
        let original = Array(try Data(contentsOf: url))
        var mutator = Mutator(seed: model + "/" + file)
        for number in 0..<FuzzCases.count(default: 60) {
            try Data(file.hasSuffix(".json") ? mutator.mutateJSON(original) : mutator.mutate(original)).write(to: url)
            let problem = FuzzCases.check({
                let answerer = try QuestionAnswerer(modelDirectory: directory)
                _ = try answerer.answers(to: "Who jumped?", in: "The quick brown fox jumps over the lethargic dog.",
                                         options: AnswerOptions(topK: 2))
            }, naming: file)
            if let problem { Issue.record("\(model)/\(file) case \(number): \(problem)") }
        }
    }

    @Test func mutatedSQuADFilesLoadOrFailNamingTheFile() throws {
        let original = Array(try Data(contentsOf: QAFixtures.directory.appendingPathComponent("squad-v2.json")))
        let url = TestScratch.file("nlukit-fuzz-squad", extension: "json")
        defer { try? FileManager.default.removeItem(at: url) }
        var mutator = Mutator(seed: "squad-v2.json")
        for number in 0..<FuzzCases.count(default: 200) {
            try Data(mutator.mutateJSON(original)).write(to: url)
            if let problem = FuzzCases.check({ _ = try SQuADDataset(contentsOf: url) }, naming: url.lastPathComponent) {
                Issue.record("case \(number): \(problem)")
            }
        }
    }
}
