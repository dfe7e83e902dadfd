import Foundation
import NLUCore
import NLUInputOutput

/// What the evaluation and training report pages share: the self-contained HTML document around
/// their sections (inline CSS, no script, nothing fetched from elsewhere, so the file opens offline
/// and from an e-mail attachment alike), HTML escaping, the summary figures at the top, the mark by
/// which nlu recognises a page it wrote, and the atomic write.
///
///     let html = ReportPage.document(title: "car.json", facts: [ReportFact("accuracy", "86.2 %")],
///                                    sections: ["<section>…</section>"])
///     try ReportPage.write(html, to: URL(fileURLWithPath: "report.html"))
public enum ReportPage {
    /// The first two lines of every page: a report command replaces a file that starts with them
    /// without `--force` (re-running the command over its own page), and refuses any other file.
    static let mark = "<!DOCTYPE html>\n<!-- Written by nlu: NLUKit report page -->\n"

    /// The output policy of `--report`: what may be replaced at the path (``OutputFile``).
    public static let outputFile = OutputFile(kind: "an nlu report page (HTML)") { url in
        OutputFile.prefix(of: url, count: mark.utf8.count) == Data(mark.utf8)
    }

    /// `text` with the characters that mean something in HTML (`& < > " '`) as entities: safe between
    /// tags and inside quoted attribute values. Everything a dataset or a user supplied goes through here.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// The whole page: the header with `title` (escaped) and the `facts` as cards, then `sections`
    /// (HTML the page types built, their dataset text already escaped).
    static func document(title: String, subtitle: String, facts: [ReportFact], sections: [String]) -> String {
        var html = mark
        html += """
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>\(css)</style>
        </head>
        <body>
        <header>
        <h1>\(escape(title))</h1>
        <p class="muted">\(escape(subtitle))</p>
        </header>

        """
        if !facts.isEmpty {
            html += "<section class=\"facts\">\n"
            for fact in facts {
                html += "<div class=\"fact\"><div class=\"value\">\(escape(fact.value))</div><div class=\"name\">\(escape(fact.name))</div></div>\n"
            }
            html += "</section>\n"
        }
        html += sections.joined(separator: "\n")
        html += "<footer class=\"muted\">Written by nlu (NLUKit \(escape(NLUKitVersion.string))).</footer>\n</body>\n</html>\n"
        return html
    }

    /// Writes `html` to `url` atomically: a reader sees the old page or the complete new one.
    public static func write(_ html: String, to url: URL) throws {
        try AtomicFile.write(to: url) { try $0.write(Data(html.utf8)) }
    }

    /// `value` with `digits` decimals, "–" when it is not a finite number.
    static func number(_ value: Double, digits: Int = 3) -> String {
        value.isFinite ? String(format: "%.\(digits)f", value) : "–"
    }

    /// `fraction` as a percentage with one decimal ("86.2 %").
    static func percent(_ fraction: Double) -> String {
        fraction.isFinite ? String(format: "%.1f %%", fraction * 100) : "–"
    }

    /// The page style: system fonts, a readable column, tables with a sticky header, the colours of the
    /// charts (blue: right / training, orange: wrong / validation; both readable with colour blindness).
    static let css = """

    :root { --ink: #1d2330; --muted: #6b7385; --line: #d8dce6; --right: #2f6fd0; --wrong: #e8590c; --soft: #f4f6fa; }
    body { font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: var(--ink); margin: 0 auto; max-width: 1100px; padding: 1.2em 1.5em 3em; }
    h1 { font-size: 1.5em; margin: .2em 0 0; } h2 { font-size: 1.15em; margin: 0 0 .5em; }
    header p { margin: .2em 0 1em; }
    section { border: 1px solid var(--line); border-radius: 8px; padding: 1em 1.2em; margin: 1em 0; overflow-x: auto; }
    .muted { color: var(--muted); font-size: .9em; }
    .facts { display: flex; flex-wrap: wrap; gap: .8em; border: 0; padding: 0; }
    .fact { background: var(--soft); border-radius: 8px; padding: .6em 1em; min-width: 8em; }
    .fact .value { font-size: 1.35em; font-weight: 600; font-variant-numeric: tabular-nums; }
    .fact .name { color: var(--muted); font-size: .85em; }
    table { border-collapse: collapse; font-variant-numeric: tabular-nums; }
    th, td { padding: .25em .6em; text-align: right; border-bottom: 1px solid var(--line); }
    th { font-weight: 600; background: #fff; }
    th.name, td.name, td.text { text-align: left; }
    td.text { max-width: 34em; overflow-wrap: anywhere; }
    tr.weak td.name { color: var(--wrong); }
    .bar { display: inline-block; height: .7em; background: var(--right); border-radius: 2px; vertical-align: middle; }
    table.matrix td, table.matrix th { border: 1px solid #eef0f5; padding: .2em .35em; min-width: 1.8em; text-align: center; }
    table.matrix th.column { writing-mode: vertical-rl; transform: rotate(180deg); text-align: left; vertical-align: bottom; white-space: nowrap; font-weight: 500; }
    table.matrix th.row { text-align: right; white-space: nowrap; font-weight: 500; }
    table.matrix td.total { color: var(--muted); border: 0; }
    table.matrix th.corner { text-align: left; vertical-align: bottom; color: var(--muted); font-weight: 400; font-size: .85em; }
    .legend { display: flex; gap: 1.2em; font-size: .9em; margin: .3em 0; }
    .swatch { display: inline-block; width: .9em; height: .9em; border-radius: 2px; vertical-align: -0.1em; margin-right: .3em; }
    svg { max-width: 100%; height: auto; font: 12px system-ui, sans-serif; }
    svg .axis { stroke: #9aa2b4; stroke-width: 1; } svg .grid { stroke: #eceff5; stroke-width: 1; }
    svg text { fill: var(--muted); }
    footer { margin-top: 2em; }

    """
}
