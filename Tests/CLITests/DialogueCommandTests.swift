import Foundation
import NLUTestSupport
import Testing

/// End-to-end tests of `nlu dialogue import|chat` on IBM's car-dashboard workspace, with turns written as
/// JSON messages (no intent model), bad inputs included.
@Suite struct DialogueCommandTests {
    static let workspace = fixturesDirectory.appendingPathComponent("dialogue/watson-car-dashboard/car_workspace.json").path

    static let lightsOn = #"{"text":"turn on the lights","intents":[{"intent":"turn_on","confidence":0.9}],"entities":[{"entity":"appliance","value":"lights"}]}"#
    static let restaurant = #"{"text":"find a restaurant","intents":[{"intent":"locate_amenity","confidence":0.9}],"entities":[{"entity":"amenity","value":"restaurant"}]}"#

    @Test func importWritesADialogueThatChatRuns() throws {
        let directory = try TestScratch.folder("nlu-dialogue-cli")
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
        let errors = try TestScratch.folder("nlu-dialogue-cli").appendingPathComponent("stderr.txt")
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
        let directory = try TestScratch.folder("nlu-dialogue-cli")
        let state = directory.appendingPathComponent("state.json").path
        let key = ["--state-key", directory.appendingPathComponent("state.key").path]
        let first = try runNLU(["dialogue", "chat", Self.workspace, "--state", state, "--json"] + key, input: Self.restaurant + "\n")
        #expect(first.status == 0, "\(first.stderr)")
        let lines = first.stdout.split(separator: "\n")
        #expect(lines.count == 2)
        let turn = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(turn?["visited"] as? [String] == ["node_7_1467233747449", "node_10_1467233806357"])
        #expect((turn?["state"] as? [String: Any])?["turn"] as? Int == 2)

        let second = try runNLU(["dialogue", "chat", Self.workspace, "--state", state] + key,
                                input: #"{"text":"tacos","entities":[{"entity":"cuisine","value":"tacos"}]}"# + "\n")
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stdout.hasPrefix("I've found 5 restaurant locations for you. Which one would you like to drive to?\n"))

        // Another dialogue refuses the state; a file that is not a state is not replaced.
        let other = directory.appendingPathComponent("other.json").path
        try Data(#"{"format":"nlu-dialogue","formatVersion":1,"nodes":[{"id":"a","condition":"anything_else"}]}"#.utf8)
            .write(to: URL(fileURLWithPath: other))
        let refused = try runNLU(["dialogue", "chat", other, "--state", state] + key, input: "hi\n")
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("\(state): the conversation state belongs to another dialogue"), "\(refused.stderr)")
        let notes = directory.appendingPathComponent("notes.txt").path
        try Data("notes\n".utf8).write(to: URL(fileURLWithPath: notes))
        let kept = try runNLU(["dialogue", "chat", other, "--state", notes] + key, input: "hi\n")
        #expect(kept.status == 1 && kept.stderr.contains("not an NLUKit conversation state"))
        #expect(try String(contentsOfFile: notes, encoding: .utf8) == "notes\n")
    }

    /// The --state file is signed: its key is made on first use (readable by its owner only, its path said, the
    /// key never printed); a file whose state was edited, signed with another key, cut short or written before
    /// states were signed is refused naming the file (exit 1) and left as it was; an old key still verifies.
    @Test func anEditedOrForeignStateFileIsRefused() throws {
        let directory = try TestScratch.folder("nlu-dialogue-cli")
        let state = directory.appendingPathComponent("state.json")
        let keyFile = directory.appendingPathComponent("keys/state.key")
        let key = ["--state-key", keyFile.path]
        let first = try runNLU(["dialogue", "chat", Self.workspace, "--state", state.path] + key, input: Self.restaurant + "\n")
        #expect(first.status == 0, "\(first.stderr)")
        #expect(first.stderr.contains("made a new key for signing conversation states: \(keyFile.path)"))
        let secret = try String(contentsOf: keyFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(secret.count == 64 && !first.stderr.contains(secret) && !first.stdout.contains(secret))
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile.path)[.posixPermissions] as? Int == 0o600)
        let signed = try Data(contentsOf: state)
        let object = try #require(try JSONSerialization.jsonObject(with: signed) as? [String: Any])
        #expect(object["format"] as? String == "nlu-dialogue-state" && object["signature"] is String)
        let firstKey = try #require(object["key"] as? String)

        func expectRefused(_ data: Data, _ arguments: [String], _ message: String, sourceLine: Int = #line) throws {
            try data.write(to: state)
            let run = try runNLU(["dialogue", "chat", Self.workspace, "--state", state.path] + arguments, input: "hello\n")
            #expect(run.status == 1, "line \(sourceLine): \(run.stderr)")
            #expect(run.stderr.contains("\(state.path): \(message)"), "line \(sourceLine): \(run.stderr)")
            #expect(run.stdout.isEmpty)
            #expect(try Data(contentsOf: state) == data, "line \(sourceLine): the file was changed")
        }
        // The cuisine answered before it was asked: the context edited inside the signed state.
        let inner = try #require(object["state"] as? String)
        var edited = object
        edited["state"] = inner.replacingOccurrences(of: #""previous_cuisine":"""#, with: #""previous_cuisine":"thai""#)
        #expect(edited["state"] as? String != inner)
        try expectRefused(try JSONSerialization.data(withJSONObject: edited), key, "the conversation state's signature does not verify")
        var garbled = object
        garbled["signature"] = "not base64"
        try expectRefused(try JSONSerialization.data(withJSONObject: garbled), key,
                          "not a signed conversation state: field 'signature': not an HMAC-SHA256 in base64 (32 bytes)")
        // Cut short, it is no longer recognisably nlu's: not replaced, as any other file.
        try expectRefused(signed.prefix(signed.count / 2), key, "holds a file that is not an NLUKit conversation state")
        try expectRefused(Data(inner.utf8), key, "the conversation state has no signature")
        // Another key: refused; with the first one as an old key, the conversation goes on and is signed anew.
        let otherKey = ["--state-key", directory.appendingPathComponent("other.key").path]
        try expectRefused(signed, otherKey, "the conversation state was signed with another key")
        let rotated = try runNLU(["dialogue", "chat", Self.workspace, "--state", state.path, "--old-state-key", keyFile.path] + otherKey,
                                 input: #"{"text":"tacos","entities":[{"entity":"cuisine","value":"tacos"}]}"# + "\n")
        #expect(rotated.status == 0, "\(rotated.stderr)")
        #expect(rotated.stdout.hasPrefix("I've found 5 restaurant locations for you."))
        let resigned = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        #expect(resigned["key"] as? String != firstKey && (resigned["key"] as? String)?.count == 16)

        // The key from the environment, or from the default file under XDG_CONFIG_HOME; a bad one named, never shown.
        let fresh = directory.appendingPathComponent("fresh.json").path
        let environment = ["NLUKIT_DIALOGUE_STATE_KEY": String(repeating: "ab", count: 32)]
        #expect(try runNLU(["dialogue", "chat", Self.workspace, "--state", fresh], input: "", environment: environment).status == 0)
        let wrongEnvironment = try runNLU(["dialogue", "chat", Self.workspace, "--state", fresh], input: "",
                                          environment: ["NLUKIT_DIALOGUE_STATE_KEY": String(repeating: "cd", count: 32)])
        #expect(wrongEnvironment.status == 1 && wrongEnvironment.stderr.contains("signed with another key"), "\(wrongEnvironment.stderr)")
        let badEnvironment = try runNLU(["dialogue", "chat", Self.workspace, "--state", fresh], input: "",
                                        environment: ["NLUKIT_DIALOGUE_STATE_KEY": "s3cr3t-but-short"])
        #expect(badEnvironment.status == 1 && badEnvironment.stderr.contains("state key $NLUKIT_DIALOGUE_STATE_KEY: holds 16 characters"))
        #expect(!badEnvironment.stderr.contains("s3cr3t"))
        // Rotation through the environment: the first key still verifies as an old one.
        let rotatedEnvironment = try runNLU(["dialogue", "chat", Self.workspace, "--state", fresh], input: "",
                                            environment: ["NLUKIT_DIALOGUE_STATE_KEY": String(repeating: "cd", count: 32),
                                                          "NLUKIT_DIALOGUE_STATE_OLD_KEYS": String(repeating: "ef", count: 32) + "," + String(repeating: "ab", count: 32)])
        #expect(rotatedEnvironment.status == 0, "\(rotatedEnvironment.stderr)")
        // A key file others may read works, with a warning.
        try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: keyFile.path)
        let shared = try runNLU(["dialogue", "chat", Self.workspace, "--state", directory.appendingPathComponent("s.json").path] + key, input: "")
        #expect(shared.status == 0 && shared.stderr.contains("warning: state key \(keyFile.path) can be read by other users (mode 644)"), "\(shared.stderr)")
        let missingOld = directory.appendingPathComponent("none.key").path
        let missing = try runNLU(["dialogue", "chat", Self.workspace, "--state", fresh, "--old-state-key", missingOld] + key, input: "")
        #expect(missing.status == 1 && missing.stderr.contains("state key \(missingOld): cannot be read"), "\(missing.stderr)")
        let config = directory.appendingPathComponent("config")
        let defaulted = try runNLU(["dialogue", "chat", Self.workspace, "--state", directory.appendingPathComponent("d.json").path], input: "",
                                   environment: ["XDG_CONFIG_HOME": config.path, "NLUKIT_DIALOGUE_STATE_KEY": ""])
        #expect(defaulted.status == 0, "\(defaulted.stderr)")
        #expect(FileManager.default.fileExists(atPath: config.appendingPathComponent("nlu/dialogue-state.key").path))
        // The key options without --state, or the key file as the state file, are usage errors.
        #expect(try runNLU(["dialogue", "chat", Self.workspace] + key, input: "").status == 2)
        let same = directory.appendingPathComponent("same.json").path
        let clash = try runNLU(["dialogue", "chat", Self.workspace, "--state", same, "--state-key", same], input: "")
        #expect(clash.status == 2 && clash.stderr.contains("the same file"), "\(clash.stderr)")
        #expect(!FileManager.default.fileExists(atPath: same))
    }

    @Test func badInputsAreNamed() throws {
        let directory = try TestScratch.folder("nlu-dialogue-cli")
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
