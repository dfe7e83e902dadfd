import Foundation
import Testing
@testable import NLUIntents

/// Watson and watsonx mention locations outside the text are reported, naming the JSON path, and
/// dropped, as CLU's spans are: never clamped or dropped silently.
@Suite struct WatsonMentionRangeTests {
    func write(_ text: String, name: String) throws -> URL { try writeTemporaryFile(text, name: name) }

    /// `[-5,3]` became an annotation, `[14,2400]` was clamped to the end, `[20,10]`, `[1]` and
    /// `[2^63-1, 2^63-1]` vanished: each is now dropped with a warning naming its JSON path.
    @Test(arguments: [DatasetFormat.watson, .watsonxActions])
    func watsonMentionsOutsideTheTextAreDroppedWithAWarning(format: DatasetFormat) throws {
        let locations = ["[-5,3]", "[14,2400]", "[20,10]", "[1]", "[9223372036854775807,9223372036854775807]", "[0,2]", "[3,5]", "[5,7]"]
        let mentions = locations.map { #"{"entity":"e","location":\#($0)}"# }.joined(separator: ",")
        // "😀" is two UTF-16 units: [3,5] is it whole, [5,7] "ab" after it.
        let intents = #"[{"intent":"a","examples":[{"text":"hi 😀ab and more","mentions":[\#(mentions)]},{"text":"hello"}]}]"#
        let json = format == .watson ? #"{"intents":\#(intents),"entities":[],"dialog_nodes":[]}"#
            : #"{"workspace":{"actions":[],"intents":\#(intents),"entities":[]}}"#
        let url = try write(json, name: "\(format.rawValue).json")
        let result = try IntentImporter.importDataset(from: url, options: ImportOptions(format: format))
        let utterance = try #require(result.dataset.intents.first?.utterances.first)
        #expect(utterance.entities == [EntityAnnotation(start: 0, end: 2, entity: "e", value: "hi"),
                                       EntityAnnotation(start: 3, end: 4, entity: "e", value: "😀"),
                                       EntityAnnotation(start: 4, end: 6, entity: "e", value: "ab")])
        let root = format == .watson ? "" : "workspace."
        let outside = "is outside the text (16 UTF-16 units), empty or splits a character"
        let expected = ["[-5, 3] \(outside)", "[14, 2400] \(outside)", "[20, 10] \(outside)", "[1] is not [start, end]",
                        "[9223372036854775807, 9223372036854775807] \(outside)"]
        for (index, problem) in expected.enumerated() {
            let warning = "\(url.path): \(root)intents[0].examples[0].mentions[\(index)]: 'e' location \(problem); annotation dropped"
            #expect(result.warnings.contains(warning), "\(warning) not in \(result.warnings)")
        }
    }
}
