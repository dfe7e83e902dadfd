import Foundation
import Testing

/// `--verbose` on `entities extract` and `intents predict`: a text written in a script its language does not
/// use is read as any other (exit 0), with a note on stderr saying so; without `--verbose`, nothing is said.
@Suite struct ScriptNoteCommandTests {
    @Test func entitiesExtractSaysWhenTheTextIsInAnotherScript() throws {
        let noted = try runNLU(["entities", "extract", "--verbose", "明天下午三点开会", "at 3 pm"])
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(noted.stderr == "note: \"明天下午三点开会\" is written in Han, not in the Latin script of 'en': the built-ins read nothing there\n")
        #expect(noted.stdout.contains("at 3 pm\n  [3..<7]"), "\(noted.stdout)")
        let quiet = try runNLU(["entities", "extract", "明天下午三点开会"])
        #expect(quiet.status == 0 && quiet.stderr.isEmpty, "\(quiet.stderr)")
        let chinese = try runNLU(["entities", "extract", "--verbose", "--language", "zh", "明天下午三点开会"])
        #expect(chinese.status == 0 && chinese.stderr.isEmpty, "\(chinese.stderr)")
    }

    @Test func intentsPredictSaysWhenTheUtteranceIsInAnotherScript() throws {
        let model = fixturesDirectory.appendingPathComponent("entities/pre-entities.nlumodel").path
        let noted = try runNLU(["intents", "predict", "--model", model, "--verbose", "Включи радио пожалуйста", "hello"])
        #expect(noted.status == 0, "\(noted.stderr)")
        #expect(noted.stderr.contains("note: \"Включи радио пожалуйста\" is written in Cyrillic, not in the Latin script of 'en': the model's words and built-ins read nothing there"),
                "\(noted.stderr)")
        #expect(!noted.stderr.contains("\"hello\""))
    }
}
