import Foundation
import Testing
@testable import NLUInputOutput

/// JSON decoding errors name the file and the field, including the numbers Foundation reports as
/// "not valid JSON" for the whole document (a fraction or 10^30 where an integer belongs).
@Suite struct JSONFileTests {
    struct Layer: Decodable { var size: Int; var rate: Double }
    struct Config: Decodable { var name: String; var layers: [Layer]; var heads: Int }

    func message(_ json: String) -> String {
        do {
            _ = try JSONFile.decode(Config.self, from: Data(json.utf8), file: "config.json")
            return "decoded"
        } catch {
            return "\(error)"
        }
    }

    @Test func aNumberThatDoesNotFitNamesItsField() {
        #expect(message(#"{"name": "a", "layers": [{"size": 2, "rate": 0.5}, {"size": 4.5, "rate": 0.1}], "heads": 2}"#)
                == "config.json: field 'layers[1].size': 4.5 does not fit the expected type (a whole number, or a number in range)")
        #expect(message(#"{"name": "a", "layers": [], "heads": 1e30}"#).hasPrefix("config.json: field 'heads': 1e+30 does not fit"))
        #expect(message(#"{"name": "a", "layers": [], "heads": 9223372036854775808}"#).hasPrefix("config.json: field 'heads': 9223372036854775808"))
    }

    @Test func wrongTypesMissingFieldsAndSyntaxAreNamed() {
        #expect(message(#"{"name": 3, "layers": [], "heads": 1}"#) == "config.json: field 'name': expected a string, found 3")
        #expect(message(#"{"name": "a", "layers": [{"rate": 0.5}], "heads": 1}"#) == "config.json: field 'layers[0].size': missing")
        #expect(message(#"{"name": "a", "layers": null, "heads": 1}"#) == "config.json: field 'layers': expected an array, found null")
        #expect(message("{\"name\": \"a\",\n \"layers\": [}") .hasPrefix("config.json: not valid JSON (line 2, column"))
        #expect(message(#"{"name": "a", "layers": [], "heads": 2}"#) == "decoded")
    }

    /// What Foundation's JSONSerialization says about `json`, turned into our words.
    func syntax(_ json: String) -> String {
        do {
            _ = try JSONSerialization.jsonObject(with: Data(json.utf8), options: [.fragmentsAllowed])
            return "parsed"
        } catch {
            return JSONFile.syntaxErrorLocation(error, data: Data(json.utf8))
        }
    }

    /// Foundation's sentences for these have no position, and two of them are wrong ("end of file" for
    /// a lone surrogate or `tru`); each now says what and where.
    @Test func syntaxProblemsWithoutAFoundationPositionAreLocated() {
        #expect(syntax("{\"name\": \"a\",\n \"layers\": [\n") == "ends in the middle of a value at line 2")
        #expect(syntax("{\"name\":\n  \"unterminated") == "ends in the middle of a value at line 2")
        #expect(syntax(#"{"a": "\ud800"}"#) == "invalid \\u escape: a lone surrogate at line 1, column 8")
        #expect(syntax(#"{"a":"# + "\n" + #" "x\udfff"}"#) == "invalid \\u escape: a lone surrogate at line 2, column 4")
        #expect(syntax(#"["\ud800\u0041"]"#) == "invalid \\u escape: a lone surrogate at line 1, column 3")
        #expect(syntax("{\"a\": [1,\n {\"b\": 1e309}]}") == "the number 1e309 in field 'a[1].b' is out of range at line 2, column 8")
        // A number of 5,000 digits is quoted by its first 64.
        #expect(syntax("[" + String(repeating: "9", count: 5_000) + "]")
                == "the number \(String(repeating: "9", count: 64))… in field '[0]' is out of range at line 1, column 2")
        #expect(syntax("{\"a\": tru}") == "unexpected character '}' at line 1, column 10")
        #expect(syntax(#""\u12G4""#) == "invalid escape in a string at line 1, column 2 (expected \\\", \\\\, \\/, \\b, \\f, \\n, \\r, \\t or \\u and four hex digits)")
        #expect(syntax("  \n ") == "the file is empty")
        #expect(syntax(#"{"a": "\ud83d\ude00", "b": [1,]}"#) == "parsed")   // a pair, and the trailing comma Foundation allows
    }

    @Test func scannerAgreesWithFoundationOnValidJSONAtAnyDepth() {
        let deep = String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
        #expect(JSONSyntaxProblem.find(in: Data(deep.utf8)) == nil)
        #expect(JSONSyntaxProblem.find(in: Data(#"{"a": [1, -2.5e-3, true, false, null, "\n\u00e9"], "b": {}}"#.utf8)) == nil)
        #expect(JSONSyntaxProblem.find(in: Data("[1] x".utf8))?.description == "more text after the JSON value at line 1, column 5")
    }
}
