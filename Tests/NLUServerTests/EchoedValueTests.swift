import Foundation
import NLUCore
import Testing
@testable import NLUServer

/// Error messages quote the client's values (a bad `encoding_format`, a bad `reference_time`, an
/// unknown path) through one helper that keeps the first 64 Unicode scalars: a megabyte sent is not
/// a megabyte answered, logged or shown on a dashboard.
@Suite("Echoed values")
struct EchoedValueTests {
    static let long = String(repeating: "x", count: 10_000)
    static let prefix = String(repeating: "x", count: 64) + "…"

    @Test func aLongEncodingFormatOrReferenceTimeIsQuotedShort() async throws {
        try await withTestServer { server in
            let format = try await server.request("POST", "/v1/embeddings", json: try jsonString(["input": "a", "encoding_format": Self.long]))
            #expect(format.status == 400)
            #expect(format.errorMessage == "field 'encoding_format': expected \"float\" or \"base64\", got \"\(Self.prefix)\"")
            let time = try await server.request("POST", "/model/parse", json: try jsonString(["text": "pay $20 tomorrow", "reference_time": Self.long]))
            #expect(time.status == 400)
            #expect(time.errorMessage == "field 'reference_time': invalid reference time \"\(Self.prefix)\": "
                    + "expected ISO 8601 YYYY-MM-DD or YYYY-MM-DDTHH:MM[:SS], optionally with Z or an offset from -14:00 to +14:00 (e.g. 2016-11-07T16:12:00)")
        }
    }

    @Test func aLongUnknownPathIsQuotedShort() async throws {
        try await withTestServer { server in
            let path = "/" + String(repeating: "p", count: 5_000)
            let notFound = try await server.request("GET", path)
            #expect(notFound.status == 404)
            #expect(notFound.errorMessage == "no route /" + String(repeating: "p", count: 63) + "…")
        }
    }

    /// A number no Double holds: the message says where it is and quotes its first digits, not
    /// all 5,000 of them.
    @Test func aLongNumberThatDoesNotFitIsNotQuotedWhole() async throws {
        try await withTestServer { server in
            let digits = String(repeating: "9", count: 5_000)
            let body = #"{"question": "q?", "context": "c", "top_k": \#(digits)}"#
            let response = try await server.request("POST", "/question-answering", json: body)
            #expect(response.status == 400)
            let message = response.errorMessage
            #expect(message == "malformed JSON: not valid JSON (the number \(String(repeating: "9", count: 64))… in field 'top_k' is out of range at line 1, column 45)",
                    "\(message.prefix(300))")
        }
    }
}
