import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NLUInputOutput
import NLUTestSupport
import Testing

/// The line editor of interactive prompts (`nlu dialogue chat` on a terminal): the bytes a terminal
/// sends decoded into keys, what each key does to the line and the history, and the reader on a real
/// pseudo-terminal (raw mode for the line, the settings restored after it, pasted lines kept).
@Suite struct LineEditorTests {
    static func keys(_ text: String) -> [TerminalKey] {
        var decoder = TerminalKeyDecoder()
        return decoder.feed(Array(text.utf8))
    }

    @Test func bytesBecomeKeys() {
        #expect(Self.keys("a\u{1B}[D\u{1B}OC\u{1B}[A\u{1B}[B\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[3~\r")
                == [.character("a"), .left, .right, .up, .down, .home, .end, .home, .end, .delete, .enter])
        #expect(Self.keys("\u{1}\u{2}\u{3}\u{4}\u{5}\u{6}\u{8}\u{7F}\u{B}\u{C}\u{E}\u{10}\u{15}\u{17}\n")
                == [.home, .left, .interrupt, .endOfInput, .end, .right, .backspace, .backspace, .deleteToEnd, .redraw,
                    .down, .up, .deleteToStart, .deleteWord, .enter])
        // A function key (F5) and an Alt-letter type nothing, a tab is ignored; an arrow with a modifier
        // (Ctrl-Right, `ESC [1;5C`) moves as the arrow.
        #expect(Self.keys("\u{1B}[15~x\u{1B}[1;5Cy\u{1B}bz\t") == [.character("x"), .right, .character("y"), .character("z")])
        // UTF-8 split across reads is held until complete; a stray continuation byte is dropped.
        var decoder = TerminalKeyDecoder()
        let bytes = Array("é日😀".utf8)
        var keys: [TerminalKey] = []
        for byte in bytes { keys += decoder.feed([byte]) }
        #expect(keys == [.character("é"), .character("日"), .character("😀")])
        #expect(decoder.feed([0x80, 0x41]) == [.character("A")])
        // An escape sequence split across reads too.
        #expect(decoder.feed([0x1B]) == [] && decoder.feed([0x5B]) == [] && decoder.feed([0x44]) == [.left])
    }

    @Test func keysEditTheLine() {
        var editor = LineEditor()
        for key in Self.keys("helo wrld") { _ = editor.apply(key) }
        for key: TerminalKey in [.left, .left, .left, .character("o"), .home, .right, .right, .right, .character("l")] {
            _ = editor.apply(key)
        }
        #expect(editor.text == "hello world" && editor.cursor == 4)
        _ = editor.apply(.end)
        _ = editor.apply(.deleteWord)
        #expect(editor.text == "hello " && editor.cursor == 6)
        _ = editor.apply(.deleteWord)
        #expect(editor.text == "" && editor.cursor == 0)
        _ = editor.apply(.backspace)                       // nothing to delete: nothing happens
        for key in Self.keys("abc def") { _ = editor.apply(key) }
        for _ in 0..<3 { _ = editor.apply(.left) }
        _ = editor.apply(.deleteToEnd)
        #expect(editor.text == "abc ")
        _ = editor.apply(.left)
        _ = editor.apply(.deleteToStart)
        #expect(editor.text == " " && editor.cursor == 0)
        _ = editor.apply(.delete)
        #expect(editor.text == "")
        // A letter and its combining accent are one character: one step, one deletion.
        _ = editor.apply(.character("e\u{301}"))
        _ = editor.apply(.character("x"))
        _ = editor.apply(.left)
        _ = editor.apply(.backspace)
        #expect(editor.text == "x")
        // Ctrl-D deletes under the cursor on a line with text; Ctrl-C clears it.
        _ = editor.apply(.home)
        #expect(editor.apply(.endOfInput) == .edited && editor.text == "")
        _ = editor.apply(.character("y"))
        #expect(editor.apply(.interrupt) == .edited && editor.text == "")
        #expect(editor.apply(.interrupt) == .interrupt)
        #expect(editor.apply(.endOfInput) == .endOfInput)
    }

    @Test func historyRecallsEnteredLinesAndKeepsTheDraft() {
        var editor = LineEditor()
        for line in ["first", "second", "second", "   "] {
            for key in Self.keys(line) { _ = editor.apply(key) }
            #expect(editor.apply(.enter) == .submit(line))
        }
        #expect(editor.history == ["first", "second"])     // a repeat and a blank line are not kept
        for key in Self.keys("dra") { _ = editor.apply(key) }
        _ = editor.apply(.up)
        #expect(editor.text == "second" && editor.cursor == 6)
        _ = editor.apply(.up)
        _ = editor.apply(.up)                               // no older entry: stays
        #expect(editor.text == "first")
        _ = editor.apply(.character("!"))                   // a recalled line is edited as a copy
        #expect(editor.apply(.enter) == .submit("first!") && editor.history == ["first", "second", "first!"])
        for key in Self.keys("dra") { _ = editor.apply(key) }
        _ = editor.apply(.up)
        _ = editor.apply(.down)
        #expect(editor.text == "dra")
        let long = LineEditor(history: (0..<1500).map(String.init))
        #expect(long.history.count == LineEditor.historyLimit && long.history.first == "500")
    }

    @Test func columnsCountWideCharactersTwice() {
        #expect(LineEditor.columns(Array("abc")) == 3)
        #expect(LineEditor.columns(Array("日本")) == 4)
        #expect(LineEditor.columns(Array("e\u{301}😀")) == 3)
    }

    /// On a pseudo-terminal: two lines typed (one edited with arrows, one recalled from the history) and
    /// an end of input, all sent at once as a paste would, once the reader has made the terminal raw;
    /// each read returns its line, the prompt and redraws reach the terminal, and the terminal's
    /// settings (canonical, echoing) are back after the line.
    @Test func readerEditsOnARealTerminal() throws {
        let terminal = try PseudoTerminal()
        #expect(TerminalLineReader.isInteractive(input: terminal.slave, output: terminal.slave))
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { ends.forEach { close($0) } }
        #expect(!TerminalLineReader.isInteractive(input: ends[0], output: terminal.slave))
        var before = termios()
        try #require(tcgetattr(terminal.slave, &before) == 0)
        // Typed once the reader has put the terminal in raw mode (as a person types after the prompt).
        terminal.type("hello\u{1B}[D\u{1B}[DX\r\u{1B}[A\r\u{4}")
        let reader = TerminalLineReader(prompt: "> ", input: terminal.slave, output: terminal.slave)
        #expect(try reader.read() == .line("helXlo"))
        var after = termios()
        try #require(tcgetattr(terminal.slave, &after) == 0)
        #expect(after.c_lflag == before.c_lflag && after.c_iflag == before.c_iflag && after.c_lflag & tcflag_t(ICANON | ECHO) != 0)
        #expect(try reader.read() == .line("helXlo"))
        #expect(try reader.read() == .endOfInput)
        #expect(reader.history == ["helXlo"])
        // What the terminal showed: the prompt, the line redrawn with the rest of the row cleared.
        let screen = terminal.screen()
        #expect(screen.contains("\r> helXlo\u{1B}[K\u{1B}[2D"), "\(screen.debugDescription)")
    }
}
