import Foundation
import NLUTestSupport
import Testing

/// `--report FILE.html` of `nlu intents evaluate`, `nlu intents train` and `nlu lm train`: the page is
/// written, shows the dataset's intents, and replaces only an earlier report page unless `--force`.
@Suite struct ReportPageCommandTests {
    static let repository = fixturesDirectory.deletingLastPathComponent().deletingLastPathComponent()
    static let sample = repository.appendingPathComponent("Samples/intents/car-dashboard.json").path
    static let corpus = repository.appendingPathComponent("Samples/lm/garden.txt").path
    static let fast = ["--epochs", "3", "--hidden", "16"]
    static let mark = "<!DOCTYPE html>\n<!-- Written by nlu: NLUKit report page -->\n"

    /// The intent names of the sample, read from the Watson workspace itself.
    func sampleIntents() throws -> [String] {
        let workspace = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Self.sample))) as? [String: Any]
        return ((workspace?["intents"] as? [[String: Any]]) ?? []).compactMap { $0["intent"] as? String }
    }

    @Test func crossValidationWritesThePageWithEveryIntent() throws {
        let directory = try TestScratch.folder("nlu-report-cli")
        let page = directory.appendingPathComponent("report.html")
        let run = try runNLU(["intents", "evaluate", Self.sample, "--folds", "2", "--report", page.path, "--json"] + Self.fast)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("report written: \(page.path)"))
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix(Self.mark))
        let intents = try sampleIntents()
        #expect(intents.count == 11)
        let columns = Set(html.matches(of: /<th class="column">([^<]*)<\/th>/).map { String($0.1) })
        for intent in intents { #expect(columns.contains(intent), "\(intent)") }
        // The page's figures are the printed report's.
        let report = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        let accuracy = try #require(report["accuracy"] as? Double)
        #expect(html.contains("<div class=\"value\">\(String(format: "%.1f %%", accuracy * 100))</div><div class=\"name\">accuracy</div>"))
        #expect(html.contains("<div class=\"value\">399</div><div class=\"name\">utterances</div>"))
        #expect(html.contains("id=\"entities\""))  // the sample annotates entities
        #expect(!html.contains("http:") && !html.contains("https:"))

        // Its own page is replaced on a second run; a file nlu did not write is refused, then forced.
        let again = try runNLU(["intents", "evaluate", Self.sample, "--folds", "2", "--report", page.path] + Self.fast)
        #expect(again.status == 0, "\(again.stderr)")
        let notes = directory.appendingPathComponent("notes.html")
        try Data("<p>my notes</p>\n".utf8).write(to: notes)
        let refused = try runNLU(["intents", "evaluate", Self.sample, "--folds", "2", "--report", notes.path] + Self.fast)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("notes.html: holds a file that is not an nlu report page (HTML) written by nlu"), "\(refused.stderr)")
        #expect(!refused.stderr.contains("fold 1/2"))  // refused before any work
        #expect(try String(contentsOf: notes, encoding: .utf8) == "<p>my notes</p>\n")
        let forced = try runNLU(["intents", "evaluate", Self.sample, "--folds", "2", "--report", notes.path, "--force"] + Self.fast)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(try String(contentsOf: notes, encoding: .utf8).hasPrefix(Self.mark))
    }

    @Test func aModelOnATestSetGetsThePageAndTheReportCannotBeAnInput() throws {
        let directory = try TestScratch.folder("nlu-report-cli")
        let model = directory.appendingPathComponent("car.nlumodel").path
        let trainingPage = directory.appendingPathComponent("training.html")
        let train = try runNLU(["intents", "train", Self.sample, "-o", model, "--report", trainingPage.path] + Self.fast)
        #expect(train.status == 0, "\(train.stderr)")
        let training = try String(contentsOf: trainingPage, encoding: .utf8)
        #expect(training.hasPrefix(Self.mark))
        #expect(training.contains("<h2>Loss per epoch</h2>"))
        #expect(training.contains("<h2>Validation accuracy per epoch</h2>"))
        #expect(training.matches(of: /<tr><td class="name">\d+( \(kept\))?<\/td>/).count >= 3 * 2)  // 3 epochs, two tables

        let page = directory.appendingPathComponent("test.html")
        let run = try runNLU(["intents", "evaluate", "--model", model, Self.sample, "--report", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try String(contentsOf: page, encoding: .utf8).contains("nlu intents evaluate --model"))

        let overInput = try runNLU(["intents", "evaluate", "--model", model, Self.sample, "--report", Self.sample])
        #expect(overInput.status != 0)
        let empty = try runNLU(["intents", "evaluate", "--model", model, Self.sample, "--report", ""])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("--report is empty"), "\(empty.stderr)")
    }

    @Test func languageModelTrainingWritesItsCurves() throws {
        let directory = try TestScratch.folder("nlu-report-cli")
        let page = directory.appendingPathComponent("lm.html")
        let run = try runNLU(["lm", "train", Self.corpus, "-o", directory.appendingPathComponent("garden.nlumodel").path,
                              "--layers", "1", "--hidden", "16", "--embedding", "8", "--epochs", "2", "--batch-size", "8",
                              "--sequence-length", "10", "--report", page.path])
        #expect(run.status == 0, "\(run.stderr)")
        let html = try String(contentsOf: page, encoding: .utf8)
        #expect(html.hasPrefix(Self.mark))
        #expect(html.contains("<h2>Training loss per epoch</h2>"))
        #expect(html.contains("<h2>Validation perplexity per epoch</h2>"))
        #expect(html.contains("<div class=\"value\">2</div><div class=\"name\">epochs</div>"))
    }
}
