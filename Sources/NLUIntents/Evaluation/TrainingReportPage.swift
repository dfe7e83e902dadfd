import Foundation

/// A training run as one self-contained HTML page (`nlu intents train --report`, `nlu lm train
/// --report`): summary figures, then one line chart per quantity (training and validation loss per
/// epoch, validation accuracy or perplexity), each as inline SVG, with the kept epoch marked, and the
/// numbers in a table under each chart. Same style and guarantees as ``EvaluationReportPage``.
///
///     var page = TrainingReportPage(title: "car.json", subtitle: "nlu intents train",
///                                   charts: TrainingReportPage.charts(for: epochReports))
///     try page.write(to: URL(fileURLWithPath: "training.html"))
public struct TrainingReportPage: Sendable {
    /// One value of a curve: `x` is the epoch (or iteration), `y` the value.
    public struct Point: Sendable, Equatable {
        public var x: Double
        public var y: Double

        public init(x: Double, y: Double) {
            self.x = x
            self.y = y
        }
    }

    /// A named series of points ("training loss").
    public struct Curve: Sendable, Equatable {
        public var name: String
        public var points: [Point]

        public init(name: String, points: [Point]) {
            self.name = name
            self.points = points
        }
    }

    /// One chart: curves that share an axis (training and validation loss), what the x axis counts,
    /// and an x value to mark (the epoch whose weights were kept).
    public struct Chart: Sendable, Equatable {
        public var title: String
        public var xLabel: String
        public var curves: [Curve]
        public var markedX: Double?
        /// The text beside the mark.
        public var markLabel: String
        /// A value the y axis reaches at least (1 for an accuracy), whatever the curves' values.
        public var yAtLeast: Double?

        public init(title: String, xLabel: String = "epoch", curves: [Curve], markedX: Double? = nil, markLabel: String = "kept",
                    yAtLeast: Double? = nil) {
            self.title = title
            self.xLabel = xLabel
            self.curves = curves
            self.markedX = markedX
            self.markLabel = markLabel
            self.yAtLeast = yAtLeast
        }
    }

    /// The page's heading (the dataset or corpus).
    public var title: String
    /// The line under the heading (the command, the model's path).
    public var subtitle: String
    /// Figures shown at the top.
    public var facts: [ReportFact]
    /// The charts, in order.
    public var charts: [Chart]

    public init(title: String, subtitle: String, facts: [ReportFact] = [], charts: [Chart]) {
        self.title = title
        self.subtitle = subtitle
        self.facts = facts
        self.charts = charts
    }

    /// The charts of an intent classifier's training: training and validation loss per epoch (the
    /// kept epoch, the last best one, marked), and validation accuracy when a validation split was used.
    public static func charts(for epochs: [EpochReport]) -> [Chart] {
        let kept = epochs.last(where: \.isBest).map { Double($0.epoch) }
        var loss = [Curve(name: "training loss", points: epochs.map { Point(x: Double($0.epoch), y: Double($0.trainingLoss)) })]
        let validated = epochs.filter { $0.validationLoss != nil }
        if !validated.isEmpty {
            loss.append(Curve(name: "validation loss", points: validated.compactMap { report in
                report.validationLoss.map { Point(x: Double(report.epoch), y: Double($0)) }
            }))
        }
        var charts = [Chart(title: "Loss per epoch", curves: loss, markedX: validated.isEmpty ? nil : kept)]
        let accuracy = epochs.compactMap { report in report.validationAccuracy.map { Point(x: Double(report.epoch), y: $0) } }
        if !accuracy.isEmpty {
            charts.append(Chart(title: "Validation accuracy per epoch", curves: [Curve(name: "validation accuracy", points: accuracy)],
                                markedX: kept, yAtLeast: 1))
        }
        return charts
    }

    /// The whole HTML document.
    public var html: String {
        ReportPage.document(title: title, subtitle: subtitle, facts: facts, sections: charts.map(section))
    }

    /// Writes the page to `url` atomically.
    public func write(to url: URL) throws {
        try ReportPage.write(html, to: url)
    }

    /// A chart, its legend and its numbers (one row per x value, one column per curve).
    private func section(_ chart: Chart) -> String {
        var html = "<section class=\"chart\">\n<h2>\(ReportPage.escape(chart.title))</h2>\n"
        html += ReportChart.legend(chart.curves.map(\.name))
        html += ReportChart.lines(chart)
        let xs = Array(Set(chart.curves.flatMap { $0.points.map(\.x) }.filter(\.isFinite))).sorted()
        guard !xs.isEmpty else { return html + "</section>\n" }
        html += "<details><summary class=\"muted\">Numbers</summary>\n<table>\n<tr><th class=\"name\">\(ReportPage.escape(chart.xLabel))</th>"
        html += chart.curves.map { "<th>\(ReportPage.escape($0.name))</th>" }.joined() + "</tr>\n"
        let values = chart.curves.map { curve in
            Dictionary(curve.points.filter(\.x.isFinite).map { ($0.x, $0.y) }, uniquingKeysWith: { _, last in last })
        }
        for x in xs {
            let marked = chart.markedX == x ? " (\(ReportPage.escape(chart.markLabel)))" : ""
            html += "<tr><td class=\"name\">\(ReportChart.format(x, decimals: 0))\(marked)</td>"
            html += values.map { "<td>\($0[x].map { ReportChart.format($0, decimals: 4) } ?? "")</td>" }.joined() + "</tr>\n"
        }
        return html + "</table>\n</details>\n</section>\n"
    }
}
