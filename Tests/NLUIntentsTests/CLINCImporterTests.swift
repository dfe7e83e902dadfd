import Foundation
import NLUTestSupport
import Testing
@testable import NLUIntents

/// CLINC150's data JSON (github clinc/oos-eval `data/data_full.json`'s shape, a few rows written here):
/// the training rows as the dataset, `test` and `val` as their own splits, `oos` rows as counterexamples.
@Suite struct CLINCImporterTests {
    static let file = #"""
    {"oos_val": [["what is the meaning of life", "oos"]],
     "val": [["what's my balance", "balance"], ["set an alarm for 7", "alarm"]],
     "train": [["how much money do I have", "balance"], ["tell me my balance", "balance"],
               ["wake me up at six", "alarm"], ["set an alarm", "alarm"]],
     "oos_test": [["how do I bake bread", "oos"], ["who won the game", "oos"]],
     "test": [["balance please", "balance"]],
     "oos_train": [["what's a good movie", "oos"]]}
    """#

    func importing(_ text: String, options: ImportOptions = ImportOptions()) throws -> ImportResult {
        let work = try TestScratch.folder("clinc-import")
        defer { try? FileManager.default.removeItem(at: work) }
        let url = work.appendingPathComponent("data_full.json")
        try Data(text.utf8).write(to: url)
        return try IntentImporter.importDataset(from: url, options: options)
    }

    @Test func trainingValidationAndTestSplitsApart() throws {
        let result = try importing(Self.file)
        #expect(result.format == .clinc)
        #expect(result.dataset.intents.map(\.name) == ["balance", "alarm"])
        #expect(result.dataset.intents.map(\.utterances.count) == [2, 2])
        #expect(result.dataset.counterexamples.map(\.text) == ["what's a good movie"])
        let test = try #require(result.testDataset)
        #expect(test.intents.map(\.name) == ["balance"] && test.counterexamples.count == 2)
        let validation = try #require(result.validationDataset)
        #expect(validation.intents.map(\.name) == ["balance", "alarm"])
        #expect(validation.counterexamples.map(\.text) == ["what is the meaning of life"])
        // With another out-of-scope label, `oos` is an intent like the others.
        let kept = try importing(Self.file, options: ImportOptions(outOfScopeLabels: ["none"]))
        #expect(kept.dataset.intents.map(\.name) == ["balance", "alarm", "oos"] && kept.dataset.counterexamples.isEmpty)
    }

    @Test func aFileWithoutHeldOutSplitsHasNone() throws {
        let result = try importing(#"{"train": [["hi", "greet"], ["bye", "leave"]]}"#)
        #expect(result.format == .clinc && result.testDataset == nil && result.validationDataset == nil)
    }

    @Test func badFilesAreNamedWithTheRow() throws {
        let work = "data_full.json"
        let short = #"{"train": [["hi", "greet"], ["bye", "leave"]], "val": [["only text"]]}"#
        #expect { try importing(short, options: ImportOptions(format: .clinc)) } throws: { error in
            "\(error)".contains(work) && "\(error)".contains("'val'[0]: expected a [text, intent] pair, found 1 string")
        }
        let unknown = #"{"train": [["hi", "greet"], ["bye", "leave"]], "dev": []}"#
        #expect { try importing(unknown, options: ImportOptions(format: .clinc)) } throws: { error in
            "\(error)".contains("unknown split 'dev'")
        }
        // Not detected as CLINC150 with a key it does not have.
        #expect { try importing(unknown) } throws: { error in "\(error)".contains("use --format") }
        #expect { try importing(#"{"train": [], "test": [["hi", "greet"]]}"#, options: ImportOptions(format: .clinc)) } throws: { error in
            "\(error)".contains("no utterance in 'train'")
        }
        #expect { try importing(#"{"train": [[1, "greet"]]}"#, options: ImportOptions(format: .clinc)) } throws: { error in
            "\(error)".contains(work) && "\(error)".contains("train")
        }
    }
}
