import Testing
@testable import NLUIntents

/// The CSV reader behind the CSV and Watson NLC importers: RFC 4180 fields, rows numbered by the
/// file line they start on, an unclosed quote reported at the line where it opened.
@Suite struct CSVRowsTests {
    @Test func quotedFieldsMaySpanLinesAndRowsKeepTheirFileLine() throws {
        let rows = try CSVRows.parse("text,intent\r\n\"say \"\"hi\"\"\",greet\n\"two\nlines\",x\n\nlast,y")
        #expect(rows == [
            .init(line: 1, fields: ["text", "intent"]), .init(line: 2, fields: ["say \"hi\"", "greet"]),
            .init(line: 3, fields: ["two\nlines", "x"]), .init(line: 5, fields: [""]), .init(line: 6, fields: ["last", "y"]),
        ])
        #expect(try CSVRows.parse("a\tb\n", delimiter: "\t") == [.init(line: 1, fields: ["a", "b"])])
        #expect(try CSVRows.parse("") == [])
    }

    @Test func anUnclosedQuoteNamesTheLineWhereItOpens() {
        #expect(throws: CSVRows.UnclosedQuote(line: 3)) { try CSVRows.parse("a,b\nc,d\n\"never closed,e\nf,g\n") }
    }
}
