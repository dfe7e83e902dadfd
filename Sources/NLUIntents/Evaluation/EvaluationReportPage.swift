import Foundation

/// An ``IntentEvaluation`` as one self-contained HTML page (`nlu intents evaluate --report`), what
/// Rasa's `rasa test nlu` draws as separate images: the summary figures, the confusion matrix, the
/// per-intent precision / recall / F1 with support, a histogram of the confidence of right and wrong
/// predictions, the worst errors with their text, and, when the model extracts entities (slots), their
/// page too: per-entity scores, the per-word entity confusion matrix and the utterances with wrong
/// entities.
///
/// The page needs nothing but itself: inline CSS and SVG, no script, no URL. Every string that
/// comes from the dataset (intent and entity names, utterances) is HTML-escaped, so an utterance
/// `<script>…</script>` shows as text and never runs.
///
/// Orders, chosen so problems come first:
/// - the confusion matrices' rows and columns follow ``ConfusionMatrix/labelsByConfusion`` (the labels
///   of the largest confusion first, the never-confused labels last), the diagonal in blue, errors in
///   orange, each cell's shade its share of the row (the expected intent's utterances);
/// - the score tables list the lowest F1 first (ties by name);
/// - the worst errors are the wrong predictions made with the highest confidence
///   (``IntentEvaluation/worstErrors(limit:)``); the entity errors, the utterances with the most
///   missed and spurious entities (``EntityEvaluation/worstErrors(limit:)``).
///
///     let evaluation = classifier.evaluate(on: testSet)
///     try EvaluationReportPage(evaluation: evaluation, title: "test.json", subtitle: "car.nlumodel")
///         .write(to: URL(fileURLWithPath: "report.html"))
public struct EvaluationReportPage: Sendable {
    /// The evaluation shown (its ``IntentEvaluation/utterances`` give the histogram and the errors).
    public var evaluation: IntentEvaluation
    /// The page's heading (the test set or dataset).
    public var title: String
    /// The line under the heading (the model, or the cross-validation).
    public var subtitle: String
    /// Figures shown after the evaluation's own (the seed, the folds).
    public var facts: [ReportFact]
    /// How many of the worst errors the page lists.
    public var errorLimit = 30
    /// Bins of the confidence histogram.
    public var histogramBins = 10

    public init(evaluation: IntentEvaluation, title: String, subtitle: String, facts: [ReportFact] = []) {
        self.evaluation = evaluation
        self.title = title
        self.subtitle = subtitle
        self.facts = facts
    }

    /// The whole HTML document.
    public var html: String {
        var sections = [confusionMatrix, intentScores]
        if !evaluation.utterances.isEmpty {
            sections.append(confidenceHistogram)
            sections.append(worstErrors)
        }
        if let entities = evaluation.entities {
            sections.append(entityScores(entities))
            if !entities.utterances.isEmpty {
                sections.append(matrixSection(id: "entity-confusion", title: "Entity confusion per word", matrix: entities.wordConfusion,
                                              explanation: """
                    Rows: the entity a word is annotated with; columns: the entity it was predicted as; \
                    \(EntityEvaluation.noEntityLabel) for a word outside every entity. The largest confusions come first.
                    """))
                sections.append(entityErrors(entities))
            }
        }
        return ReportPage.document(title: title, subtitle: subtitle, facts: summary + facts, sections: sections)
    }

    /// Writes the page to `url` atomically.
    public func write(to url: URL) throws {
        try ReportPage.write(html, to: url)
    }

    // MARK: Sections

    /// The evaluation's headline figures.
    private var summary: [ReportFact] {
        var facts = [ReportFact("utterances", "\(evaluation.count)"), ReportFact("accuracy", ReportPage.percent(evaluation.accuracy)),
                     ReportFact("macro-F1", ReportPage.number(evaluation.macroF1))]
        if let recall = evaluation.outOfScopeRecall { facts.append(ReportFact("out-of-scope recall", ReportPage.percent(recall))) }
        if let accuracy = evaluation.inScopeAccuracy { facts.append(ReportFact("in-scope accuracy", ReportPage.percent(accuracy))) }
        if let threshold = evaluation.threshold { facts.append(ReportFact("threshold", ReportPage.number(Double(threshold), digits: 2))) }
        if let entities = evaluation.entities { facts.append(ReportFact("entity micro-F1", ReportPage.number(entities.microF1))) }
        if let sentence = evaluation.sentenceAccuracy { facts.append(ReportFact("intent and entities right", ReportPage.percent(sentence))) }
        return facts
    }

    private var confusionMatrix: String {
        matrixSection(id: "confusion", title: "Confusion matrix", matrix: evaluation.confusionMatrix, explanation: """
            Rows: expected intent; columns: predicted intent. The intents of the largest confusions come first; \
            a cell's shade is its share of the row.
            """)
    }

    /// A section with `matrix` drawn in ``ConfusionMatrix/labelsByConfusion`` order, then its most
    /// confused pairs (at most 10).
    private func matrixSection(id: String, title: String, matrix: ConfusionMatrix, explanation: String) -> String {
        let labels = matrix.labelsByConfusion
        var html = """
        <section id="\(id)">
        <h2>\(title)</h2>
        <p class="muted">\(explanation)</p>
        <table class="matrix">
        <tr><th class="corner">expected ↓ predicted →</th>
        """
        html += labels.map { "<th class=\"column\">\(ReportPage.escape($0))</th>" }.joined()
        html += "<th class=\"column\">total</th></tr>\n"
        for row in labels {
            let counts = labels.map { matrix.counts[row]?[$0] ?? 0 }
            let total = counts.reduce(0, +)
            html += "<tr><th class=\"row\">\(ReportPage.escape(row))</th>"
            for (column, count) in zip(labels, counts) {
                html += cell(count: count, share: total == 0 ? 0 : Double(count) / Double(total), diagonal: column == row,
                             title: "\(row) → \(column): \(count)")
            }
            html += "<td class=\"total\">\(total)</td></tr>\n"
        }
        html += "</table>\n"
        let pairs = matrix.confusedPairs.prefix(10)
        if !pairs.isEmpty {
            html += "<h2 style=\"margin-top:1em\">Most confused</h2>\n<table>\n<tr><th>count</th><th class=\"name\">expected</th><th class=\"name\">predicted</th></tr>\n"
            for pair in pairs {
                html += "<tr><td>\(pair.count)</td><td class=\"name\">\(ReportPage.escape(pair.expected))</td><td class=\"name\">\(ReportPage.escape(pair.predicted))</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html + "</section>\n"
    }

    /// One matrix cell: empty for 0, else the count on a blue (diagonal) or orange (error) shade as
    /// strong as `share`, at least faintly visible.
    private func cell(count: Int, share: Double, diagonal: Bool, title: String) -> String {
        guard count > 0 else { return "<td></td>" }
        let alpha = max(0.12, min(1, share))
        let colour = diagonal ? "47,111,208" : "232,89,12"
        let ink = alpha > 0.55 ? "color:#fff;" : ""
        return "<td style=\"\(ink)background:rgba(\(colour),\(String(format: "%.2f", alpha)))\" title=\"\(ReportPage.escape(title))\">\(count)</td>"
    }

    private var intentScores: String {
        var html = "<section id=\"intents\">\n<h2>Intents</h2>\n<p class=\"muted\">Lowest F1 first.</p>\n"
        html += scoreTable(nameHeader: "intent", rows: evaluation.perIntent.map {
            (name: $0.key, precision: $0.value.precision, recall: $0.value.recall, f1: $0.value.f1, support: $0.value.support)
        })
        return html + "</section>\n"
    }

    private func entityScores(_ entities: EntityEvaluation) -> String {
        var html = "<section id=\"entities\">\n<h2>Entities</h2>\n"
        html += "<p class=\"muted\">A predicted entity counts when its type and exact span match an annotation. "
        html += "Micro precision \(ReportPage.number(entities.microPrecision)), recall \(ReportPage.number(entities.microRecall)), "
        html += "F1 \(ReportPage.number(entities.microF1)); utterances with all entities right: \(ReportPage.percent(entities.exactUtterances)). "
        html += "Lowest F1 first.</p>\n"
        html += scoreTable(nameHeader: "entity", rows: entities.perEntity.map {
            (name: $0.key, precision: $0.value.precision, recall: $0.value.recall, f1: $0.value.f1, support: $0.value.support)
        })
        return html + "</section>\n"
    }

    /// Precision, recall, F1 (with a bar) and support per name, lowest F1 first.
    private func scoreTable(nameHeader: String, rows: [(name: String, precision: Double, recall: Double, f1: Double, support: Int)]) -> String {
        var html = "<table class=\"scores\">\n<tr><th class=\"name\">\(nameHeader)</th><th>precision</th><th>recall</th><th>F1</th><th></th><th>support</th></tr>\n"
        for row in rows.sorted(by: { $0.f1 != $1.f1 ? $0.f1 < $1.f1 : $0.name < $1.name }) {
            let width = Int((max(0, min(1, row.f1.isFinite ? row.f1 : 0)) * 120).rounded())
            html += "<tr\(row.f1 < 0.5 ? " class=\"weak\"" : "")><td class=\"name\">\(ReportPage.escape(row.name))</td>"
            html += "<td>\(ReportPage.number(row.precision))</td><td>\(ReportPage.number(row.recall))</td><td>\(ReportPage.number(row.f1))</td>"
            html += "<td class=\"name\"><span class=\"bar\" style=\"width:\(width)px\"></span></td><td>\(row.support)</td></tr>\n"
        }
        return html + "</table>\n"
    }

    private var confidenceHistogram: String {
        let histogram = ConfidenceHistogram(evaluation.utterances, bins: histogramBins)
        let confidentErrors = histogram.wrong.last ?? 0
        var html = "<section id=\"confidence\">\n<h2>Confidence of right and wrong predictions</h2>\n"
        html += "<p class=\"muted\">The confidence is the best intent's probability (also when the answer is no intent). "
        let top = histogram.bounds(of: histogram.binCount - 1).lower
        html += "Wrong predictions with confidence \(ReportPage.number(top, digits: 1)) or more: \(confidentErrors).</p>\n"
        html += ReportChart.legend(["right", "wrong"])
        html += ReportChart.histogram(histogram)
        return html + "</section>\n"
    }

    private var worstErrors: String {
        let errors = evaluation.worstErrors(limit: errorLimit)
        let wrong = evaluation.utterances.filter { !$0.isCorrect }.count
        var html = "<section id=\"errors\">\n<h2>Worst errors</h2>\n"
        guard !errors.isEmpty else { return html + "<p>No wrong predictions.</p>\n</section>\n" }
        html += "<p class=\"muted\">Wrong predictions, most confident first"
        html += (wrong > errors.count ? " (\(errors.count) of \(wrong))" : "") + ".</p>\n"
        html += "<table>\n<tr><th>confidence</th><th class=\"name\">text</th><th class=\"name\">expected</th><th class=\"name\">predicted</th></tr>\n"
        let none = IntentEvaluation.noIntentLabel
        for error in errors {
            html += "<tr><td>\(ReportPage.number(Double(error.confidence)))</td><td class=\"text\">\(ReportPage.escape(error.text))</td>"
            html += "<td class=\"name\">\(ReportPage.escape(error.expected ?? none))</td><td class=\"name\">\(ReportPage.escape(error.predicted ?? none))</td></tr>\n"
        }
        return html + "</table>\n</section>\n"
    }

    private func entityErrors(_ entities: EntityEvaluation) -> String {
        let errors = entities.worstErrors(limit: errorLimit)
        let wrong = entities.utterances.filter { $0.wrongMentionCount > 0 }.count
        var html = "<section id=\"entity-errors\">\n<h2>Entity errors</h2>\n"
        guard !errors.isEmpty else { return html + "<p>Every utterance has exactly its annotated entities.</p>\n</section>\n" }
        html += "<p class=\"muted\">Utterances whose predicted entities differ from the annotated ones, most wrong entities first"
        html += (wrong > errors.count ? " (\(errors.count) of \(wrong))" : "") + ". Missed: annotated but not predicted "
        html += "with its exact type and span; spurious: predicted but not annotated so.</p>\n"
        html += "<table>\n<tr><th class=\"name\">text</th><th class=\"name\">missed</th><th class=\"name\">spurious</th></tr>\n"
        func list(_ mentions: [EntityEvaluation.Mention], of utterance: EvaluatedEntities) -> String {
            mentions.map { "\(ReportPage.escape($0.entity)) “\(ReportPage.escape(utterance.surface(of: $0)))”" }.joined(separator: "<br>")
        }
        for error in errors {
            html += "<tr><td class=\"text\">\(ReportPage.escape(error.text))</td>"
            html += "<td class=\"name\">\(list(error.missed, of: error))</td><td class=\"name\">\(list(error.spurious, of: error))</td></tr>\n"
        }
        return html + "</table>\n</section>\n"
    }
}
