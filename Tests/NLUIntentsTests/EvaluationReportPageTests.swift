import Foundation
import NLUTestSupport
import Testing
import NLUCore
@testable import NLUIntents
import NLUInputOutput

/// The evaluation and training report pages: what they show matches the evaluation, dataset text is
/// escaped, nothing is fetched from elsewhere, and nlu recognises its own pages.
@Suite struct EvaluationReportPageTests {
    // expected:  a a a b b b c c ∅
    // predicted: a a b c c b c c a      b→c twice, a→b once, ∅→a once
    static let utterances: [EvaluatedUtterance] = [
        .init(text: "a one", expected: "a", predicted: "a", confidence: 0.95),
        .init(text: "a two", expected: "a", predicted: "a", confidence: 1.0),
        .init(text: "a three", expected: "a", predicted: "b", confidence: 0.55),
        .init(text: "b one", expected: "b", predicted: "c", confidence: 0.91),
        .init(text: "b two", expected: "b", predicted: "c", confidence: 0.30),
        .init(text: "b three", expected: "b", predicted: "b", confidence: 0.72),
        .init(text: "c one", expected: "c", predicted: "c", confidence: 0.05),
        .init(text: "c two", expected: "c", predicted: "c", confidence: 0.99),
        .init(text: "out of scope", expected: nil, predicted: "a", confidence: 0.91),
    ]
    let evaluation = IntentEvaluation(utterances: utterances, threshold: 0.2)

    /// The rows of the page's confusion matrix: label and cell texts, in page order.
    func matrixRows(_ html: String) -> [(label: String, cells: [String])] {
        guard let start = html.range(of: "<table class=\"matrix\">"),
              let end = html.range(of: "</table>", range: start.upperBound..<html.endIndex) else { return [] }
        return html[start.upperBound..<end.lowerBound].components(separatedBy: "</tr>").compactMap { row in
            guard let label = row.firstMatch(of: /<th class="row">([^<]*)<\/th>/)?.1 else { return nil }
            let cells = row.matches(of: /<td[^>]*>([^<]*)<\/td>/).map { String($0.1) }
            return (String(label), cells)
        }
    }

    @Test func theMatrixFollowsTheLargestConfusionsAndHoldsTheCounts() {
        // b→c (2) first, then a→b and (none)→a (1 each, by name: "(none)" sorts before "a").
        #expect(evaluation.labelsByConfusion == ["b", "c", "(none)", "a"])
        let rows = matrixRows(EvaluationReportPage(evaluation: evaluation, title: "t", subtitle: "s").html)
        #expect(rows.map(\.label) == ["b", "c", "(none)", "a"])
        // Columns in the same order, then the row total; an empty cell is a zero.
        #expect(rows[0].cells == ["1", "2", "", "", "3"])
        #expect(rows[1].cells == ["", "2", "", "", "2"])
        #expect(rows[2].cells == ["", "", "", "1", "1"])
        #expect(rows[3].cells == ["1", "", "", "2", "3"])
    }

    @Test func everyIntentOfATrainedModelsDatasetIsInTheMatrix() throws {
        let dataset = try IntentImporter.importDataset(from: fixture("../../../Samples/intents/car-dashboard.json")).dataset
        var options = TrainingOptions()
        options.epochs = 3
        options.hiddenSizes = [16]
        options.validationSplit = 0
        let classifier = try IntentClassifier.train(on: dataset, training: options, entities: nil)
        let evaluation = classifier.evaluate(on: dataset)
        #expect(evaluation.utterances.count == dataset.utteranceCount + dataset.counterexamples.count)
        let first = try #require(dataset.intents.first?.utterances.first)
        let prediction = classifier.predict(first.text, top: 1)
        #expect(evaluation.utterances[0].text == first.text)
        #expect(evaluation.utterances[0].confidence == prediction.confidence)
        let html = EvaluationReportPage(evaluation: evaluation, title: "car", subtitle: "").html
        let columns = Set(html.matches(of: /<th class="column">([^<]*)<\/th>/).map { String($0.1) })
        for intent in dataset.intents { #expect(columns.contains(intent.name), "\(intent.name)") }
        #expect(Set(matrixRows(html).map(\.label)) == Set(dataset.intents.map(\.name) + [IntentEvaluation.noIntentLabel]))
        #expect(!html.contains("id=\"entities\""))  // trained without entities: no entity section
    }

    @Test func scoresAndSummaryAreTheEvaluations() throws {
        let html = EvaluationReportPage(evaluation: evaluation, title: "t", subtitle: "s").html
        for (intent, scores) in evaluation.perIntent {
            let row = "<td class=\"name\">\(intent)</td>"
                + String(format: "<td>%.3f</td><td>%.3f</td><td>%.3f</td>", scores.precision, scores.recall, scores.f1)
            #expect(html.contains(row), "\(intent)")
        }
        // b: precision 1/2, recall 1/3 → F1 0.4, the lowest, listed first.
        let firstScoreRow = try #require(html.firstMatch(of: /<table class="scores">\n<tr>.*?<\/tr>\n<tr[^>]*><td class="name">([^<]*)</))
        #expect(firstScoreRow.1 == "b")
        #expect(html.contains("<div class=\"value\">55.6 %</div><div class=\"name\">accuracy</div>"))  // 5 of 9
        #expect(html.contains("<div class=\"value\">0.0 %</div><div class=\"name\">out-of-scope recall</div>"))
    }

    @Test func worstErrorsAreTheMostConfidentWrongOnes() {
        let worst = evaluation.worstErrors(limit: 3)
        // 0.91 twice: evaluation order breaks the tie.
        #expect(worst.map(\.text) == ["b one", "out of scope", "a three"])
        #expect(evaluation.worstErrors(limit: 10).count == 4)
        #expect(evaluation.worstErrors(limit: 0).isEmpty)
        let html = EvaluationReportPage(evaluation: evaluation, title: "t", subtitle: "s").html
        #expect(html.contains("<td>0.910</td><td class=\"text\">out of scope</td><td class=\"name\">(none)</td><td class=\"name\">a</td>"))
    }

    @Test func theHistogramCountsRightAndWrongByConfidence() {
        let histogram = ConfidenceHistogram(Self.utterances, bins: 10)
        // right: 0.95, 1.0, 0.72, 0.05, 0.99; wrong: 0.55, 0.91, 0.30, 0.91
        #expect(histogram.correct == [1, 0, 0, 0, 0, 0, 0, 1, 0, 3])
        #expect(histogram.wrong == [0, 0, 0, 1, 0, 1, 0, 0, 0, 2])
        let edges = ConfidenceHistogram([.init(text: "", expected: "a", predicted: "a", confidence: .nan),
                                         .init(text: "", expected: "a", predicted: "a", confidence: 1.5),
                                         .init(text: "", expected: "a", predicted: "b", confidence: -0.2),
                                         .init(text: "", expected: "a", predicted: "b", confidence: .infinity)], bins: 4)
        #expect(edges.correct == [1, 0, 0, 1])
        #expect(edges.wrong == [1, 0, 0, 1])
        let html = EvaluationReportPage(evaluation: evaluation, title: "t", subtitle: "s").html
        #expect(html.contains("<title>confidence 0.9–1.0: 3 right</title>"))
        #expect(html.contains("<title>confidence 0.9–1.0: 2 wrong</title>"))
    }

    // words:     fly to paris | fly to new  york  | book a table
    // annotated: -   -  city  | -   -  city  city  | -    -  -
    // predicted: -   -  city  | -   -  -     state | -    -  food
    static let entityUtterances: [EvaluatedEntities] = [
        .init(text: "fly to paris", expected: [.init(entity: "city", start: 7, end: 12)],
              predicted: [.init(entity: "city", start: 7, end: 12)]),
        .init(text: "fly to new york", expected: [.init(entity: "city", start: 7, end: 15)],
              predicted: [.init(entity: "state", start: 11, end: 15)]),
        .init(text: "book a table", expected: [], predicted: [.init(entity: "food", start: 7, end: 12)]),
    ]

    @Test func entityConfusionCountsWordsAndErrorsListMissedAndSpuriousEntities() throws {
        let entities = EntityEvaluation(utterances: Self.entityUtterances)
        #expect(entities.exactUtterances == 1.0 / 3)
        let matrix = entities.wordConfusion
        #expect(matrix.labels == ["city", "food", "state", "(none)"])
        #expect(matrix.counts["city"] == ["city": 1, "food": 0, "state": 1, "(none)": 1])
        #expect(matrix.counts["(none)"] == ["city": 0, "food": 1, "state": 0, "(none)": 6])
        // Three confusions of one word each, by name: "(none)" sorts before "city".
        #expect(matrix.labelsByConfusion == ["(none)", "food", "city", "state"])
        #expect(entities.worstErrors(limit: 5).map(\.text) == ["fly to new york", "book a table"])
        #expect(entities.worstErrors(limit: 1).map(\.text) == ["fly to new york"])

        var evaluation = evaluation
        evaluation.entities = entities
        let html = EvaluationReportPage(evaluation: evaluation, title: "t", subtitle: "s").html
        let section = try #require(html.range(of: "<section id=\"entity-confusion\">"))
        let rows = matrixRows(String(html[section.lowerBound...]))
        #expect(rows.map(\.label) == ["(none)", "food", "city", "state"])
        #expect(rows[0].cells == ["6", "1", "", "", "7"])
        #expect(rows[2].cells == ["1", "", "1", "1", "3"])
        #expect(html.contains("<tr><td class=\"text\">fly to new york</td><td class=\"name\">city “new york”</td>"
                              + "<td class=\"name\">state “york”</td></tr>"))
        #expect(html.contains("<tr><td class=\"text\">book a table</td><td class=\"name\"></td><td class=\"name\">food “table”</td></tr>"))
    }

    @Test func datasetTextIsEscaped() {
        let hostile = [EvaluatedUtterance(text: "<script>alert('x')</script> & \"quoted\"", expected: "<b>bold</b>",
                                          predicted: "x\" onmouseover=\"alert(1)", confidence: 0.9)]
        var evaluation = IntentEvaluation(utterances: hostile)
        evaluation.entities = EntityEvaluation(utterances: [EvaluatedEntities(
            text: hostile[0].text, expected: [.init(entity: "<img src=x>", start: 0, end: 8)], predicted: [])])
        let html = EvaluationReportPage(evaluation: evaluation, title: "<title>", subtitle: "</p>").html
        #expect(!html.contains("<script"))
        #expect(!html.contains("<b>bold"))
        #expect(!html.contains("<img"))
        #expect(!html.contains("\" onmouseover"))
        #expect(html.contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;quoted&quot;"))
        #expect(html.contains("<h1>&lt;title&gt;</h1>"))
        #expect(html.contains("id=\"entities\""))  // the entity section shows when there are entity scores
        #expect(html.contains("id=\"entity-errors\""))
        #expect(html.contains("&lt;img src=x&gt; “&lt;script&gt;”"))
    }

    @Test func pagesFetchNothing() {
        var withEntities = evaluation
        withEntities.entities = EntityEvaluation(expected: [[.init(entity: "city", start: 0, end: 3)]],
                                                 predicted: [[.init(entity: "city", start: 0, end: 3)]])
        let training = TrainingReportPage(title: "t", subtitle: "s", charts: TrainingReportPage.charts(for: Self.epochs))
        for html in [EvaluationReportPage(evaluation: withEntities, title: "t", subtitle: "s").html, training.html] {
            let lower = html.lowercased()
            for reference in ["http:", "https:", "//", "src=", "href=", "url(", "@import", "<link", "<script", "<iframe", "<img"] {
                #expect(!lower.contains(reference), "\(reference)")
            }
            #expect(html.hasPrefix(ReportPage.mark))
        }
    }

    static let epochs = [
        EpochReport(epoch: 1, trainingLoss: 2.0, validationAccuracy: 0.5, validationLoss: 1.8, isBest: true),
        EpochReport(epoch: 2, trainingLoss: 1.0, validationAccuracy: 0.75, validationLoss: 1.2, isBest: true),
        EpochReport(epoch: 3, trainingLoss: .nan, validationAccuracy: 0.7, validationLoss: 1.3, isBest: false),
        EpochReport(epoch: 4, trainingLoss: 0.4, validationAccuracy: 0.7, validationLoss: 1.4, isBest: false),
    ]

    @Test func trainingChartsMarkTheKeptEpochAndSkipNonFiniteValues() {
        let charts = TrainingReportPage.charts(for: Self.epochs)
        #expect(charts.map(\.title) == ["Loss per epoch", "Validation accuracy per epoch"])
        #expect(charts[0].markedX == 2)
        #expect(charts[0].curves.map(\.name) == ["training loss", "validation loss"])
        #expect(charts[1].curves[0].points.map(\.y) == [0.5, 0.75, 0.7, 0.7])
        let html = TrainingReportPage(title: "t", subtitle: "s", charts: charts).html
        let svg = html.matches(of: /<svg[\s\S]*?<\/svg>/).map { String($0.0) }.joined()
        #expect(!svg.lowercased().contains("nan"))
        // The NaN epoch splits the training loss into two lines of 2 and 1 points: one polyline (epochs 1-2) is drawn.
        #expect(svg.matches(of: /<polyline[^>]*stroke="#2f6fd0"/).count == 2)  // loss chart: 1-2; accuracy chart: 1-4
        #expect(html.contains("<tr><td class=\"name\">2 (kept)</td><td>1.0000</td><td>1.2000</td></tr>"))

        // Without a validation split: one chart, nothing marked.
        let plain = TrainingReportPage.charts(for: [EpochReport(epoch: 1, trainingLoss: 1, isBest: true)])
        #expect(plain.count == 1 && plain[0].markedX == nil && plain[0].curves.count == 1)
    }

    @Test func nluRecognisesItsOwnPagesOnly() throws {
        let directory = try TestScratch.folder()
        let page = directory.appendingPathComponent("report.html")
        try TrainingReportPage(title: "t", subtitle: "s", charts: []).write(to: page)
        #expect(ReportPage.outputFile.recognizes(page))
        try ReportPage.outputFile.checkReplaceable(page, force: false, remedy: "r")
        let foreign = directory.appendingPathComponent("notes.html")
        try Data("<!DOCTYPE html>\n<p>my notes</p>\n".utf8).write(to: foreign)
        #expect(!ReportPage.outputFile.recognizes(foreign))
        #expect(throws: OutputPath.Error.self) { try ReportPage.outputFile.checkReplaceable(foreign, force: false, remedy: "r") }
        try ReportPage.outputFile.checkReplaceable(foreign, force: true, remedy: "r")
    }

    @Test func theJSONFormLeavesTheUtterancesOut() throws {
        let object = try JSONSerialization.jsonObject(with: JSONEncoder().encode(evaluation)) as? [String: Any]
        #expect(object?["utterances"] == nil)
        #expect(object?["accuracy"] as? Double == evaluation.accuracy)
        #expect(object?["threshold"] != nil)
    }
}
