import Foundation
import Testing
@testable import NLUCore

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
}
