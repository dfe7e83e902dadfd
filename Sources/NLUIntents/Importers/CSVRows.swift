/// RFC 4180 CSV split into rows, each with the file line it starts on, so that errors name the
/// line a user sees in an editor (a quoted field may span lines). An unclosed quote is an error
/// naming the line where it opened, not a label that swallows the rest of the file.
struct CSVRows {
    struct Row: Equatable {
        /// The 1-based line of the file where the row starts.
        var line: Int
        var fields: [String]
    }

    /// A quoted field that is never closed.
    struct UnclosedQuote: Error, Equatable {
        var line: Int
    }

    /// Parses `text`; "\r\n" and "\n" end rows, `""` inside quotes is one quote.
    static func parse(_ text: String, delimiter: Unicode.Scalar = ",") throws(UnclosedQuote) -> [Row] {
        var rows: [Row] = []
        var fields: [String] = []
        var field = String.UnicodeScalarView()
        var line = 1, rowLine = 1
        var inQuotes = false, quoteLine = 1, atFieldStart = true
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endField() {
            fields.append(String(field))
            field = String.UnicodeScalarView()
            atFieldStart = true
        }
        func endRow() {
            endField()
            rows.append(Row(line: rowLine, fields: fields))
            fields = []
        }
        while let scalar = pending ?? scalars.next() {
            pending = nil
            if inQuotes {
                if scalar == "\"" {
                    let next = scalars.next()
                    if next == "\"" { field.append("\""); continue }
                    inQuotes = false
                    pending = next
                    continue
                }
                if scalar == "\n" { line += 1 }
                field.append(scalar)
                continue
            }
            switch scalar {
            case "\"" where atFieldStart:
                inQuotes = true
                quoteLine = line
                atFieldStart = false
            case delimiter:
                endField()
            case "\r":
                let next = scalars.next()
                if next != "\n" { pending = next; field.append(scalar); atFieldStart = false; continue }
                endRow(); line += 1; rowLine = line
            case "\n":
                endRow(); line += 1; rowLine = line
            default:
                field.append(scalar)
                atFieldStart = false
            }
        }
        if inQuotes { throw UnclosedQuote(line: quoteLine) }
        if !fields.isEmpty || !field.isEmpty { endRow() }
        return rows
    }
}
