import Foundation
import NLUSearch
import Testing

/// `DocumentFileReader.read(stream:named:documentID:)`: the documents of standard input for
/// `nlu index add -`, JSONL or one plain-text document, checked as files are.
@Suite struct DocumentStreamReaderTests {
    @Test func jsonlAndPlainTextStreamsGiveTheirDocuments() throws {
        var reader = DocumentFileReader()
        let jsonl = Data((#"{"id": "a", "text": "alpha", "metadata": {"lang": "en"}}"# + "\n\n" + #"{"id": 7, "text": "seven"}"#).utf8)
        #expect(try reader.read(stream: jsonl, named: "standard input")
                == [try IndexDocument(id: "a", text: "alpha", metadataJSON: #"{"lang":"en"}"#), try IndexDocument(id: "7", text: "seven")])
        var plain = DocumentFileReader()
        #expect(try plain.read(stream: Data("Notes\n{not json}\n".utf8), named: "standard input", documentID: "notes")
                == [try IndexDocument(id: "notes", text: "Notes\n{not json}\n")])
    }

    @Test func badStreamsAreRefusedNamingTheStream() throws {
        func message(_ data: Data, id: String? = nil) -> String {
            var reader = DocumentFileReader()
            do {
                _ = try reader.read(stream: data, named: "standard input", documentID: id)
                return "no error"
            } catch {
                return "\(error)"
            }
        }
        for empty in [Data(), Data(" \n\t\n".utf8)] {
            #expect(message(empty).hasPrefix("standard input: no document (it is empty); expected JSONL lines"))
            #expect(message(empty, id: "x") == "standard input: the document is empty")
        }
        #expect(message(Data((#"{"id": "a", "text": "ok"}"# + "\n").utf8) + [0xC3, 0x28]) == "standard input line 2: not valid UTF-8")
        #expect(message(Data([0xFF]), id: "x") == "standard input line 1: not valid UTF-8")
        #expect(message(Data(#"{"text": "no id"}"#.utf8)) == #"standard input line 1: "id" must be a non-empty string (or an integer)"#)
        #expect(message(Data("plain words".utf8)).hasPrefix("standard input line 1: not a JSON object"))
        #expect(message(Data("text".utf8), id: "") == "standard input: the document's id is empty")
    }

    /// An id given on standard input and in a file of the same add names both places.
    @Test func anIdTwiceAcrossStreamAndFileNamesBoth() throws {
        let url = try temporaryIndexURL().deletingLastPathComponent().appendingPathComponent("docs.jsonl")
        try Data(#"{"id": "notes", "text": "from the file"}"#.utf8).write(to: url)
        var reader = DocumentFileReader()
        _ = try reader.read(stream: Data("from standard input".utf8), named: "standard input", documentID: "notes")
        let error = #expect(throws: SearchError.self) { try reader.read(path: url.path) }
        #expect("\(error!)" == "\(url.path) line 1: the id \"notes\" was already given at standard input; ids must be unique within one add")
    }
}
