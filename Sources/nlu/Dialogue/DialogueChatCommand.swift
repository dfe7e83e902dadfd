import ArgumentParser
import Foundation
import NLUKit

/// `nlu dialogue chat`: a conversation with a dialogue, one user turn per line of standard input.
struct DialogueChatCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Talk to a dialogue: each line of stdin is a user turn; the bot's responses are printed.",
        discussion: """
        With --model, each line is classified by that intent model (its intents and entities drive the dialogue's \
        conditions); without, a line starting with { is a message written as JSON ({"text", "intents": \
        [{"intent", "confidence"}], "entities": [{"entity", "value", "number"?}]}), any other line is text with \
        no intent. A new conversation starts with an empty turn (the greeting: conditions welcome and \
        conversation_start). On a terminal the line is typed after a "> " prompt with a line editor (arrows, \
        Home/End, Ctrl-A/E/K/U/W, Up/Down through the conversation's earlier lines; Ctrl-D or Ctrl-C on an empty \
        line ends the conversation); from a pipe or file, lines are read as they come. --state FILE keeps the conversation between runs: read when it exists, written \
        atomically after every turn, signed with HMAC-SHA256 (--state-key): a state file that was edited, or signed \
        with another key, is refused. --json prints one object per turn: {"input", "responses", "visited", \
        "warnings", "state"}. --test FILE replays scripted conversations instead of reading stdin: Rasa test \
        stories (.yml) or a JSONL transcript (one {"user": message, "bot": [texts], "actions": [...], "slots": \
        {...}} per line); each step that differs is printed, and the exit code is 1 when any does.
        """)

    @Argument(help: "The dialogue: an NLUKit dialogue JSON, a Watson Assistant workspace, an Alexa interaction model, a Rasa project folder, or a Lex V2 bot or Dialogflow ES or CX agent (folder or zip).")
    var dialogue: String

    @Option(name: .shortAndLong, help: "An intent model (.nlumodel) that parses each line.")
    var model: String?

    @Option(help: "A conversation state file: continued when it exists, written after every turn (signed).")
    var state: String?

    @OptionGroup var stateKeys: DialogueStateKeyOptions

    @Option(help: "The seed of random responses in a new conversation.")
    var seed: UInt64 = 0

    @Flag(help: "Replace an existing --state file even when it is not a conversation state.")
    var force = false

    @Flag(help: "Print one JSON object per turn.")
    var json = false

    @Option(help: "Replay the scripted conversations in this file (Rasa test stories .yml, or JSONL) and report differences.")
    var test: String?

    @OptionGroup var inputSize: InputSizeOption
    @OptionGroup var precision: PrecisionOption

    func run() throws {
        if stateKeys.isGiven && state == nil { throw ValidationError("--state-key and --old-state-key apply to a --state file; give --state FILE") }
        if let test {
            try DialogueTestRun(dialogue: dialogue, conversations: test, json: json).run()
            return
        }
        var signer: DialogueStateSigner?
        if let state {
            try Console.checkOutput(state, flag: "--state", inputs: [dialogue])
            try DialogueImporter.stateOutput.checkReplaceable(URL(fileURLWithPath: state), force: force,
                                                              remedy: "choose another path, move it away, or pass --force to replace it")
            // After the checks that refuse the state file, so that a refused run makes no key.
            signer = try stateKeys.signer(forStateFile: state)
        }
        let running = try DialogueLoading.load(dialogue)
        let reader = ChatMessageReader(classifier: try model.map {
            try IntentClassifier.loadWithSentenceFeatures(from: URL(fileURLWithPath: $0), precision: precision.precision)
        })
        var conversation = try loadState(for: running, signer: signer)
        if conversation.turn == 0 {
            conversation = try take(ParsedMessage(text: ""), running, conversation, signer: signer)
        }
        var number = 0
        let turn = { (line: String) throws in
            number += 1
            let text = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            conversation = try take(try reader.message(text, source: "standard input", number: number), running, conversation, signer: signer)
        }
        // A person at a terminal types with a line editor (arrows, history, Ctrl-D or Ctrl-C to end);
        // a pipe or a file is read line by line.
        guard !json, TerminalLineReader.isInteractive() else {
            try Console.forEachLine(path: nil, turn)
            return
        }
        let editor = TerminalLineReader(prompt: "> ")
        while case .line(let line) = try editor.read() { try turn(line) }
    }

    /// The state in --state once its signature verifies and the dialogue accepts it, or a new one (no file, or an
    /// empty one).
    private func loadState(for running: Dialogue, signer: DialogueStateSigner?) throws -> DialogueState {
        guard let state, let signer, FileManager.default.fileExists(atPath: state),
              let size = try? FileManager.default.attributesOfItem(atPath: state)[.size] as? Int, size > 0 else { return running.newState(seed: seed) }
        // Read up to the largest signed state, whatever --max-input-size says: no state file is larger.
        let data: Data
        do {
            data = try InputFile.read(URL(fileURLWithPath: state), name: state, maximumBytes: SignedDialogueState.maximumBytes)
        } catch let error as InputTooLargeError {
            throw SignedStateError.tooLarge(source: state, bytes: error.size ?? error.limit + 1, limit: error.limit)
        }
        do {
            let signed = try SignedDialogueState(jsonData: data, source: state)
            return try running.verifiedState(signed, signer: signer, source: state)
        } catch {
            // Through a function taking `any Error`: Swift 6.3's SIL verifier crashed on a `throw` of the typed
            // error bound by this catch.
            throw Self.withRemedy(error, state: state)
        }
    }

    /// `error`, with what starting a new conversation means here when the state file holds an unsigned state.
    private static func withRemedy(_ error: any Error, state: String) -> any Error {
        guard let refusal = error as? SignedStateError, case .unsigned = refusal else { return error }
        return InputError("\(refusal) (remove \(state), or give another --state file)")
    }

    /// Runs one turn, prints it, saves the state (signed).
    private func take(_ message: ParsedMessage, _ running: Dialogue, _ current: DialogueState, signer: DialogueStateSigner?) throws -> DialogueState {
        let turn: DialogueTurn
        do {
            turn = try running.respond(to: message, state: current)
        } catch {
            throw InputError((state.map { "\($0): " } ?? "") + "\(error)")
        }
        if let state, let signer {
            let data: Data
            do {
                data = try signer.sign(turn.state).jsonData()
            } catch {
                throw InputError("\(state): \(error)")
            }
            try AtomicFile.write(to: URL(fileURLWithPath: state)) { try $0.write(data) }
        }
        if json {
            struct Line: Encodable {
                var input: ParsedMessage, responses: [DialogueOutput], visited: [String], warnings: [String], state: DialogueState
            }
            Console.print(try Console.json(Line(input: message, responses: turn.responses, visited: turn.visited,
                                                warnings: turn.warnings, state: turn.state)))
            return turn.state
        }
        for warning in turn.warnings { Console.log("warning: \(warning)") }
        for response in turn.responses { Console.print(Self.display(response)) }
        return turn.state
    }

    /// A response as the terminal shows it.
    static func display(_ response: DialogueOutput) -> String {
        switch response {
        case .text(let text):
            return text
        case .options(let title, let description, _, let options):
            let lines = [title] + (description.map { [$0] } ?? []) + options.enumerated().map { "  \($0 + 1). \($1.label)" }
            return lines.filter { !$0.isEmpty }.joined(separator: "\n")
        case .image(let source, let title, _):
            return "[image \(source)\(title.map { " \"\($0)\"" } ?? "")]"
        case .pause(let milliseconds, _):
            return "[pause \(milliseconds) ms]"
        case .payload(let payload):
            return "[payload \(payload.displayText)]"
        }
    }
}
