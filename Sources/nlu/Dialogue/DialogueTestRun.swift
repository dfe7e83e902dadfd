import ArgumentParser
import Foundation
import NLUKit

/// `nlu dialogue chat DIALOGUE --test FILE`: replays the scripted conversations and prints each step that
/// differs (or, with --json, one object per conversation); exit code 1 when any differs.
struct DialogueTestRun {
    let dialogue: String
    let conversations: String
    let json: Bool

    func run() throws {
        let running = try DialogueLoading.load(dialogue)
        let scripts: [ScriptedConversation]
        let differences: [ConversationTester.Difference]
        do {
            scripts = try ScriptedConversation.read(URL(fileURLWithPath: conversations))
            differences = try ConversationTester(dialogue: running).run(scripts)
        } catch let error as RasaDialogueError {
            throw InputError(error.description)
        } catch let error as DialogueError {
            throw InputError("\(conversations): \(error)")
        }
        if json {
            struct Report: Encodable {
                var conversation: String, passed: Bool
                var differences: [Entry]
            }
            struct Entry: Encodable { var line: Int, what: String, expected: String, got: String }
            for script in scripts {
                let own = differences.filter { $0.conversation == script.name }
                Console.print(try Console.json(Report(conversation: script.name, passed: own.isEmpty,
                                                      differences: own.map { Entry(line: $0.line, what: $0.what, expected: $0.expected, got: $0.got) })))
            }
        } else {
            for script in scripts {
                let own = differences.filter { $0.conversation == script.name }
                Console.print((own.isEmpty ? "passed" : "FAILED") + "  \(script.name)")
                for difference in own {
                    Console.print("  line \(difference.line): \(difference.what): expected \(difference.expected), got \(difference.got)")
                }
            }
            let failed = Set(differences.map(\.conversation)).count
            Console.print("\(Console.count(scripts.count, "conversation")): \(scripts.count - failed) passed, \(failed) failed")
        }
        if !differences.isEmpty { throw ExitCode.failure }
    }
}
