import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu dialogue import|chat` on IBM's car-dashboard workspace, with turns written as
/// JSON messages (no intent model), bad inputs included.
@Suite struct DialogueCommandTests {
    static let workspace = fixturesDirectory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json").path

    static let lightsOn = #"{"text":"turn on the lights","intents":[{"intent":"turn_on","confidence":0.9}],"entities":[{"entity":"appliance","value":"lights"}]}"#
    static let restaurant = #"{"text":"find a restaurant","intents":[{"intent":"locate_amenity","confidence":0.9}],"entities":[{"entity":"amenity","value":"restaurant"}]}"#

    func workDirectory() throws -> URL { try makeWorkDirectory("nlu-dialogue-cli") }

    @Test func importWritesADialogueThatChatRuns() throws {
        let directory = try workDirectory()
        let output = directory.appendingPathComponent("car.json").path
        let run = try runNLU(["dialogue", "import", Self.workspace, "-o", output, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "{\"nodes\":46,\"output\":\"\(output)\",\"warnings\":12}\n")
        #expect(run.stderr.contains("warning: node 'slot_32_1530147346206'"))
        // Run again over its own output: replaced without --force.
        #expect(try runNLU(["dialogue", "import", Self.workspace, "-o", output]).status == 0)

        let chat = try runNLU(["dialogue", "chat", output], input: Self.lightsOn + "\n\nhello\n")
        #expect(chat.status == 0, "\(chat.stderr)")
        #expect(chat.stdout == """
            Hi. It looks like a nice drive today. What would you like me to do?  
            I'll turn on the lights for you.
            [payload {"ui_action":{"lights_on":""}}]
            I'm not sure about that. You can say things like "Turn on my lights" or "Play some music."

            """)
        // The workspace itself runs the same.
        #expect(try runNLU(["dialogue", "chat", Self.workspace], input: Self.lightsOn + "\n\nhello\n").stdout == chat.stdout)
    }

    /// On a terminal the user types with the line editor: the prompt is shown, a typo is mended with
    /// Backspace, and Ctrl-D on the empty line ends the conversation (exit 0).
    @Test func aTerminalGetsALineEditor() throws {
        let terminal = try PseudoTerminal()
        let errors = try workDirectory().appendingPathComponent("stderr.txt")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        let process = Process()
        process.executableURL = productsDirectory.appendingPathComponent("nlu")
        process.arguments = ["dialogue", "chat", Self.workspace]
        let tty = FileHandle(fileDescriptor: terminal.slave, closeOnDealloc: false)
        process.standardInput = tty
        process.standardOutput = tty
        process.standardError = try FileHandle(forWritingTo: errors)
        terminal.type("hellp\u{7F}o\r\u{4}")
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(String(decoding: (try? Data(contentsOf: errors)) ?? Data(), as: UTF8.self))")
        let screen = terminal.screen()
        #expect(screen.contains("Hi. It looks like a nice drive today") && screen.contains("\r> hello\u{1B}[K")
                && screen.contains("I'm not sure about that."), "\(screen.debugDescription)")
    }

    @Test func theStateFileContinuesAConversation() throws {
        let directory = try workDirectory()
        let state = directory.appendingPathComponent("state.json").path
        let first = try runNLU(["dialogue", "chat", Self.workspace, "--state", state, "--json"], input: Self.restaurant + "\n")
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let turn = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(turn?["visited"] as? [String] == ["node_7_1467233747449", "node_10_1467233806357"])
        #expect((turn?["state"] as? [String: Any])?["turn"] as? Int == 2)

        let second = try runNLU(["dialogue", "chat", Self.workspace, "--state", state],
                                input: #"{"text":"tacos","entities":[{"entity":"cuisine","value":"tacos"}]}"# + "\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("I've found 5 restaurant locations for you. Which one would you like to drive to?\n"))

        // Another dialogue refuses the state; a file that is not a state is not replaced.
        let other = directory.appendingPathComponent("other.json").path
        try Data(#"{"format":"nlu-dialogue","formatVersion":1,"nodes":[{"id":"a","condition":"anything_else"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: other))
        let refused = try runNLU(["dialogue", "chat", other, "--state", state], input: "hi\n")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("the conversation state belongs to another dialogue"))
        let notes = directory.appendingPathComponent("notes.txt").path
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        let kept = try runNLU(["dialogue", "chat", other, "--state", notes], input: "hi\n")
        #expect(kept.status == 1 && kept.stderr.contains("not an NLUKit conversation state"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "notes\n")
    }

    @Test func badInputsAreNamed() throws {
        let directory = try workDirectory()
        let bad = directory.appendingPathComponent("bad.json").path
        try Data(##"{"format":"nlu-dialogue","formatVersion":1,"nodes":[{"id":"a","condition":"#x &&"}]}"##.utf8).write(to: URL(fileURLWithPath: bad))
        let parse = try runNLU(["dialogue", "chat", bad], input: "hi\n")
        #expect(parse.status == 1)
        #expect(parse.stderr.contains("bad.json: node 'a', field 'condition': offset 5 in '#x &&': expected a value, found the end of the expression"))

        let line = try runNLU(["dialogue", "chat", Self.workspace], input: "hello\n{\"text\": 5}\n")
        #expect(line.status == 1)
        #expect(line.stderr.contains("standard input line 2: field 'text'"))

        let notDialogue = directory.appendingPathComponent("list.json").path
        try Data("[1, 2]".utf8).write(to: URL(fileURLWithPath: notDialogue))
        let neither = try runNLU(["dialogue", "import", notDialogue, "-o", directory.appendingPathComponent("x.json").path])
        #expect(neither.status == 1 && neither.stderr.contains("is not a JSON object"))

        let deep = directory.appendingPathComponent("deep.json").path
        try Data(("{\"format\":\"nlu-dialogue\",\"formatVersion\":1,\"nodes\":[{\"id\":\"a\",\"context\":{\"x\":"
                  + String(repeating: "[", count: 300) + String(repeating: "]", count: 300) + "}}]}").utf8).write(to: URL(fileURLWithPath: deep))
        let nested = try runNLU(["dialogue", "chat", deep], input: "hi\n")
        #expect(nested.status == 1 && nested.stderr.contains("deep.json: arrays and objects nest 304 deep; at most 256 levels are accepted"))

        let notes = directory.appendingPathComponent("notes.txt").path
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        let kept = try runNLU(["dialogue", "import", Self.workspace, "-o", notes])
        #expect(kept.status == 1 && kept.stderr.contains("refusing to replace it"))
        #expect(try runNLU(["dialogue", "import", Self.workspace]).status == 2)   // -o missing
    }
}
