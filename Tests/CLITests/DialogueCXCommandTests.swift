import Foundation
import NLUTestSupport
import Testing

/// `nlu dialogue chat --test` and `nlu dialogue import` on a Dialogflow CX agent's flows and pages
/// (Tests/Fixtures/dialogue/dialogflow-cx-pizza): the scripted conversations pass, and the import names what
/// it cannot map.
@Suite struct DialogueCXCommandTests {
    static let agent = fixturesDirectory.appendingPathComponent("dialogue/dialogflow-cx-pizza").path
    static let conversations = fixturesDirectory.appendingPathComponent("dialogue/dialogflow-cx-pizza.jsonl").path

    @Test func scriptedConversationsPass() throws {
        let run = try runNLU(["dialogue", "chat", Self.agent, "--test", Self.conversations])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == """
            passed  a pizza ordered: intent parameter, re-prompt, no to the confirmation, reprompt handler, page no-match
            passed  cancelled in the middle of the form by the flow's intent route, then the start page's no-match
            passed  route groups: the page's own group in the middle of the form, the agent's group listed by the flow on every page
            3 conversations: 3 passed, 0 failed

            """)
    }

    @Test func importNamesWhatItCannotMap() throws {
        let directory = try TestScratch.folder("nlu-dialogue-cx")
        let output = directory.appendingPathComponent("pizza-cx.json").path
        let imported = try runNLU(["dialogue", "import", Self.agent, "-o", output])
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stderr.contains("warning: flow 'Default Start Flow': eventHandlers[1]: event 'sys.no-input-default' is not mapped"))
        #expect(imported.stderr.contains("warning: flow 'Default Start Flow', page 'Confirm': transitionRoutes[0].triggerFulfillment: webhook 'place-order' is not called"))
        // The imported file runs the same conversations.
        let replay = try runNLU(["dialogue", "chat", output, "--test", Self.conversations])
        #expect(replay.status == 0, "\(replay.stderr)")
    }
}
