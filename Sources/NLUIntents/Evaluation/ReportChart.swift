import Foundation

/// The inline SVG charts of the report pages: the confidence histogram of an evaluation and the line
/// charts of training curves. Plain SVG elements with `<title>` tooltips, sized by a `viewBox` so they
/// scale with the page; every label from data is escaped; values that are not finite numbers (a
/// diverged loss) are left out of the drawing rather than written as `nan` coordinates.
enum ReportChart {
    /// Drawing area and margins of every chart, in SVG units.
    private static let width = 720.0, height = 280.0
    private static let left = 58.0, right = 18.0, top = 18.0, bottom = 44.0

    /// Series colours in order: blue, orange, green, purple.
    static let palette = ["#2f6fd0", "#e8590c", "#2b8a3e", "#862e9c"]

    /// Side-by-side bars per confidence bin: right predictions (blue) and wrong ones (orange), each
    /// nonzero bar labelled with its count (wrong answers are often too few to see as bars).
    static func histogram(_ histogram: ConfidenceHistogram) -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let highest = max(1, (histogram.correct + histogram.wrong).max() ?? 1)
        let axis = Axis(low: 0, high: Double(highest), integers: true)
        var svg = open(label: "Histogram of prediction confidence, right and wrong predictions")
        svg += grid(axis, plotWidth: plotWidth, plotHeight: plotHeight)
        let slot = plotWidth / Double(histogram.binCount)
        let barWidth = slot * 0.36
        for index in 0..<histogram.binCount {
            let bounds = histogram.bounds(of: index)
            let range = String(format: "%.1f–%.1f", bounds.lower, bounds.upper)
            for (offset, (count, name, colour)) in [(histogram.correct[index], "right", palette[0]),
                                                   (histogram.wrong[index], "wrong", palette[1])].enumerated() {
                let x = left + slot * Double(index) + slot * 0.14 + Double(offset) * barWidth
                let y = top + plotHeight - axis.fraction(Double(count)) * plotHeight
                svg += rect(x: x, y: y, width: barWidth, height: top + plotHeight - y, fill: colour,
                            title: "confidence \(range): \(count) \(name)")
                if count > 0 {
                    svg += text(x: x + barWidth / 2, y: y - 3, anchor: "middle", "\(count)", size: 10)
                }
            }
            svg += text(x: left + slot * Double(index), y: top + plotHeight + 16, anchor: "middle", format(bounds.lower, decimals: 1))
        }
        svg += text(x: left + plotWidth, y: top + plotHeight + 16, anchor: "middle", "1.0")
        svg += text(x: left + plotWidth / 2, y: height - 6, anchor: "middle", "confidence of the predicted intent")
        return svg + "</svg>\n"
    }

    /// One line per curve over the x values of its points, with dots carrying tooltips, and a dashed
    /// vertical line at `chart.markedX` (the epoch whose weights were kept).
    static func lines(_ chart: TrainingReportPage.Chart) -> String {
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let points = chart.curves.flatMap(\.points).filter { $0.x.isFinite && $0.y.isFinite }
        var svg = open(label: chart.title)
        guard let minX = points.map(\.x).min(), let maxX = points.map(\.x).max(),
              let minY = points.map(\.y).min(), let maxY = points.map(\.y).max() else {
            return svg + text(x: width / 2, y: height / 2, anchor: "middle", "no finite values to draw") + "</svg>\n"
        }
        let yAxis = Axis(low: min(0, minY), high: max(maxY, chart.yAtLeast.flatMap { $0.isFinite ? $0 : nil } ?? maxY), integers: false)
        // One point alone sits in the middle of the chart.
        let xAxis = Axis(low: minX == maxX ? minX - 1 : minX, high: minX == maxX ? maxX + 1 : maxX, integers: true, padded: false)
        func position(_ point: TrainingReportPage.Point) -> (x: Double, y: Double) {
            (left + xAxis.fraction(point.x) * plotWidth, top + plotHeight - yAxis.fraction(point.y) * plotHeight)
        }
        svg += grid(yAxis, plotWidth: plotWidth, plotHeight: plotHeight)
        for tick in xAxis.ticks {
            svg += text(x: left + xAxis.fraction(tick) * plotWidth, y: top + plotHeight + 16, anchor: "middle", format(tick, decimals: 0))
        }
        svg += text(x: left + plotWidth / 2, y: height - 6, anchor: "middle", chart.xLabel)
        if let marked = chart.markedX, marked.isFinite, marked >= xAxis.low, marked <= xAxis.high {
            let x = left + xAxis.fraction(marked) * plotWidth
            svg += "<line x1=\"\(coordinate(x))\" y1=\"\(coordinate(top))\" x2=\"\(coordinate(x))\" y2=\"\(coordinate(top + plotHeight))\" stroke=\"#6b7385\" stroke-dasharray=\"4 4\"/>\n"
            svg += text(x: x, y: top - 5, anchor: "middle", chart.markLabel)
        }
        for (index, curve) in chart.curves.enumerated() {
            let colour = palette[index % palette.count]
            // A non-finite value breaks the line: each run of finite points is its own polyline.
            var runs: [[TrainingReportPage.Point]] = [[]]
            for point in curve.points {
                if point.x.isFinite && point.y.isFinite { runs[runs.count - 1].append(point) } else if !(runs.last ?? []).isEmpty { runs.append([]) }
            }
            for run in runs where run.count > 1 {
                let list = run.map { let p = position($0); return "\(coordinate(p.x)),\(coordinate(p.y))" }.joined(separator: " ")
                svg += "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(list)\"/>\n"
            }
            // Dots on every point of a short curve; a long one (a tagger's hundred iterations) stays a line.
            let radius = curve.points.count <= 40 ? 3 : 1.5
            for point in curve.points where point.x.isFinite && point.y.isFinite {
                let p = position(point)
                let title = "\(curve.name), \(chart.xLabel) \(format(point.x, decimals: 0)): \(format(point.y, decimals: 4))"
                svg += "<circle cx=\"\(coordinate(p.x))\" cy=\"\(coordinate(p.y))\" r=\"\(radius)\" fill=\"\(colour)\"><title>\(ReportPage.escape(title))</title></circle>\n"
            }
        }
        return svg + "</svg>\n"
    }

    /// An HTML legend: a colour swatch and a name per series, in palette order.
    static func legend(_ names: [String]) -> String {
        var html = "<div class=\"legend\">"
        for (index, name) in names.enumerated() {
            html += "<span><span class=\"swatch\" style=\"background:\(palette[index % palette.count])\"></span>\(ReportPage.escape(name))</span>"
        }
        return html + "</div>\n"
    }

    // MARK: Pieces

    private static func open(label: String) -> String {
        "<svg viewBox=\"0 0 \(Int(width)) \(Int(height))\" width=\"\(Int(width))\" height=\"\(Int(height))\" role=\"img\" aria-label=\"\(ReportPage.escape(label))\">\n"
    }

    /// Horizontal grid lines and labels at the y axis's ticks, and the two axes.
    private static func grid(_ axis: Axis, plotWidth: Double, plotHeight: Double) -> String {
        var svg = ""
        for tick in axis.ticks {
            let y = top + plotHeight - axis.fraction(tick) * plotHeight
            svg += "<line class=\"grid\" x1=\"\(coordinate(left))\" y1=\"\(coordinate(y))\" x2=\"\(coordinate(left + plotWidth))\" y2=\"\(coordinate(y))\"/>\n"
            svg += text(x: left - 6, y: y + 4, anchor: "end", format(tick, decimals: axis.decimals))
        }
        svg += "<line class=\"axis\" x1=\"\(coordinate(left))\" y1=\"\(coordinate(top))\" x2=\"\(coordinate(left))\" y2=\"\(coordinate(top + plotHeight))\"/>\n"
        svg += "<line class=\"axis\" x1=\"\(coordinate(left))\" y1=\"\(coordinate(top + plotHeight))\" x2=\"\(coordinate(left + plotWidth))\" y2=\"\(coordinate(top + plotHeight))\"/>\n"
        return svg
    }

    private static func rect(x: Double, y: Double, width: Double, height: Double, fill: String, title: String) -> String {
        "<rect x=\"\(coordinate(x))\" y=\"\(coordinate(y))\" width=\"\(coordinate(width))\" height=\"\(coordinate(max(0, height)))\" fill=\"\(fill)\"><title>\(ReportPage.escape(title))</title></rect>\n"
    }

    private static func text(x: Double, y: Double, anchor: String, _ content: String, size: Int? = nil) -> String {
        let font = size.map { " font-size=\"\($0)\"" } ?? ""
        return "<text x=\"\(coordinate(x))\" y=\"\(coordinate(y))\" text-anchor=\"\(anchor)\"\(font)>\(ReportPage.escape(content))</text>\n"
    }

    /// An SVG coordinate with one decimal (the drawing is 720 units wide; finer is noise in the file).
    private static func coordinate(_ value: Double) -> String { String(format: "%.1f", value) }

    /// A tick or tooltip number: `decimals` decimals, scientific notation for very large or small magnitudes.
    static func format(_ value: Double, decimals: Int) -> String {
        let magnitude = abs(value)
        if magnitude >= 1e6 || (magnitude > 0 && magnitude < 1e-4) { return String(format: "%.2e", value) }
        return String(format: "%.\(decimals)f", value)
    }

    /// A value axis from `low` to a round number at or above `high`, with about five round ticks.
    private struct Axis {
        var low: Double
        var high: Double
        var step: Double
        /// Decimals that tell the ticks apart.
        var decimals: Int

        init(low: Double, high: Double, integers: Bool, padded: Bool = true) {
            let span = high > low ? high - low : max(1, abs(low))
            var step = Self.roundStep(span / 5)
            if integers { step = max(1, step.rounded()) }
            self.step = step
            self.low = padded ? (low / step).rounded(.down) * step : low
            self.high = padded ? max((high / step).rounded(.up) * step, self.low + step) : max(high, low + step)
            decimals = integers ? 0 : max(0, min(6, Int((-log10(step)).rounded(.up))))
        }

        /// 1, 2 or 5 times a power of ten, the first at or above `raw`.
        private static func roundStep(_ raw: Double) -> Double {
            guard raw.isFinite, raw > 0 else { return 1 }
            let power = pow(10, (log10(raw)).rounded(.down))
            for factor in [1.0, 2, 5, 10] where factor * power >= raw * 0.999 { return factor * power }
            return 10 * power
        }

        var ticks: [Double] {
            var ticks: [Double] = []
            var value = (low / step).rounded(.up) * step
            // At most a few dozen ticks whatever the values: the step is a fifth of the span.
            while value <= high + step * 1e-9, ticks.count < 50 {
                ticks.append(value)
                value += step
            }
            return ticks
        }

        /// Where `value` lies between `low` (0) and `high` (1).
        func fraction(_ value: Double) -> Double {
            high > low ? (value - low) / (high - low) : 0.5
        }
    }
}
